"""The English of every scores refusal, by code (registered with bot/lang/text.py by
cogs/scores/commands.py)."""

from __future__ import annotations

ENGLISH: dict[str, str] = {
    # A hand-entered result (rules/scores/model.py, bot/scores/service.py).
    "scores.against_self": "You can't record a game against yourself. Pick your opponent.",
    "scores.opponent_bot": "Bots don't play wargames here. Pick the person you played against.",
    "scores.system_missing": "Say which game system you played.",
    "scores.system_long": "The game system name is too long (at most {limit} characters).",
    "scores.system_unreadable": "Say which game system you played, in letters or digits (e.g. `warcry`).",
    "scores.my_score_negative": "Your score can't be negative.",
    "scores.their_score_negative": "Their score can't be negative.",
    "scores.my_score_typo": "Your score of {score} looks like a typo (the most allowed is {maximum}).",
    "scores.their_score_typo": "Their score of {score} looks like a typo (the most allowed is {maximum}).",
    "scores.mission_long": "The mission name is too long (at most {limit} characters).",
    "scores.my_faction_long": "Your faction name is too long (at most {limit} characters).",
    "scores.their_faction_long": "Their faction name is too long (at most {limit} characters).",
    # Answering, resolving and voiding a result (bot/scores/service.py).
    "scores.no_result": "There is no result #{result} in this server.",
    "scores.reporter_cannot_answer": "You recorded this result, so <@{opponent}> has to {action} it.",
    "scores.only_opponent": "Only <@{opponent}>, the opponent in this game, can {action} this result.",
    "scores.already_answered": "Result #{result} is already {status}; nothing changed.",
    "scores.correction_needs_both": "To correct the scores give both `score_a` and `score_b`.",
    "scores.correction_when_voiding": (
        "Corrected scores only make sense when confirming; leave them out to void."
    ),
    "scores.correction_range": "`{field}` must be between {minimum} and {maximum}.",
    "scores.resolve_void": "Result #{result} was voided; record the game again if it should count.",
    "scores.already_confirmed": (
        "Result #{result} is already confirmed; give corrected scores to change it, or void it."
    ),
    "scores.void_not_allowed": (
        "Only someone with Manage Server can void a result (you may withdraw one you recorded while "
        "it is still pending)."
    ),
    "scores.already_void": "Result #{result} is already void.",
    # Seasons (bot/scores/seasons.py).
    "scores.season_name_missing": "Give the season a name, e.g. `Spring 2025`.",
    "scores.season_name_long": "A season name can be at most {limit} characters.",
    "scores.season_name_reserved": "`{name}` is kept for all-time standings; pick another season name.",
    "scores.season_running": "Season **{season}** is still running: end it first with `/scores season end`.",
    "scores.season_taken": "This server already had a season called **{name}**; pick another name.",
    "scores.no_season_running": "No season is running in this server. Start one with `/scores season start`.",
    "scores.no_such_season": (
        "There is no season called **{name}** in this server. Seasons here: {known}, or `all`."
    ),
    "scores.no_seasons_yet": (
        "There is no season called **{name}** in this server. This server has no seasons yet; try `all`."
    ),
    "scores.season_gone": "That season no longer exists.",
    # The /scores commands themselves (cogs/scores/commands.py).
    "scores.unavailable": "Scores are not available right now; please try again in a moment.",
    "scores.system_filter_unreadable": (
        "Name the game system in letters or digits (e.g. `warcry`), or leave it out for all systems."
    ),
    "scores.decision": "Choose Confirm or Void.",
}
