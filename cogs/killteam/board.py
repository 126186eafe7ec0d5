"""What a Kill Team game shows, in the language in force: a line per event and the board.

The platform (bot/play/table.py) calls these under the table's language for what the thread shows and
under each player's for their DMs; the rules' own notices are said here, the names in them through
cogs/killteam/vocabulary.py.
"""

from __future__ import annotations

import functools

from bot.chat.limits import FIELD_VALUE
from bot.chat.messages import Embed
from bot.lang.i18n import Domain, say
from cogs.killteam.vocabulary import (
    COLOUR,
    MISSION_METHOD_LABELS,
    TACOPS_LABELS,
    map_label,
    method,
    purpose,
    reword,
    sealed_label,
    summary,
    who,
)
from rules.killteam import KillTeamState, prompt, scoreboard
from rules.killteam import events as ev
from rules.killteam.labels import CAPS
from rules.killteam.models import BATTLE_READY_VP
from rules.killteam.views import Scoreboard
from rules.sealed import ChoiceSealed, ChoicesRevealed
from rules.session import Event
from rules.text import clip

_ = Domain("killteam")

CONTROL_PROBLEMS = (
    _.mark("There is no earlier Kill Team game between you two on record, so Control can't be used."),
    _.mark("Your last Kill Team game was a draw, so nobody takes Control."),
    _.mark("The last game on record has no winner among you two, so Control can't be used."),
)
NOTICES = (
    _.mark("{problem} Dealing a random mission and map instead."),
    _.mark("Your Tac Ops deck ran out, so the set-aside cards were reshuffled into it."),
    _.mark("No card in the row fits the next picker's Tac Ops, so cards were added from the deck."),
    _.mark("Neither player has tokens left for the {label}, so a roll-off decides."),
    _.mark("The scouting picks don't settle the first initiative, so the players roll off."),
    _.mark("Neither card fits the Tac Ops you hold, so both go aside and you draw again."),
)
"""Notices and reasons the rules give (events.Notice, TacOpsSetAside)."""


def notice(text: str) -> str:
    return reword(text, NOTICES, {"problem": _, "label": sealed_label})


def caps() -> str:
    """The scoring caps, as the board's footer says them (rules: labels.CAPS)."""
    return say(CAPS)


def _and(items: list[str]) -> str:
    return functools.reduce(
        lambda first, second: _("{first} and {second}", first=first, second=second), items
    )


def _card(card: object) -> str:
    name = getattr(card, "name", "?")
    origin = getattr(card, "archetype", None) or getattr(card, "faction", None)
    return f"**{name}** ({origin})" if origin else f"**{name}**"


def _tokens(tokens: dict[int, int]) -> str:
    return ", ".join(f"{who(p)} {n}" for p, n in tokens.items())


# ---------------------------------------------------------------------- event lines


def _done(event: ev.PlayerDone) -> str:
    player = who(event.player)
    if event.what == "equipment":
        return _("{player} has picked their equipment.", player=player)
    if event.what == "their barricades":
        return _("{player} has set up their barricades.", player=player)
    if event.what == "their operatives":
        return _("{player} has set up their operatives.", player=player)
    if event.what == "their scouting":
        return _("{player} has carried out their scouting pick.", player=player)
    return _("{player} is done with {what}.", player=player, what=event.what)


def _initiative(event: ev.InitiativeDecided) -> str:
    how = {
        "bid": _("decided by bid"),
        "scouting": _("from the scouting picks"),
        "roll-off": _("after a roll-off"),
    }.get(event.how, event.how)
    return _("{player} has the initiative in turning point 1 ({how}).", player=who(event.player), how=how)


def _scored(event: ev.VictoryPointsScored) -> str:
    what = {
        "mission": _("mission"),
        "Battle Ready painted roster": _("Battle Ready painted roster"),
    }.get(event.what, event.what)
    return _(
        "{player}: {amount} VP ({what}) in turning point {number}; total {total}.",
        player=who(event.player),
        amount=f"{event.amount:+d}",
        what=what,
        number=event.turning_point,
        total=event.total,
    )


def _revealed(event: ChoicesRevealed, state: KillTeamState) -> str:
    picks = ", ".join(
        f"{who(e.player)} **{reveal_value(state, event.step, e.choice)}**" for e in event.entries
    )
    return _("Revealed, the {label}: {picks}.", label=sealed_label(event.label), picks=picks)


def _sealed(player: int, label: str, commitment: str) -> str:
    return _(
        "{player} has sealed their {label}. Commitment: {commitment}",
        player=who(player),
        label=sealed_label(label),
        commitment=f"`{commitment}`",
    )


