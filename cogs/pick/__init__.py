"""/pick: Pick, the smallest whole game (rules/pick), the worked example of docs/NEW_GAME.md.

It is an example, not a game a club plays: bot/app.py leaves it out of a real server, and the tests
load it with `extra_cogs`. A thin adapter, played at the shared table (bot/play/table.py): a start
card, the game in a thread with one living board (who has picked), each player's sealed pick
asked in their DMs, and a draw call (`/pick draw`) asked of both in the thread for a Confirm.

- `commands.py`: the `PickGame` cog and its slash commands (`/pick start`, `/pick draw`, `/pick pack ...`).
- `adapter.py`: `PickAdapter`, how the platform starts, renders and words the game.
- `board.py`: the living board and the event lines.
- `questions.py`: what the rules don't word: a question's message, a private prompt, once answered.
- `refusals.py`: the English of Pick's refusal codes (`ENGLISH`, added with `add_words`).
- `vocabulary.py`: Pick's names shown to players (a player, a pack).
"""

from __future__ import annotations

from bot.app import MusterBot
from cogs.pick.commands import PickGame


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(PickGame(bot))
