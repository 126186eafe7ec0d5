"""The English of game nights: the bot's own refusal codes (`BOT_ENGLISH`, added to bot/text's
catalogue beside the rules' `night.*` codes) and the words of the card, the pairings, the
reminders and the summary (`WORDS`, formatted with plain values)."""

from __future__ import annotations

ENGLISH: dict[str, str] = {}  # the rules' night.* codes (rules/night), worded by their author

BOT_ENGLISH: dict[str, str] = {
    "night.not_found": "I can't find that game night in this server.",
    "night.busy": "That game night is very busy right now; please try again.",
    "night.unavailable": "Game nights aren't available right now; please try again in a moment.",
    "night.organiser_only": "Only the night's organiser, someone with Manage Server or the organiser role "
    "({role}) can do that.",
    "night.organiser_only_norole": "Only the night's organiser or someone with Manage Server can do that "
    "(a server can name an organiser role with `/settings organiser-role`).",
    "night.which": "This server has {count} game nights coming up: pick one in the `night` option.",
    "night.none_here": "There is no game night coming up here: an organiser can make one with "
    "`/night create`.",
    "night.bad_date": "I couldn't read `{typed}` as a date: write it like 2026-12-05.",
    "night.bad_time": "I couldn't read `{typed}` as a time of day: write it like 19:00 or 7pm.",
    "night.no_such_time": "{date} {time} doesn't exist in {zone} (the clocks skip it): pick another time.",
    "night.cutoff_hours": "The sign-up cut-off is given in hours before the night: 0 to {limit}.",
    "night.already_signed_up": "You're already signed up for {title}: use **Change my sign-up** to change "
    "it, or **Leave** to give up your place.",
    "night.already_waiting": "You're already on the waitlist for {title} (place {position}): use **Change "
    "my sign-up** to change what you asked for.",
    "night.not_signed_up": "You aren't signed up for {title}: press **Sign up** first.",
    "night.points_typed": "Army size / points must be a whole number, like 1000.",
    "night.sent_to_organiser": "Sign-ups for {title} have closed, so I passed your request to the "
    "organiser, <@{organiser}>.",
    "night.table_unknown": "The club has no table `{table}`: see `/night tables list`.",
    "night.tables_full": "The club has {limit} tables already: remove one first.",
    "night.time_zone": "`{typed}` isn't a time zone I know: use a name like Europe/London or "
    "America/New_York (the list offers them as you type).",
    "night.role_managed": "{role} is managed by an integration: pick a role people can be given.",
}

