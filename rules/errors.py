"""The one exception a rule raises when a player asks for something the rules forbid."""

from __future__ import annotations

from collections.abc import Sequence

from rules.words import Words

ParamValue = str | int | float | Words | None


class RuleError(Exception):
    """A polite, specific refusal shown to the player who acted; nothing changes.

    A refusal is a stable `code` with `params` (e.g. `answer.stale`, `now="Veto: pick the map"`); the
    words a player reads are made from them in one place in the bot, so tests assert codes and a
    translation changes no rule. Older refusals still carry a ready sentence: their code is `text`
    and the sentence is `params["text"]`.

    The refusal must never reveal a secret (a sealed choice, a hidden card) of another player.
    """

    def __init__(self, message: str | None = None, /, *, code: str = "text", **params: ParamValue) -> None:
        if message is not None:
            params = {"text": message, **params}
        self.code = code
        self.params: dict[str, ParamValue] = params
        super().__init__(message if message is not None else f"{code} {params}")

    @property
    def message(self) -> str:
        """The ready sentence of an older refusal, else the code and its values (for logs)."""
        return str(self)


class Refusals(RuleError):
    """One refusal for several reasons: an answer that breaks several rules is told every one of
    them at once (each a code with values, in `reasons`), not one per try. `code` words the heading
    the reasons are listed under."""

    def __init__(self, reasons: Sequence[RuleError], *, code: str, **params: ParamValue) -> None:
        super().__init__(code=code, **params)
        self.reasons = list(reasons)
