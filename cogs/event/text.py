"""The English of events: every `event.*` refusal (of rules/event and of the bot), added to bot/text's
catalogue by the event cog through `add_words`, translated by code in the `event` domain. The other
words of the cog are written where they are shown (`_ = Domain("event")`)."""

from __future__ import annotations

REFUSALS: dict[str, str] = {
    # finding an event, who may act
    "event.not_found": "There is no such event in this server.",
    "event.none_here": (
        "There is no event coming up in this server; an organiser makes one with `/event create`."
    ),
    "event.unavailable": "Events are not available right now; please try again in a moment.",
    "event.busy": "This event is very busy right now; please try again.",
    "event.not_organiser": "Only the event's organiser (or someone who organises events here) can do that.",
    "event.organiser_only_norole": "Only someone with Manage Server can organise events here.",
    "event.organiser_only": "Only someone with Manage Server or the {role} role can organise events here.",
    "event.cancelled": "This event was cancelled.",
    "event.finished": "This event is over.",
    # making an event
    "event.name_missing": "Give the event a name, e.g. `Winter Kill Team GT`.",
    "event.capacity": "An event takes from {minimum} to {maximum} players.",
    "event.rounds": "An event has from 1 to {maximum} rounds (0: as many as the players need).",
    "event.round_minutes": "A round lasts from {minimum} to {maximum} minutes.",
    "event.lists_hours": "Lists are due from 0 to {maximum} hours before the start.",
    "event.top_cut": "A top cut is 0 (none), 4 or 8 players.",
    "event.tiebreakers": "Tiebreakers are some of {known}, separated by commas, each once.",
    "event.points": "Tournament points are whole numbers from 0 to {maximum}.",
    "event.in_past": "That time has already passed: pick a start still to come.",
    # entering
    "event.started": "The event has started: entries closed when round 1 was published.",
    "event.already_entered": "You are already entered in this event.",
    "event.not_entered": "<@{player}> isn't entered in this event.",
    "event.dropped_already": "That player has already dropped out.",
    # lists
    "event.faction_missing": "Name your faction.",
    "event.faction_long": "A faction is at most {limit} characters, without a `|`.",
    "event.list_empty": "Your list is empty: paste it or attach it as a text file.",
    "event.list_too_long": "A list can be at most {limit} characters; yours has {length}.",
    "event.list_file": "Attach your list as a plain text file (UTF-8) of at most {limit} characters.",
    "event.list_twice": "Send your list as text or as a file, not both.",
    "event.lists_due": "The list deadline has passed; ask the organiser.",
    "event.lists_closed": "Lists are closed for this event.",
    "event.lists_open": "Close the lists first (`/event close-lists`).",
    "event.no_list": "<@{player}> has not sent a list.",
    "event.list_rejected_open": "<@{player}>'s list was rejected and not sent again yet.",
    "event.list_hidden": "That list is not revealed yet.",
    "event.reason_missing": "Say why the list is rejected.",
    "event.reason_long": "A reason is at most {limit} characters.",
    # rounds and results
    "event.round_open": "Round {round} still has games without a result.",
    "event.rounds_done": "All {rounds} rounds have been played; finish the event.",
    "event.too_few_players": "At least 2 players still in are needed to pair a round; there are {players}.",
    "event.too_few_tables": "The venue's {tables} tables don't fit the {needed} games of a round.",
    "event.too_few": "An event needs at least {minimum} players still in to pair a round.",
    "event.no_round": "No round is being played.",
    "event.not_in_round": "Those two players have no game together in round {round}.",
    "event.not_your_game": "You can only report a game you played; the organiser can enter any result.",
    "event.result_differs": (
        "Your opponent reported {first_vp}–{second_vp} (in table order); "
        "agree on the score, or ask the organiser."
    ),
    "event.vp_range": "Victory points are whole numbers from 0 to {maximum}.",
    "event.has_game": "That player already has a game in round {round}.",
    "event.no_cut": "This event has no top cut.",
    "event.cut_done": "The top cut's final has been played; finish the event.",
    "event.cut_draw": "A top cut game can't end in a draw: enter the score that decided it.",
    "event.cut_too_few": "A top {size} needs {size} players still in; there are {players}.",
    "event.cut_unfinished": "The game on table {table} has no winner yet (a cut game can't be a draw).",
}
