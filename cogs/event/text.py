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
    "event.unknown_action": "That is not something an event can do.",
    "event.not_organiser": "Only the event's organiser (or someone who organises events here) can do that.",
    "event.organiser_only_norole": "Only someone with Manage Server can organise events here.",
    "event.organiser_only": "Only someone with Manage Server or the {role} role can organise events here.",
    "event.not_yours": "You can only do that for yourself; the organiser can do it for anyone.",
    "event.cancelled": "This event was cancelled.",
    "event.finished": "This event is over.",
    # making an event
    "event.name_missing": "Give the event a name, e.g. `Winter Kill Team GT`.",
    "event.name_long": "An event's name can be at most {limit} characters.",
    "event.capacity": "An event takes from {minimum} to {maximum} players.",
    "event.rounds": "An event has from {minimum} to {maximum} rounds (0: as many as the players need).",
    "event.round_minutes": "A round lasts from {minimum} to {maximum} minutes.",
    "event.lists_hours": "Lists are due from 0 to {maximum} hours before the start.",
    "event.deadline_after_start": "The list deadline must be at or before the start.",
    "event.top_cut": "A top cut is 0 (none), 4 or 8 players.",
    "event.tiebreakers": "Tiebreakers are some of {known}, separated by commas, each once.",
    "event.tiebreaker_twice": "Name each tiebreaker once.",
    "event.scoring_points": "Tournament points are whole numbers from 0 to {maximum}.",
    "event.scoring_order": "A win must score at least a draw, and a draw at least a loss.",
    "event.tables": "An event needs at least {minimum} table.",
    "event.in_past": "That time has already passed: pick a start still to come.",
    # entering
    "event.signup_closed": "Entries for this event are closed; ask the organiser.",
    "event.started": "The event has started: entries closed when round 1 was published.",
    "event.already_entered": "You are already entered in this event.",
    "event.not_entered": "That player isn't entered in this event.",
    "event.not_started": "The event hasn't started yet: before round 1, leaving is enough.",
    "event.dropped_already": "<@{player}> has already dropped out.",
    "event.cut_drop": (
        "<@{player}> still has a place in the top cut. To let them go, enter their game's result as a loss"
        " with `/event result`: their opponent goes through."
    ),
    "event.cut_dropped_winner": (
        "<@{player}> has dropped out but won their top cut game. Correct that game's result with"
        " `/event result` first, so their opponent goes through."
    ),
    # lists
    "event.no_lists": "This event has no army lists.",
    "event.faction_missing": "Name your faction.",
    "event.faction_long": "A faction is at most {limit} characters, without a `|`.",
    "event.list_empty": "Your list is empty: paste it or attach it as a text file.",
    "event.list_too_long": "A list can be at most {limit} characters; yours has {length}.",
    "event.list_file": "Attach your list as a plain text file (UTF-8) of at most {limit} characters.",
    "event.list_twice": "Send your list as text or as a file, not both.",
    "event.list_late": "The list deadline (<t:{deadline}:f>) has passed; ask the organiser.",
    "event.close_lists_first": "Close the lists first (`/event close-lists`).",
    "event.lists_closed_already": "The lists of this event are already closed.",
    "event.no_list": "<@{player}> has not sent a list.",
    "event.list_rejected_already": "<@{player}>'s list is already rejected.",
    "event.list_hidden": "That list is not revealed yet.",
    "event.reason_missing": "Say why the list is rejected.",
    "event.reason_long": "A reason is at most {limit} characters.",
    # rounds and results
    "event.round_unfinished": "Round {round} still has {open} game(s) without a result.",
    "event.rounds_done": "All {rounds} rounds have been played: start the top cut or finish the event.",
    "event.rounds_left": "The top cut starts after the last round; {left} round(s) are left.",
    "event.too_few_players": "At least 2 players still in are needed to pair a round; there are {players}.",
    "event.too_few_tables": "The venue's {tables} tables don't fit the {needed} games of a round.",
    "event.no_round": "No round is being played.",
    "event.game_not_in_round": "Those two players have no game together in round {round}.",
    "event.round_over": "Round {round} is over; only the organiser can change its results.",
    "event.result_in": (
        "The game on table {table} of round {round} has its result; ask the organiser to change it."
    ),
    "event.bye_result": "A bye has no result to report.",
    "event.bye_paired": "<@{player}> has a game this round with an opponent still in.",
    "event.result_differs": (
        "Your opponent reported {first_vp}–{second_vp} (in table order); "
        "agree on the score, or ask the organiser."
    ),
    "event.vp_range": "Victory points are whole numbers from 0 to {maximum}.",
    "event.no_top_cut": "This event has no top cut.",
    "event.cut_over": "The top cut's final has been played; finish the event.",
    "event.cut_draw": "A top cut game can't end in a draw: enter the score that decided it.",
    "event.cut_too_few": "A top {size} needs {size} players still in; there are {players}.",
    "event.cut_unfinished": "The top cut has no winner yet: play the final first.",
}
