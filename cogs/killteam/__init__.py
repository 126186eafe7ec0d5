"""Kill Team: matched play at the table, with sealed bids and secrets in DMs (rules/killteam).

One game, one folder, its modules named as every game's:

- commands.py    the `KillTeam` cog and its /killteam slash commands
- adapter.py     `KillTeamAdapter`: how the platform starts, steps, renders and words the game
- board.py       the board and the event lines (what the table shows after a step)
- questions.py   a question's message at the table and a player's secret prompt (the rules word
                 the questions themselves)
- refusals.py    the English of the game's refusal codes (the `add_words` table)
- vocabulary.py  the names shown to players: methods, sealed rounds, roll-offs, map cards, a
                 finished game's summary
"""

from __future__ import annotations

from bot.app import MusterBot
from cogs.killteam.commands import KillTeam


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(KillTeam(bot))