def _mission_and_map(event: Event) -> str | None:
    """Lines of the cards put forward and chosen: the mission and the map."""
    match event:
        case ev.MissionsPutForward():
            return _(
                "{player} puts forward the missions {missions}.",
                player=who(event.by),
                missions=_and(event.missions),
            )
        case ev.MapsPutForward():
            maps = ", ".join(map_label(m) for m in event.maps)
            return _("{player} puts forward the maps {maps}.", player=who(event.by), maps=maps)
        case ev.MapDiscarded():
            return _("{player} discards {map}.", player=who(event.by), map=map_label(event.map))
        case ev.MapGroupChosen():
            return _("{player} picks the map type {group}.", player=who(event.by), group=event.group)
        case ev.MissionChosen():
            if event.by:
                return _("Mission: **{name}** ({player}'s pick).", name=event.name, player=who(event.by))
            return _("Mission: **{name}**.", name=event.name)
        case ev.MapChosen():
            label = map_label(event.label)
            if event.by:
                return _(
                    "Map: **{label}**, type {group} ({player}'s pick).",
                    label=label,
                    group=event.group,
                    player=who(event.by),
                )
            return _("Map: **{label}**, type {group}.", label=label, group=event.group)
    return None


def _set_up(event: Event, state: KillTeamState) -> str | None:
    """Lines of the sequence before the Tac Ops (the mission and map in `_mission_and_map`)."""
    match event:
        case ev.GameStarted():
            a, b = state.players
            return _(
                "Kill Team matched play: {first} against {second}. Mission and map by **{missions}**, "
                "Tac Ops by **{tac_ops}** (pack: {pack}).",
                first=who(a),
                second=who(b),
                missions=method(MISSION_METHOD_LABELS.get(event.mission_method, event.mission_method)),
                tac_ops=method(TACOPS_LABELS.get(event.tacops_method, event.tacops_method)),
                pack=event.pack,
            )
        case ev.Notice():
            return notice(event.text)
        case ev.RolledOff():
            a, b = event.players
            rolls = _.p("rolls", ", then ").join(f"{x}–{y}" for x, y in event.rounds)
            return _(
                "Roll-off ({purpose}): {first} against {second}, {rolls}: {winner} wins.",
                purpose=purpose(event.purpose),
                first=who(a),
                second=who(b),
                rolls=rolls,
                winner=who(event.winner),
            )
        case ev.SideChosen():
            return _(
                "{attacker} is the **attacker**; {defender} is the **defender**.",
                attacker=who(event.attacker),
                defender=who(event.defender),
            )
        case ev.KillzoneReady():
            return _(
                "Set up the objective markers and the killzone from map **{map}** for **{mission}**.",
                map=map_label(event.map),
                mission=event.mission,
            )
        case ev.DropZoneChosen():
            return _(
                "{player} takes drop zone {zone}; the attacker has the other.",
                player=who(event.defender),
                zone=event.zone,
            )
        case ev.FactionChosen() if event.faction:
            return _("{player} plays **{faction}**.", player=who(event.player), faction=event.faction)
        case ev.FactionChosen():
            return _("{player} plays **a faction without Tac Ops in this pack**.", player=who(event.player))
        case ev.CommandPointsAdded():
            return _(
                "Each player gains {amount} CP ({totals}).", amount=event.amount, totals=_tokens(event.totals)
            )
    return None


