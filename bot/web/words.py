"""Every word the web site shows, in the language in force (domain `web`, docs/LANGUAGES.md).

Templates hold no English: they show `w.<name>` from `words()`, and the few sentences with values
are the functions below, so the catalogue's extraction (which reads Python) finds every msgid.
"""

from __future__ import annotations

from bot.lang.i18n import Domain

_ = Domain("web")

LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "fr": "Français", "es": "Español"}
"""Each language by its own name, as the switch shows it."""


def words() -> dict[str, str]:
    """The site's fixed words in the language in force."""
    return {
        "league": _("League"),
        "results": _("Results"),
        "nights": _("Game nights"),
        "events": _("Events"),
        "language": _("Language"),
        "footer": _("This server chose to show its league here. Names are as the server shows them."),
        "all_systems": _("All systems"),
        "all_time": _("All time"),
        "season": _("Season"),
        "system": _("System"),
        "rank": _.p("column", "#"),
        "player": _("Player"),
        "games": _.p("column", "Games"),
        "wins": _.p("column", "W"),
        "draws": _.p("column", "D"),
        "losses": _.p("column", "L"),
        "league_points": _.p("column", "Pts"),
        "difference": _.p("column", "+/−"),
        "rating": _("Rating"),
        "no_results": _("No confirmed results yet."),
        "record": _("Record"),
        "rating_over_time": _("Rating over time"),
        "chart_label": _("The player's rating after each of their games"),
        "opponents": _("Opponents"),
        "systems_played": _("Systems played"),
        "date": _("Date"),
        "opponent": _("Opponent"),
        "score": _("Score"),
        "outcome": _("Result"),
        "rating_after": _("Rating after"),
        "won": _("won"),
        "drew": _("drew"),
        "lost": _("lost"),
        "mission": _("Mission"),
        "recent_results": _("Recent results"),
        "upcoming_nights": _("Upcoming game nights"),
        "no_nights": _("No game nights planned."),
        "subscribe": _("Subscribe to the calendar"),
        "subscribe_hint": _(
            "Add this address to your phone's calendar to follow the club's game nights and events."
        ),
        "no_events": _("No events yet."),
        "rounds": _("Rounds"),
        "standings": _("Standings"),
        "hidden_player": _("Hidden player"),
        "players": _("Players"),
        "faction": _("Faction"),
        "wdl": _.p("column", "W-D-L"),
        "event_points": _.p("column", "Points"),
        "table": _.p("column", "Table"),
        "bye": _("Bye"),
        "not_reported": _("not reported yet"),
        "top_cut": _("Top cut"),
        "winner": _("Winner"),
        "list_sealed": _("List sealed"),
        "list_rejected": _("List rejected"),
        "dropped": _("dropped"),
    }


def phase_name(phase: str) -> str:
    """An event's phase (rules/event/state.py `Phase`) as its page says it."""
    names = {
        "signup": _("Open for entries"),
        "lists_closed": _("Lists closed"),
        "round": _("Under way"),
        "top_cut": _("Top cut"),
        "finished": _("Finished"),
        "cancelled": _("Cancelled"),
    }
    return names.get(phase, phase)


def tiebreak_name(key: str) -> str:
    """A tiebreaker (rules/event/models.py `Tiebreaker`) as a column of the standings."""
    names = {
        "total_vp": _("Total VP"),
        "vp_difference": _("VP difference"),
        "sos": _("Strength of schedule"),
        "opp_sos": _("Opponents' strength of schedule"),
        "head_to_head": _("Head-to-head"),
    }
    return names.get(key, key)


def round_title(number: int, cut_round: int | None) -> str:
    if cut_round is not None:
        return _("Top cut, round {round}", round=cut_round)
    return _("Round {round}", round=number)


def round_of(number: int, total: int | None) -> str:
    return _("Round {round} of {rounds}", round=number, rounds=total or number)


def unnamed(user_id: int) -> str:
    """A player whose name the bot never saw: told apart by the end of their number."""
    return _("Player {number}", number=f"…{str(user_id)[-4:]}")


def record_line(wins: int, draws: int, losses: int) -> str:
    return _("{wins} won, {draws} drawn, {losses} lost", wins=wins, draws=draws, losses=losses)


def games_count(count: int) -> str:
    return _.n("{count} game", "{count} games", count)


def places(signed: int, capacity: int) -> str:
    return _("{signed} of {capacity} places taken", signed=signed, capacity=capacity)


def waiting(count: int) -> str:
    return _.n("{count} waiting", "{count} waiting", count)


def isolate(text: str) -> str:
    """`text` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: where `<bdi>` can't go (a
    page's `<title>`, a name inside a sentence), a right-to-left override in a name still can't
    reorder what follows it."""
    return f"\u2068{text}\u2069"


def club_title(name: str) -> str:
    return _("{club}: league", club=isolate(name)) if name else _("League")
