"""The English of game nights: every `night.*` refusal of the rules and of the bot (added to bot/text's
catalogue by the night cog through `add_words`), the reasons a pairing was made or a player sat out
(`reason_text`), and the words of the card, the pairings, the reminders and the summary (`WORDS`,
formatted with plain values by `word`).

Everything here is in the night's catalogue domain: the codes (`night.*`) are translated by code,
the words by their English, in the language in force when they are shown.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from bot.lang.i18n import SOURCE, Domain, Value, fill, language, placeholders, speaking
from bot.scores.systems import system_title
from rules.errors import ParamValue
from rules.night.models import Reason

_ = Domain("night")

REFUSALS: dict[str, str] = {
    # a night's settings (rules/night/night.py)
    "night.title_missing": "Give the night a title, e.g. `Thursday club night`.",
    "night.title_long": "A night's title can be at most {limit} characters.",
    "night.in_past": "That time has already passed: pick a time for the night that is still to come.",
    "night.capacity": "A night takes from {minimum} to {maximum} players.",
    "night.no_systems": "Name at least one game system for the night.",
    "night.systems_many": "A night can offer at most {limit} game systems.",
    "night.system_twice": "{system} is listed twice; name each system once.",
    "night.system_name": "Name the game system in at most {limit} letters or digits (e.g. `Kill Team`).",
    "night.time_zone": "`{name}` isn't a time zone I know. Use a name like `Europe/London`.",
    "night.cutoff_after_start": "The sign-up cut-off must be at or before the start of the night.",
    "night.cutoff_past": "That cut-off has already passed: pick a cut-off still to come.",
    "night.no_change": "That is how the night is already set; nothing changed.",
    "night.edit_after_pairing": "The night is already paired, so its {field} can't change any more.",
    "night.system_in_use": (
        "{players} sign-up(s) list {system}, so it stays on the night; they can change their sign-up first."
    ),
    # sign-ups (rules/night/models.py, night.py)
    "night.signup_systems": "Pick from 1 to {limit} game systems you would like to play.",
    "night.system_not_offered": "This night doesn't offer {system}. It offers: {offered}.",
    "night.points": "Army size must be a whole number of points from {minimum} to {maximum}.",
    "night.note_long": "A note can be at most {limit} characters.",
    "night.arranged_self": "Your arranged game has to be with someone else.",
    "night.already_signed_up": "You are already signed up for this night, just like that; nothing changed.",
    "night.after_cutoff": "Sign-ups for this night have closed. Ask the organiser to change them for you.",
    "night.closed": "The organiser has closed sign-ups for this night. Ask them to change them for you.",
    "night.not_yours": "You can only change your own sign-up.",
    "night.not_signed_up": "<@{player}> isn't signed up for this night.",
    "night.signup_twice": "<@{player}> is signed up twice; each player signs up once.",
    # the organiser's steps (rules/night/night.py, review.py)
    "night.not_organiser": "Only the night's organiser (or someone who organises nights here) can do that.",
    "night.cancelled": "This night was cancelled.",
    "night.finished": "This night is over.",
    "night.paired_already": "This night is already paired; ask the organiser to change the pairings.",
    "night.published_already": "The pairings are already published and their games opened.",
    "night.already_closed": "Sign-ups for this night are already closed.",
    "night.not_review": "Pairings can only be changed after pairing and before they are published.",
    "night.not_published": "Publish the pairings before finishing the night.",
    "night.unknown_action": "That is not something a game night can do.",
    "night.same_player": "Pick two different players to swap.",
    "night.not_paired": "<@{player}> has no place in tonight's pairings.",
    "night.both_sat_out": "<@{first}> and <@{second}> both sit out; swap one of them with a paired player.",
    "night.same_pairing": "<@{first}> and <@{second}> already play each other.",
    "night.swap_system": (
        "<@{first}> plays {first_system} and <@{second}> plays {second_system}: only players of one "
        "system can swap."
    ),
    "night.swap_plays": "<@{player}> didn't sign up for {system}, so they can't take that place.",
    "night.no_pairing": "There is no pairing {number}; tonight has {count}.",
    "night.no_such_table": "The club has no table `{table_id}`.",
    "night.table_unsuited": "**{name}** doesn't suit {system}.",
    "night.table_already": "That pairing is already on **{name}**.",
    "night.table_taken": "**{name}** is taken by pairing {number}; move that one first.",
    "night.already_dropped": "<@{player}> is already dropped.",
    # the club's tables (rules/night/models.py, tables.py)
    "night.table_id": "A table's id is at most {limit} lower-case letters, digits and hyphens (e.g. `kz-1`).",
    "night.table_name": "Give the table a name of at most {limit} characters.",
    "night.table_systems": "Name at least one game system the table suits.",
    "night.terrain_long": "The terrain description can be at most {limit} characters.",
    "night.table_twice": "The club has two tables with the id `{table_id}`.",
}

REASONS: dict[str, str] = {
    # why two players were paired
    "night.arranged": "a game you arranged",
    "night.first_game": "first game between you",
    "night.played_before": "played each other {times_text}, last {days_ago} days ago",
    "night.ratings": "ratings {first} vs {second}",
    "night.teach": "<@{teacher}> teaches <@{learner}>",
    "night.other_system": "<@{player}> plays {system}, another system they listed",
    "night.table": "on {name}",
    "night.no_table": "no free table suits {system}",
    "night.by_organiser": "set by the organiser",
    "night.stands_in": "standing in for <@{player}>",
    # why a player sits out
    "night.bye_rotation": "odd numbers in {system}; sitting out goes round (sat out {byes_text} before)",
    "night.no_opponent": "no one else is playing {system} tonight",
    "night.dropped": "dropped by the organiser",
    "night.opponent_dropped": "<@{player}> dropped out and no one was free to stand in",
    "night.set_aside": "set aside by the organiser",
}
ENGLISH: dict[str, str] = {**REFUSALS, **REASONS}
SYSTEM_VALUES = ("system", "first_system", "second_system")


def system_values(code: str, params: dict[str, ParamValue]) -> dict[str, ParamValue]:
    """A refusal's systems by their titles ("Kill Team", not `killteam`): the rules carry their ids,
    `offered` as ids joined by ", " (an id never holds a comma)."""
    titled = {k: system_title(v) for k, v in params.items() if k in SYSTEM_VALUES and isinstance(v, str)}
    offered = params.get("offered")
    if isinstance(offered, str):
        titled["offered"] = ", ".join(system_title(s) for s in offered.split(", ") if s)
    return {**params, **titled}


def _times(count: Value) -> str:
    number = int(str(count))
    if number == 1:
        return _("once")
    if number == 2:
        return _("twice")
    return _.n("{count} time", "{count} times", number)


def players_count(count: int) -> str:
    """ "1 player", "12 players", in the language in force."""
    return _.n("{count} player", "{count} players", count)


def games_count(count: int) -> str:
    """ "1 game", "3 games", in the language in force."""
    return _.n("{count} game", "{count} games", count)


def _nights(count: Value) -> str:
    number = int(str(count))
    if number == 0:
        return _("no nights")
    return _.n("{count} night", "{count} nights", number)


def reason_text(reason: Reason, title: Callable[[str], str] = system_title) -> str:
    """A reason in a few words ("first game between you", "ratings 1012 vs 998"), in the language in
    force; systems by `title`."""
    values: dict[str, Value] = dict(reason.values)
    template = REASONS.get(reason.code)
    if template is None:
        return reason.code
    if isinstance(values.get("system"), str):
        values["system"] = title(str(values["system"]))
    if "times" in values:
        values["times_text"] = _times(values["times"] or 0)
    if "byes" in values:
        values["byes_text"] = _nights(values["byes"] or 0)
    if reason.code == "night.played_before" and "days_ago" not in values:
        template = "played each other {times_text}"
        if placeholders(template) - values.keys():
            return reason.code
        return _.p("night.played_before", "played each other {times_text}", **values)
    if placeholders(template) - values.keys():
        return reason.code
    return _.p(reason.code, template, **values)


def reasons_text(reasons: list[Reason], title: Callable[[str], str] = system_title) -> str:
    """Reasons joined as one line: "first game between you; ratings 1012 vs 998"."""
    return "; ".join(reason_text(r, title) for r in reasons)


# ---------------------------------------------------------------------------- the bot's own words

BOT_ENGLISH: dict[str, str] = {
    "night.not_found": "I can't find that game night in this server.",
    "night.busy": "That game night is very busy right now; please try again.",
    "night.unavailable": "Game nights aren't available right now; please try again in a moment.",
    "night.organiser_only": "Only the night's organiser, someone with Manage Server or the organiser role "
    "({role}) can do that.",
    "night.organiser_only_norole": "Only the night's organiser or someone with Manage Server can do that "
    "(a server can name an organiser role with `/settings organiser-role`).",
    "night.none_here": "There is no game night coming up here: an organiser can make one with "
    "`/night create`.",
    "night.bad_date": "I couldn't read `{typed}` as a date: write it like 2026-12-05.",
    "night.bad_time": "I couldn't read `{typed}` as a time of day: write it like 19:00 or 7pm.",
    "night.no_such_time": "{date} {time} doesn't exist in {zone} (the clocks skip it): pick another time.",
    "night.cutoff_hours": "The sign-up cut-off is given in hours before the night: 0 to {limit}.",
    "night.signup_exists": "You're already signed up for {title}: use **Change my sign-up** to change "
    "it, or **Leave** to give up your place.",
    "night.already_waiting": "You're already on the waitlist for {title} (place {position}): use **Change "
    "my sign-up** to change what you asked for.",
    "night.signup_missing": "You aren't signed up for {title}: press **Sign up** first.",
    "night.points_typed": "Army size / points must be a whole number, like 1000.",
    "night.sent_to_organiser": "Sign-ups for {title} have closed, so I passed your request to the "
    "organiser, <@{organiser}>.",
    "night.table_unknown": "The club has no table `{table}`: see `/night tables list`.",
    "night.tables_full": "The club has {limit} tables already: remove one first.",
    "night.role_managed": "{role} is managed by an integration: pick a role people can be given.",
}


def _statuses() -> dict[str, str]:
    return {
        "open": _.p("night status", "open"),
        "closed": _.p("night status", "closed"),
        "review": _.p("night status", "review"),
        "published": _.p("night status", "published"),
        "finished": _.p("night status", "finished"),
        "cancelled": _.p("night status", "cancelled"),
    }


def _card() -> dict[str, str]:
    """The words of the card, in the language in force."""
    return {
        "card.when": _("**When:** <t:{start}:F> (<t:{start}:R>)"),
        "card.where": _("**Where:** {place}"),
        "card.systems": _("**Games:** {systems}"),
        "card.cutoff": _("**Sign-ups close:** <t:{cutoff}:F> (<t:{cutoff}:R>)"),
        "card.organiser": _("**Organiser:** <@{organiser}>"),
        "card.repeats": _("**Repeats:** {recurrence}"),
        "card.signed_up": _.p("field", "Signed up ({count}/{capacity})"),
        "card.waitlist": _.p("field", "Waitlist ({count})"),
        "card.nobody": _("Nobody yet: press **Sign up**."),
        "card.status.open": _("Sign-ups are open."),
        "card.status.closed": _("Sign-ups are closed; the pairings are being made."),
        "card.status.review": _("Sign-ups are closed; the organiser is checking the pairings."),
        "card.status.published": _("The pairings are out: see below."),
        "card.status.finished": _("This night is over: its summary is in the results."),
        "card.status.cancelled": _("This night was cancelled."),
        "card.sign_up": _.p("button", "Sign up"),
        "card.change": _.p("button", "Change my sign-up"),
        "card.leave": _.p("button", "Leave"),
        "weekly": _("every week"),
        "fortnightly": _("every two weeks"),
        "default_place": _("The club"),
        "default_title": _("Game night"),
        "field.capacity": _.p("night setting", "capacity"),
        "field.systems": _.p("night setting", "systems"),
        "default_channel": _("the club's channel"),
    }


def _player_line() -> dict[str, str]:
    """The words of a player's line, in the language in force."""
    return {
        "line.points": _("{points} pts"),
        "line.teach": _("can teach"),
        "line.learn": _("wants to learn"),
        "line.arranged": _("arranged with <@{other}>"),
    }


