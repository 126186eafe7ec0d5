"""The steps from round 1 on: publishing rounds, results, drops and byes, the top cut, the end."""

from __future__ import annotations

import random

from rules.errors import RuleError
from rules.event.actions import Cancel, Drop, Finish, GiveBye, PublishRound, ReportResult, StartTopCut
from rules.event.entries import revealed
from rules.event.events import (
    ByeGiven,
    Cancelled,
    Dropped,
    Finished,
    ListShown,
    ResultReported,
    RoundPublished,
)
from rules.event.models import Game, Pairing
from rules.event.pairing import pair_round
from rules.event.standings import Standing, next_cut_round, rounds_for, standings, top_cut
from rules.event.state import (
    MAX_VP,
    EventState,
    Phase,
    is_organiser,
    require_live,
    require_organiser,
    require_self_or_organiser,
)
from rules.session import Event

Step = tuple[EventState, list[Event]]


def require_round_complete(state: EventState) -> None:
    open_games = state.open_games()
    if open_games:
        raise RuleError(code="event.round_unfinished", round=state.round_number, open=len(open_games))


def publish_round(state: EventState, action: PublishRound) -> Step:
    """The next Swiss round paired from the standings (or the next top cut round), its games made;
    refused while a game of this round has no result or when no round is left."""
    require_organiser(state, action)
    require_live(state)
    if state.phase is Phase.SIGNUP:
        raise RuleError(code="event.close_lists_first")
    require_round_complete(state)
    if state.phase is Phase.TOP_CUT:
        pairings = next_cut_round(state.round_games())
        if not pairings:
            raise RuleError(code="event.cut_over")
        for player in (p for pairing in pairings for p in pairing.players):
            if (entrant := state.entrant(player)) is not None and entrant.dropped:
                raise RuleError(code="event.cut_dropped_winner", player=player)
        return _published(state, pairings, top_cut=True)
    total = state.total_rounds or state.settings.rounds or rounds_for(len(state.active()))
    if state.round_number >= total:
        raise RuleError(code="event.rounds_done", rounds=total)
    pairings = pair_round(
        state.entrants,
        state.swiss_games(),
        state.round_number + 1,
        scoring=state.settings.scoring,
        seeding=state.settings.seeding,
        tables=state.settings.tables,
        rng=random.Random(action.seed),
    )
    state = state.model_copy(update={"total_rounds": total, "phase": Phase.ROUND})
    return _published(state, pairings, top_cut=False)


def _published(state: EventState, pairings: list[Pairing], *, top_cut: bool) -> Step:
    number = state.round_number + 1
    games = [Game(round=number, table=p.table, first=p.first, second=p.second) for p in pairings]
    lists = dict(state.lists)
    events: list[Event] = [
        RoundPublished(round=number, pairings=pairings, top_cut=top_cut, total_rounds=state.total_rounds or 0)
    ]
    if state.settings.reveal == "opponent":
        for game in games:
            if game.second is None:
                continue
            for viewer, owner in ((game.first, game.second), (game.second, game.first)):
                entry = lists.get(owner)
                if entry is None or entry.status == "rejected":
                    continue
                if viewer not in entry.shown_to:
                    lists[owner] = entry.model_copy(update={"shown_to": [*entry.shown_to, viewer]})
                events.append(ListShown(round=number, list=revealed(entry), private_to=viewer))
    update = {"round_number": number, "games": [*state.games, *games], "lists": lists}
    return state.model_copy(update=update), events


def report_result(state: EventState, action: ReportResult) -> Step:
    """A game's VP. A player reports their own game of this round once; the organiser may enter or
    correct any game's result (of the cut: only this round's, since the bracket moved on)."""
    require_live(state)
    if state.phase not in (Phase.ROUND, Phase.TOP_CUT):
        raise RuleError(code="event.no_round")
    index = _game_index(state, action)
    game = state.games[index]
    if game.second is None:
        raise RuleError(code="event.bye_result")
    organising = is_organiser(state, action)
    if not organising and action.actor not in game.players:
        raise RuleError(code="event.not_yours")
    if not (0 <= action.first_vp <= MAX_VP and 0 <= action.second_vp <= MAX_VP):
        raise RuleError(code="event.vp_range", maximum=MAX_VP)
    in_cut = state.cut_from is not None and game.round >= state.cut_from
    if game.round != state.round_number and (not organising or in_cut):
        raise RuleError(code="event.round_over", round=game.round)
    if game.reported and not organising:
        raise RuleError(code="event.result_in", round=game.round, table=game.table)
    first_vp, second_vp = action.first_vp, action.second_vp
    if game.first != action.first:
        first_vp, second_vp = second_vp, first_vp
    if in_cut and first_vp == second_vp:
        raise RuleError(code="event.cut_draw")
    reported = game.model_copy(update={"first_vp": first_vp, "second_vp": second_vp})
    games = list(state.games)
    games[index] = reported
    new = state.model_copy(update={"games": games})
    event = ResultReported(
        round=game.round,
        table=game.table,
        first=game.first,
        second=game.second,
        first_vp=first_vp,
        second_vp=second_vp,
        corrected=game.reported,
        round_complete=game.round == state.round_number and not new.open_games(),
    )
    return new, [event]


