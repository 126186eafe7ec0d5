"""/scores: results, ratings and leagues, in one package.

- `commands.py`  the cog (`Scores`) and its slash commands: record, resolve, void, leaderboard, history,
                 player, export, season start and end
- `buttons.py`   the buttons that survive restarts (confirm or dispute a result, page the leaderboard)
                 and the words and views they share with the commands
- `player.py`    /scores player's embed: a player's record, ratings, factions and rivals
- `text.py`      the English of every scores refusal, by code
"""

from __future__ import annotations

from bot.app import MusterBot
from cogs.scores.commands import Scores


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Scores(bot))
