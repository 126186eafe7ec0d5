"""/40k: a 40K mission (Marked for Death and any a server loads), one folder.

- commands.py    the `FortyK` cog and its slash commands (/40k start, mark, quarters, pack …)
- adapter.py     `FortyKAdapter`: how the platform starts, steps, renders and words the game
- board.py       the living board and a line for each event (what the table shows after a step)
- questions.py   each question's message: who is asked, whose turn it is, why an option is closed
- refusals.py    the English of the game's refusal codes (`fortyk.*`, added with `add_words`)
- vocabulary.py  the names shown to players: deployment zones, condition tiers, set-up stages, players

The rules live in rules/fortyk; the words are in the fortyk catalogue (bot/lang/i18n.py).
"""

from __future__ import annotations

from bot.app import MusterBot
from cogs.fortyk.commands import FortyK


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(FortyK(bot))
