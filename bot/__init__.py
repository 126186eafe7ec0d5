"""Muster's runtime: the Discord client, configuration, the store and the services every game shares.

One folder per job, so that a newcomer looking for "how a message reaches Discord" or "how a game
step is saved" opens one folder, not a list of forty files:
- `chat/`    talking with Discord: messages, rendering within Discord's limits, the outbox and its
             delivery, component ids, the router of clicks and forms, error replies, checks;
- `play/`    the game platform: the game registry, sessions, the table, questions, the game cog
             base, dice, packs, quiet-game reminders;
- `lang/`    languages: the catalogue, who speaks which language, the command translator, the
             refusal words; the catalogue files themselves stay in `bot/locale/` (translators' home);
- `scores/`, `nights/`  the two features other features use, each one service on the bot
             (`bot.scores`, `bot.nights`, typed on `MusterBot`): a cog never reaches another cog;
- `web/`     the league web site (`muster web`): a read-only view of the servers that chose it;
- `doctor/`  `muster doctor`'s checks; `db/` the store.
`app`, `cli`, `config`, `logs`, `migrate`, `worker` and `guild_settings` stay at the top: the
process itself and what every folder uses. The names are short nouns for a job ("play", not
"platform", which is also the standard library's and tests/platform's), and no module shares its
package's name. Imports go one way (tests/platform/test_layout.py checks it, imports inside
functions included).
"""
