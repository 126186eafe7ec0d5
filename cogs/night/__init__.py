"""/night: a club's game nights, in one package.

- `commands.py`  the cog (`NightCog`), its buttons and its commands
- `input.py`     reading what is typed (dates, times, systems, the form)
- `render.py`    the card, the pairings, the summary and the DMs as embeds
- `text.py`      the English of every night word and refusal
"""

from __future__ import annotations

from bot.app import MusterBot
from cogs.night.commands import NightCog


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(NightCog(bot))