def _form() -> dict[str, str]:
    """The words of the form, in the language in force."""
    return {
        "form.title": _("Sign up: {title}"),
        "form.systems": _.p("label", "Games, first choice first"),
        "form.points": _.p("label", "Army size / points (optional)"),
        "form.teaching": _.p("label", "Teaching"),
        "form.teach": _.p("option", "I can teach"),
        "form.learn": _.p("option", "I'd like to learn"),
        "form.arranged": _.p("label", "My game is already arranged with"),
        "form.note": _.p("label", "A note for the organiser (optional)"),
    }


def _answers() -> dict[str, str]:
    """The words of answers, in the language in force."""
    return {
        "reply.in": _("You're signed up for **{title}** (<t:{start}:F>), place {position} of {capacity}."),
        "reply.changed": _("Your sign-up for **{title}** is updated."),
        "reply.waitlisted": _(
            "**{title}** is full, so you're on the waitlist, place {position}: I'll tell you if "
            "a place opens."
        ),
        "reply.left": _("You've left **{title}**."),
        "reply.created": _(
            "Game night **{title}** is set for <t:{start}:F>. Its card is posted here and a Discord "
            "event is being made for it."
        ),
        "reply.cancelled": _("**{title}** is cancelled; everyone signed up is told."),
        "reply.edited": _("**{title}** now starts <t:{start}:F>; its card and event are updated."),
        "reply.dropped": _("<@{player}> is no longer signed up for **{title}**."),
        "reply.published": _("The pairings of **{title}** are published; {games} opened in their threads."),
        "reply.finished": _("**{title}** is over: its summary is posted."),
        "reply.picked": _(
            "No night was picked, so this is about the next one: **{title}** on <t:{start}:F>."
        ),
        "reply.table_saved": _("Table `{table}` (**{name}**) suits {systems}."),
        "reply.table_removed": _("Table `{table}` is removed."),
    }