WORDS: dict[str, str] = {
    # the card
    "card.when": "**When:** <t:{start}:F> (<t:{start}:R>)",
    "card.where": "**Where:** {place}",
    "card.systems": "**Games:** {systems}",
    "card.cutoff": "**Sign-ups close:** <t:{cutoff}:F> (<t:{cutoff}:R>)",
    "card.organiser": "**Organiser:** <@{organiser}>",
    "card.repeats": "**Repeats:** {recurrence}",
    "card.signed_up": "Signed up ({count}/{capacity})",
    "card.waitlist": "Waitlist ({count})",
    "card.nobody": "Nobody yet: press **Sign up**.",
    "card.status.open": "Sign-ups are open.",
    "card.status.closed": "Sign-ups are closed; the pairings are being made.",
    "card.status.review": "Sign-ups are closed; the organiser is checking the pairings.",
    "card.status.published": "The pairings are out: see below.",
    "card.status.finished": "This night is over: its summary is in the results.",
    "card.status.cancelled": "This night was cancelled.",
    "card.sign_up": "Sign up",
    "card.change": "Change my sign-up",
    "card.leave": "Leave",
    "weekly": "every week",
    "fortnightly": "every two weeks",
    "default_place": "The club",
    # a player's line
    "line.points": "{points} pts",
    "line.teach": "can teach",
    "line.learn": "wants to learn",
    "line.arranged": "arranged with <@{other}>",
    # the form
    "form.title": "Sign up: {title}",
    "form.systems": "Games, first choice first",
    "form.systems_hint": "{systems}",
    "form.points": "Army size / points (optional)",
    "form.teaching": "Teaching",
    "form.teach": "I can teach",
    "form.learn": "I'd like to learn",
    "form.arranged": "My game is already arranged with",
    "form.note": "A note for the organiser (optional)",
    # answers
    "reply.in": "You're signed up for **{title}** (<t:{start}:F>), place {position} of {capacity}.",
    "reply.changed": "Your sign-up for **{title}** is updated.",
    "reply.waitlisted": "**{title}** is full, so you're on the waitlist, place {position}: I'll tell you if "
    "a place opens.",
    "reply.left": "You've left **{title}**.",
    "reply.created": "Game night **{title}** is set for <t:{start}:F>. Its card is posted here{event}.",
    "reply.created_event": " and a Discord event is being made for it",
    "reply.cancelled": "**{title}** is cancelled; everyone signed up is told.",
    "reply.dropped": "<@{player}> is no longer signed up for **{title}**.",
    "reply.published": "The pairings of **{title}** are published; {games} games opened in their threads.",
    "reply.finished": "**{title}** is over: its summary is posted.",
    "reply.table_saved": "Table `{table}` (**{name}**) suits {systems}.",
    "reply.table_removed": "Table `{table}` is removed.",
    # messages
    "dm.promoted": "A place opened at **{title}** (<t:{start}:F>): you're in! {link}",
    "dm.reminder": "Reminder: **{title}** is <t:{start}:R> (<t:{start}:F>), at {place}. You're signed up "
    "to play {systems}. {link}",
    "dm.reminder_off": "Stop game-night reminders",
    "dm.request": "<@{player}> asks about **{title}** after the cut-off: {what}. {link}",
    "dm.request_signup": "to sign up or change their sign-up ({systems})",
    "dm.request_leave": "to drop out",
    "dm.cancelled": "**{title}** (<t:{start}:F>) is cancelled. Sorry!",
    "channel.cancelled": "**{title}** (<t:{start}:F>) is cancelled.",
    "no_events": "I couldn't make a Discord event for this night: to have one made for each game night, "
    "give me the **Create Events** permission. The night goes on without it.",
    "event.description": "{systems}. Sign up on the night's card in #{channel}.",
    "reminders.off": "You won't get game-night reminders from this server any more. `/night reminders` "
    "turns them back on.",
    "reminders.on": "You'll get a reminder before each game night you sign up for.",
    # pairings
    "pairings.title": "Pairings: {title}",
    "pairings.draft_title": "Draft pairings: {title}",
    "pairings.draft_help": "Check them, then `/night publish`. To change them: `/night swap`, "
    "`/night move`, `/night drop`.",
    "pairings.line": "{index}. **{system}** · <@{first}> vs <@{second}> · {table}",
    "pairings.no_table": "no table free",
    "pairings.because": "paired because: {reasons}",
    "pairings.sat_out": "Sitting out",
    "pairings.sat_out_line": "<@{player}>: {reason}",
    "pairings.games": "Each game of a system Muster runs has its thread under its card below.",
    # summary
    "summary.title": "Night summary: {title}",
    "summary.when": "<t:{start}:D>",
    "summary.result": "**{system}** · <@{first}> {score_first} – {score_second} <@{second}> · {outcome}",
    "summary.won": "<@{winner}> won",
    "summary.draw": "a draw",
    "summary.ratings": "ratings: {changes}",
    "summary.unfinished": "**{system}** · <@{first}> vs <@{second}> · unfinished",
    "summary.cancelled": "**{system}** · <@{first}> vs <@{second}> · cancelled",
    "summary.unrun": "**{system}** · <@{first}> vs <@{second}> · played at the table",
    "summary.nothing": "No games were played.",
    "history.title": "Past game nights",
    "history.line": "<t:{start}:D> · **{title}** · {players} players, {games} games · {status}",
    "history.none": "No game nights have been held here yet.",
    "tables.title": "The club's tables",
    "tables.line": "`{table}` · **{name}** · {systems}{terrain}",
    "tables.none": "No tables yet: add one with `/night tables add`.",
}


def word(key: str, **values: object) -> str:
    """One of `WORDS`, filled in."""
    return WORDS[key].format(**values)
