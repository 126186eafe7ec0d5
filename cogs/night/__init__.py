"""/night: a club's game nights, in one package.

- `commands.py`  the cog (`NightCog`), its buttons and the commands to make, edit, cancel and show a night
- `base.py`      what the cog's parts share: its services, who may organise, which night a command means
- `signup.py`    the card: joining, changing and leaving a night through its buttons and form
- `review.py`    the organiser's review of the draft pairings: pair, swap, move, drop, publish, finish
- `tables.py`    /night tables: the club's tables and terrain kits
- `input.py`     reading what is typed (dates, times, systems, the form)
- `render.py`    the card, the pairings, the summary and the DMs as embeds
- `text.py`      the English of every night word and refusal
"""

from __future__ import annotations

from bot.app import MusterBot
from cogs.night.commands import NightCog


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(NightCog(bot))
