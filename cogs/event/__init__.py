"""/event: a club's Swiss tournaments with sealed army lists, in one package.

- `commands.py`  the cog (`EventCog`), the card's buttons, making, showing, cancelling; the round's clock
- `base.py`      what the cog's parts share: its services, who may organise, which event a command means
- `lists.py`     sealed lists: sending, reading, rejecting, closing (revealing) and verifying them
- `rounds.py`    rounds: publishing, results, drops, byes, standings and the CSV export
- `render.py`    the card, the rounds, the standings, the revealed lists and the DMs
- `text.py`      the English of every event refusal
"""

from __future__ import annotations

from bot.app import MusterBot
from cogs.event.commands import EventCog


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(EventCog(bot))
