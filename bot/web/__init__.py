"""The league web site (`muster web`): a read-only view of the servers that chose to be shown.

- `app`      the aiohttp application (`make_app`), `/health`, and `muster web`'s server
- `pages`    the pages, their ETags and this process's copies of them
- `queries`  what the pages read from the store, each read scoped to one shown server
- `guard`    security headers, the per-address rate limit, the one 404
- `render`   Jinja2 (autoescape on), names, dates, the rating chart; `calendar` the .ics feed
- `words`    every word shown (domain `web`); `members` names and privacy, written by the bot
"""
