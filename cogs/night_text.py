"""The English of game nights: every `night.*` refusal (added to bot/text's catalogue by the night
cog through `add_words`) and the reasons a pairing was made or a player sat out (`reason_text`)."""

from __future__ import annotations

import string
from collections.abc import Callable

from bot.scores.systems import system_title
from rules.night.models import Reason

REFUSALS: dict[str, str] = {
    # a night's settings (rules/night/night.py)
    "night.title_missing": "Give the night a title, e.g. `Thursday club night`.",
    "night.title_long": "A night's title can be at most {limit} characters.",
    "night.in_past": "That time has already passed: pick a time for the night that is still to come.",
    "night.capacity": "A night takes from {minimum} to {maximum} players.",
    "night.no_systems": "Name at least one game system for the night.",
    "night.systems_many": "A night can offer at most {limit} game systems.",
    "night.system_twice": "`{system}` is listed twice; name each system once.",
    "night.system_name": "Name the game system in at most {limit} letters or digits (e.g. `Kill Team`).",
    "night.time_zone": "`{name}` isn't a time zone I know. Use a name like `Europe/London`.",
    "night.cutoff_after_start": "The sign-up cut-off must be at or before the start of the night.",
    "night.cutoff_past": "That cut-off has already passed: pick a cut-off still to come.",
    "night.no_change": "That is how the night is already set; nothing changed.",
    "night.edit_after_pairing": "The night is already paired, so its {field} can't change any more.",
    "night.system_in_use": (
        "{players} sign-up(s) list `{system}`, so it stays on the night; they can change their sign-up first."
    ),
    # sign-ups (rules/night/models.py, night.py)
    "night.signup_systems": "Pick from 1 to {limit} game systems you would like to play.",
    "night.system_not_offered": "This night doesn't offer `{system}`. It offers: {offered}.",
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
        "<@{first}> plays `{first_system}` and <@{second}> plays `{second_system}`: only players of one "
        "system can swap."
    ),
    "night.swap_plays": "<@{player}> didn't sign up for `{system}`, so they can't take that place.",
    "night.no_pairing": "There is no pairing {number}; tonight has {count}.",
    "night.no_such_table": "The club has no table `{table_id}`.",
    "night.table_unsuited": "**{name}** doesn't suit `{system}`.",
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
UNDATED = {"night.played_before": "played each other {times_text}"}

ENGLISH: dict[str, str] = {**REFUSALS, **REASONS}


def _times(count: int | float | str) -> str:
    return {1: "once", 2: "twice"}.get(int(count), f"{count} times")


def _nights(count: int | float | str) -> str:
    return {0: "no nights", 1: "1 night"}.get(int(count), f"{count} nights")


def reason_text(reason: Reason, title: Callable[[str], str] = system_title) -> str:
    """A reason in a few words ("first game between you", "ratings 1012 vs 998"); systems by `title`."""
    values: dict[str, int | float | str] = dict(reason.values)
    template = REASONS.get(reason.code)
    if template is None:
        return reason.code
    if "days_ago" not in values:
        template = UNDATED.get(reason.code, template)
    if isinstance(values.get("system"), str):
        values["system"] = title(str(values["system"]))
    if "times" in values:
        values["times_text"] = _times(values["times"])
    if "byes" in values:
        values["byes_text"] = _nights(values["byes"])
    wanted = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    if wanted - values.keys():
        return reason.code
    return template.format(**values)


def reasons_text(reasons: list[Reason], title: Callable[[str], str] = system_title) -> str:
    """Reasons joined as one line: "first game between you; ratings 1012 vs 998"."""
    return "; ".join(reason_text(r, title) for r in reasons)
