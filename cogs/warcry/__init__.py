"""/warcry: battleplans, the blocked-objective roll-off, warband and battle-group checks, packs, battles.

One game, one folder; every word comes from the warcry catalogue (the questions, the prompt, the
scoreboard, the event lines and the verdicts as the rules word them, rules/warcry/):

- `commands.py`   the `Warcry` cog and its slash commands (and the warband form)
- `adapter.py`    `WarcryAdapter`: how the platform starts, steps, renders and words a battle
- `board.py`      the board, the event lines and what the battle waits for
- `questions.py`  what a question's message says under its title, and the board's "Now" line
- `refusals.py`   the words for Warcry's refusal codes (`add_words`)
- `vocabulary.py` the game's names shown: battle groups, objectives, decks, roll-offs, results
- `cards.py`      the battleplan card and a pack's decks
"""

from __future__ import annotations

from bot.app import MusterBot
from cogs.warcry.commands import Warcry


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Warcry(bot))