def _bids_and_tac_ops(event: Event, state: KillTeamState) -> str | None:
    """Lines of the sealed bids and the Tac Ops."""
    match event:
        case ev.BidRoundOpened() if event.round > 1:
            return _(
                "Sealed **{label}**, round {round}. Tokens left: {tokens}. Each player bids in private "
                "(check your DMs).",
                label=sealed_label(event.label),
                round=event.round,
                tokens=_tokens(event.tokens),
            )
        case ev.BidRoundOpened():
            return _(
                "Sealed **{label}**. Tokens left: {tokens}. Each player bids in private (check your DMs).",
                label=sealed_label(event.label),
                tokens=_tokens(event.tokens),
            )
        case ChoiceSealed():
            return _sealed(event.player, event.label, event.commitment)
        case ChoicesRevealed():
            checks = "\n".join(
                _(
                    "• {player}: choice {choice}, nonce {nonce}, commitment {commitment}",
                    player=who(e.player),
                    choice=f"`{e.choice}`",
                    nonce=f"`{e.nonce}`",
                    commitment=f"`{e.commitment}`",
                )
                for e in event.entries
            )
            check = _(
                "To check: `/verify` with game {game}, step {step} and",
                game=f"`{state.session_id}`",
                step=f"`{event.step}`",
            )
            return f"{_revealed(event, state)}\n{check}\n{checks}"
        case ev.BidTied():
            return _(
                "Both bid {amount}: that bid is cancelled and nothing is spent. Bid again.",
                amount=event.amount,
            )
        case ev.BidWon():
            template = (
                _.mark("{player} wins the {label} after a roll-off. Tokens left: {tokens}.")
                if event.rolled_off
                else _.mark("{player} wins the {label}. Tokens left: {tokens}.")
            )
            return _(
                template,
                player=who(event.winner),
                label=sealed_label(event.label),
                tokens=_tokens(event.tokens),
            )
        case ev.TacOpsChosen():
            return _("{player} has their three Tac Ops (kept secret).", player=who(event.player))
        case ev.TacOpRow() if event.added:
            return _(
                "Tac Ops row: {row} (added: {added}).",
                row=", ".join(_card(c) for c in event.row),
                added=", ".join(c.name for c in event.added),
            )
        case ev.TacOpRow():
            return _("Tac Ops row: {row}.", row=", ".join(_card(c) for c in event.row))
        case ev.TacOpTaken():
            return _("{player} takes {card}.", player=who(event.player), card=_card(event.card))
        case ev.ArchetypeChosen():
            return _(
                "{player} picks **{archetype}**: both players take their Tac Ops from it.",
                player=who(event.by),
                archetype=event.archetype,
            )
        case ev.TacOpPairOffered():
            cards = functools.reduce(
                lambda first, second: _("{first} or {second}", first=first, second=second),
                [_card(c) for c in event.pair],
            )
            return _("Tac Op pair {number}: {cards}.", number=event.number, cards=cards)
        case ev.TacOpRevealed():
            return _("{player} reveals the Tac Op {card}.", player=who(event.player), card=_card(event.card))
    return None


def _battle(event: Event, state: KillTeamState) -> str | None:
    """Lines of the last set-up steps, the battle and its end."""
    match event:
        case ev.PlayerDone():
            return _done(event)
        case ev.ScoutingRevealed():
            order = functools.reduce(
                lambda first, second: _("{first} then {second}", first=first, second=second),
                [who(p) for p in event.order],
            )
            return _("Scouting is resolved in this order: {order}.", order=order)
        case ev.InitiativeDecided():
            return _initiative(event)
        case ev.TurningPointStarted():
            return _("**Turning point {number}** begins.", number=event.turning_point)
        case ev.VictoryPointsScored():
            return _scored(event)
        case ev.TurningPointEnded():
            return _(
                "{player} has ended turning point {number}.",
                player=who(event.player),
                number=event.turning_point,
            )
        case ev.EndAsked():
            return _(
                "{player} asks to end the game now. It ends once {other} confirms (or {player} confirms "
                "their own).",
                player=who(event.by),
                other=who(state.opponent(event.by)),
            )
        case ev.EndAnswered() if event.confirmed and event.player == event.by:
            return _("{player} confirms their own request: the game ends now.", player=who(event.player))
        case ev.EndAnswered() if event.confirmed:
            return _("{player} confirms: the game ends now.", player=who(event.player))
        case ev.EndAnswered():
            return _("{player} says not yet: the game goes on.", player=who(event.player))
        case ev.GameAbandoned():
            return not_played()
        case ev.GameEnded() if event.outcome.winner is None:
            return _("**The battle is over: a draw.** {summary}", summary=summary(event.outcome.summary))
        case ev.GameEnded():
            return _(
                "**The battle is over: {winner} wins.** {summary}",
                winner=who(event.outcome.winner or 0),
                summary=summary(event.outcome.summary),
            )
    return None


def describe(event: Event, state: KillTeamState) -> str | None:
    """One public line per event, in the bot's own words."""
    return (
        _set_up(event, state)
        or _mission_and_map(event)
        or _bids_and_tac_ops(event, state)
        or _battle(event, state)
    )


def reveal_value(state: KillTeamState, step: str, choice: str) -> str:
    if step == "scouting":
        option = state.pack.scouting_option(choice)
        return option.name if option else choice
    if not choice.isdigit():
        return choice
    return _.n("{count} token", "{count} tokens", int(choice))


