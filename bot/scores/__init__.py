"""Scores in the bot: storing results, seasons, announcements, and showing it all in Discord.

The numbers come from `rules.scores` (pure); this package moves rows in and out of the store and
lays the numbers out for Discord. One module per job:
- `service`   the score service: every write to results (record, confirm, dispute, resolve, void,
              auto-confirm, the results hook for finished sessions) and the background sweep
- `cache`     each server's confirmed results and rating memo, and the warm-up after a restart
- `seasons`   starting, ending and choosing league seasons
- `announce`  announcements of confirmed results and notices of disputes and voids (outbox)
- `prompts`   the opponent's Confirm / Dispute prompt
- `layout`    mentions, timestamps, embed pages within Discord's limits; `image` the PNG table
- `names`     display names for images and exports; `rows` store rows ↔ `ResultRecord`s
- `systems`   game system keys and titles
"""

from bot.scores.names import NameCache
from bot.scores.prompts import RESULT_BUTTON, prompt_embed, result_buttons
from bot.scores.rows import record_of
from bot.scores.seasons import SeasonChoice
from bot.scores.service import ManualResult, ScoreService
from bot.scores.systems import known_systems, system_key, system_title

__all__ = [
    "RESULT_BUTTON",
    "ManualResult",
    "NameCache",
    "ScoreService",
    "SeasonChoice",
    "known_systems",
    "prompt_embed",
    "record_of",
    "result_buttons",
    "system_key",
    "system_title",
]