def _messages() -> dict[str, str]:
    """The words of messages, in the language in force."""
    return {
        "dm.promoted": _("A place opened at **{title}** (<t:{start}:F>): you're in! {link}"),
        "dm.dropped": _(
            "The organiser of **{title}** (<t:{start}:F>) has taken you out of the pairings, so you "
            "have no game that night. {link}"
        ),
        "dm.reminder": _(
            "Reminder: **{title}** is <t:{start}:R> (<t:{start}:F>), at {place}. You're signed up "
            "to play {systems}. {link}"
        ),
        "dm.reminder_off": _.p("button", "Stop game-night reminders"),
        "dm.request": _("<@{player}> asks about **{title}** after the cut-off: {what}. {link}"),
        "dm.request_signup": _("to sign up or change their sign-up ({systems})"),
        "dm.request_leave": _("to drop out"),
        "dm.cancelled": _("**{title}** (<t:{start}:F>) is cancelled. Sorry!"),
        "channel.cancelled": _("**{title}** (<t:{start}:F>) is cancelled."),
        "no_events": _(
            "I couldn't make a Discord event for this night: to have one made for each game night, "
            "give me the **Create Events** permission. The night goes on without it."
        ),
        "event.description": _("{systems}. Sign up on the night's card in #{channel}."),
        "reminders.off": _(
            "You won't get game-night reminders from this server any more. `/night reminders` "
            "turns them back on."
        ),
        "reminders.on": _("You'll get a reminder before each game night you sign up for."),
    }


