"""The one exception a rule raises when a player asks for something the rules forbid."""


class RuleError(Exception):
    """A polite, specific refusal shown to the player who acted; nothing changes.

    The message must never reveal a secret (a sealed choice, a hidden card) of another player.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