def _game_index(state: EventState, action: ReportResult) -> int:
    wanted = {action.first, action.second}
    for index, game in enumerate(state.games):
        if game.round == action.round and set(game.players) == wanted:
            return index
    raise RuleError(code="event.game_not_in_round", round=action.round)


def drop(state: EventState, action: Drop) -> Step:
    """A player leaves a started event: never paired again, their results kept (before round 1
    leaving is `Leave`)."""
    require_live(state)
    require_self_or_organiser(state, action, action.player)
    if state.round_number == 0:
        raise RuleError(code="event.not_started")
    entrant = state.entrant(action.player)
    if entrant is None:
        raise RuleError(code="event.not_entered")
    if entrant.dropped:
        raise RuleError(code="event.dropped_already", player=action.player)
    if still_in_cut(state, action.player):
        raise RuleError(code="event.cut_drop", player=action.player)
    entrants = [
        e.model_copy(update={"dropped": True}) if e.player == action.player else e for e in state.entrants
    ]
    return state.model_copy(update={"entrants": entrants}), [Dropped(player=action.player)]


def still_in_cut(state: EventState, player: int) -> bool:
    """Whether `player` holds a place in the top cut's bracket: in this cut round's game, not yet
    beaten. Such a player leaves by losing that game (the organiser enters or corrects its result),
    so their place goes to the opponent and the bracket stays whole."""
    if state.phase is not Phase.TOP_CUT:
        return False
    for game in state.round_games():
        if player in game.players:
            return game.winner in (None, player)
    return False


def give_bye(state: EventState, action: GiveBye) -> Step:
    """A bye this round for a player still in who is not paired in it, or whose opponent dropped
    before their game had a result (that game becomes the bye)."""
    require_organiser(state, action)
    require_live(state)
    if state.phase is not Phase.ROUND:
        raise RuleError(code="event.no_round")
    entrant = state.entrant(action.player)
    if entrant is None or entrant.dropped:
        raise RuleError(code="event.not_entered")
    games = list(state.games)
    current = next(
        (i for i, g in enumerate(games) if g.round == state.round_number and action.player in g.players), None
    )
    bye = Game(round=state.round_number, table=0, first=action.player)
    if current is None:
        games.append(bye)
    else:
        game = games[current]
        opponent = game.opponent_of(action.player)
        still_in = opponent is not None and not any(
            e.player == opponent and e.dropped for e in state.entrants
        )
        if game.second is None or game.reported or still_in:
            raise RuleError(code="event.bye_paired", player=action.player)
        games[current] = bye
    event = ByeGiven(round=state.round_number, player=action.player)
    return state.model_copy(update={"games": games}), [event]


def start_top_cut(state: EventState, action: StartTopCut) -> Step:
    """After the last Swiss round, the best `top_cut` players still in play a single-elimination cut."""
    require_organiser(state, action)
    require_live(state)
    size = state.settings.top_cut
    if size is None:
        raise RuleError(code="event.no_top_cut")
    if state.phase is not Phase.ROUND:
        raise RuleError(code="event.no_round")
    if state.round_number < (state.total_rounds or 0):
        raise RuleError(code="event.rounds_left", left=(state.total_rounds or 0) - state.round_number)
    require_round_complete(state)
    pairings = top_cut(standings(state.entrants, state.swiss_games(), state.settings.scoring), size)
    state = state.model_copy(update={"phase": Phase.TOP_CUT, "cut_from": state.round_number + 1})
    return _published(state, pairings, top_cut=True)


def finish(state: EventState, action: Finish) -> Step:
    """The end, once this round's results are all in (the organiser may stop early); during a top cut,
    once the final has a winner."""
    require_organiser(state, action)
    require_live(state)
    if state.phase not in (Phase.ROUND, Phase.TOP_CUT):
        raise RuleError(code="event.no_round")
    require_round_complete(state)
    ranked = standings(state.entrants, state.swiss_games(), state.settings.scoring)
    if state.phase is Phase.TOP_CUT and len(state.round_games()) != 1:
        raise RuleError(code="event.cut_unfinished", table=0)
    finished = Finished(standings=ranked, champion=champion(state, ranked))
    return state.model_copy(update={"phase": Phase.FINISHED}), [finished]


def champion(state: EventState, ranked: list[Standing]) -> int | None:
    """Who won: the final's winner after a top cut (its last round, one game), else the first of
    the Swiss standings `ranked`; None while the final has no winner (or nobody entered). Read by
    `finish` and by whoever shows a finished event, so both name the same winner."""
    if state.cut_from is not None:
        final = state.round_games()
        return final[0].winner if len(final) == 1 else None
    return ranked[0].player if ranked else None


def cancel(state: EventState, action: Cancel) -> Step:
    require_organiser(state, action)
    require_live(state)
    return state.model_copy(update={"phase": Phase.CANCELLED}), [Cancelled()]