def describe_private(event: Event) -> str | None:
    match event:
        case ev.TacOpsDrawn():
            return _("You drew {cards}.", cards=_and([_card(c) for c in event.cards]))
        case ev.TacOpsSetAside():
            return f"{_and([_card(c) for c in event.cards])}: {notice(event.reason)}"
        case ev.TacOpKept() if event.discarded:
            return _(
                "You keep {card}, discarding {discarded}.",
                card=_card(event.card),
                discarded=", ".join(c.name for c in event.discarded),
            )
        case ev.TacOpKept():
            return _("You keep {card}.", card=_card(event.card))
        case ev.TacOpsHand():
            return _(
                "Your secret Tac Ops: {cards}. Reveal one with `/killteam reveal-tacop` when its card "
                "says so.",
                cards=", ".join(_card(c) for c in event.cards),
            )
        case ev.Notice():
            return notice(event.text)
    return None


def describe_briefly(event: Event, state: KillTeamState) -> str | None:
    """The board's line for an event: a reveal is named there and posted in full on its own."""
    if isinstance(event, ChoicesRevealed):
        return _revealed(event, state)
    if isinstance(event, ChoiceSealed):
        return _(
            "{player} has sealed their {label}.", player=who(event.player), label=sealed_label(event.label)
        )
    return describe(event, state)


# ---------------------------------------------------------------------- the board


def not_played() -> str:
    """A game ended before its battle, on the board and in the line that says so: not a result."""
    return _("**The game ended before the battle began:** it is cancelled, and nothing is recorded.")


def _status(state: KillTeamState, board: Scoreboard) -> str:
    if state.abandoned:
        status = not_played()
    elif board.finished:
        status = _("**A draw.**") if board.draw else _("**{player} wins.**", player=who(board.winner or 0))
    elif state.macro == "battle":
        status = _("Turning point {number} of 4", number=board.turning_point)
    else:
        status = _("Setting up: {title}", title=say(prompt(state).title))
    if board.first_initiative:
        status += " · " + _("first initiative: {player}", player=who(board.first_initiative))
    if state.pending is not None and not board.finished:
        status += "\n" + _(
            "{player} has asked to end the game: waiting for a confirmation.",
            player=who(state.pending.by),
        )
    return status


def board_embed(state: KillTeamState) -> Embed:
    """The living board: mission, map, where the game is, and each side's numbers."""
    board = scoreboard(state)
    a, b = state.players
    title = _.p(
        "title",
        "Kill Team: {mission} on {map}",
        mission=board.mission or _("mission to come"),
        map=map_label(board.map) if board.map else _("map to come"),
    )
    scoring = state.macro in ("battle", "finished")
    embed = Embed(
        title=title,
        description=f"{who(a)} vs {who(b)}\n{_status(state, board)}",
        colour=COLOUR,
        footer=caps() if scoring else None,  # the caps matter once VP are scored
    )
    tokens = state.bids.tokens if state.bids else {}
    roles = {"attacker": _.p("role", "attacker"), "defender": _.p("role", "defender")}
    for side in board.sides:
        lines = [who(side.player) + (f" ({roles[side.role]})" if side.role else "")]
        if side.faction:
            lines.append(_("Faction: {faction}", faction=side.faction))
        if side.player in tokens and state.macro != "battle" and not board.finished:
            lines.append(_("Bid tokens: {count}", count=tokens[side.player]))
        lines.append(_("CP gained: {count}", count=side.cp))
        if scoring:
            mission = " · ".join(str(v) for v in side.mission_vp)
            lines.append(_("Mission VP: {rounds} (**{total}**)", rounds=mission, total=side.mission_total))
        ops = [f"{t.name} {t.vp}" for t in side.tac_ops]
        if side.hidden_tac_ops:
            ops.append(_.n("{count} secret", "{count} secret", side.hidden_tac_ops))
        if ops:
            lines.append(_("Tac Ops: {cards}", cards=", ".join(ops)))
        if side.battle_ready:
            lines.append(_("Battle Ready painted: +{vp}", vp=BATTLE_READY_VP))
        if scoring:
            lines.append(_("Total: **{total}**", total=side.total))
        name = (
            _.p("field", "Attacker")
            if side.role == "attacker"
            else _.p("field", "Defender")
            if side.role
            else _.p("field", "Player")
        )
        embed.add(name, "\n".join(lines), inline=True)
    if board.sealed:  # shown from the seal to the reveal, which shows them again with the nonces
        sealed = [_sealed(c.player, c.label, c.commitment) for c in board.sealed]
        embed.add(_.p("field", "Sealed"), clip("\n".join(sealed), FIELD_VALUE))
    return embed
