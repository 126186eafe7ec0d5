"""/warmaster: the Players Society magic item and tactics cards, dealt and laid by the rules.

A thin adapter over rules/warmaster, played at the shared table (bot/play/table.py): the game's thread
has one living board (every laid card as the table sees it, losses and VP) and one message that
asks both players to begin the battle and then to finish it; either step, pressed by one player,
waits there for the other's Confirm (or the presser's own) and Not yet takes it back. Everything
secret lives in each player's DMs, every message there edited as the game goes on rather than
posted again: their hand (key `hand.<player>`), one prompt per card they may lay (reopened on each
of their turns, and showing where it went once laid), a short "your turn" prompt per turn (the
notification; it says what they did once the turn is over), and their tools for trading, turning
cards up and recording losses. A face-down card is "a face-down magic item card on Knights" to
everyone but its owner until it is turned up. With DMs closed the platform posts an "Open my secret
prompt" button instead.

- `commands.py`: the `Warmaster` cog and its slash commands, with their autocomplete.
- `adapter.py`: `WarmasterAdapter`, how the platform deals, steps, renders and words the game; each
  player's hand and lay prompts in their DMs.
- `board.py`: the living board and the event lines (what the table shows after a step).
- `questions.py`: a question's message (a card's line, the turn's and battle's text), a private prompt once
  answered, and a typed unit type read back for the rules (the rules word the questions themselves).
- `refusals.py`: the words for the refusal codes (`ENGLISH`, added with `add_words`).
- `vocabulary.py`: the game's names shown to players (decks, kinds of target, unit types, roles, who
  may carry a card, a card's cost and line) and the printed deck's effects.
"""

from __future__ import annotations

from bot.app import MusterBot
from cogs.warmaster.commands import Warmaster


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Warmaster(bot))