def _pairings() -> dict[str, str]:
    """The words of pairings, in the language in force."""
    return {
        "pairings.title": _.p("title", "Pairings: {title}"),
        "pairings.draft_title": _.p("title", "Draft pairings: {title}"),
        "pairings.draft_help": _(
            "Check them, then `/night publish`. To change them: `/night swap`, `/night move`, `/night drop`."
        ),
        "pairings.line": _("{index}. **{system}** · <@{first}> vs <@{second}> · {table}"),
        "pairings.no_table": _("no table free"),
        "pairings.because": _("paired because: {reasons}"),
        "pairings.sat_out": _.p("field", "Sitting out"),
        "pairings.sat_out_line": "<@{player}>: {reason}",
        "pairings.games": _(
            "Each game of a system Muster runs has a start card of its own in this channel; the game "
            "is played in that card's thread."
        ),
    }


def _summary() -> dict[str, str]:
    """The words of summary, in the language in force."""
    return {
        "summary.title": _.p("title", "Night summary: {title}"),
        "summary.when": "<t:{start}:D>",
        "summary.result": _(
            "**{system}** · <@{first}> {score_first} – {score_second} <@{second}> · {outcome}"
        ),
        "summary.won": _("<@{winner}> won"),
        "summary.draw": _("a draw"),
        "summary.ratings": _("ratings: {changes}"),
        "summary.unfinished": _("**{system}** · <@{first}> vs <@{second}> · unfinished"),
        "summary.cancelled": _("**{system}** · <@{first}> vs <@{second}> · cancelled"),
        "summary.unrun": _("**{system}** · <@{first}> vs <@{second}> · played at the table"),
        "summary.nothing": _("No games were played."),
        "history.title": _.p("title", "Past game nights"),
        "history.line": _("<t:{start}:D> · **{title}** · {players}, {games} · {status}"),
        "history.none": _("No game nights have been held here yet."),
        "history.cancelled": _("<t:{start}:D> · **{title}** · cancelled, no games played"),
        "tables.title": _.p("title", "The club's tables"),
        "tables.line": _("`{table}` · **{name}** · {systems}{terrain}"),
        "tables.none": _("No tables yet: add one with `/night tables add`."),
    }


def _statuses_by_key() -> dict[str, str]:
    return {f"status.{name}": text for name, text in _statuses().items()}


AREAS = (_card, _player_line, _form, _answers, _messages, _pairings, _summary, _statuses_by_key)
"""The night's words by area: each a function, so its literals are extracted and translated when
it runs in a language."""


@functools.cache
def _words(lang: str) -> dict[str, str]:
    """The card's, the pairings', the reminders' and the summary's words in `lang` (built once per
    language: the literals of each area's function are what the catalogue extracts)."""
    with speaking(lang):
        return {key: text for area in AREAS for key, text in area().items()}


def word(key: str, **values: object) -> str:
    """One of the night's words in the language in force, filled in (the English if its translation
    can't be)."""
    english = _words(SOURCE)[key]
    return fill(_words(language())[key], english, {k: _value(v) for k, v in values.items()})


def _value(value: object) -> Value:
    return value if isinstance(value, str | int | float) or value is None else str(value)


WORDS: dict[str, str] = _words(SOURCE)
"""The English of `word`'s keys."""
