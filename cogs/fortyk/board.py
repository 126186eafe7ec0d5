"""The 40K mission's board and its lines: the living board (mission, battle round, whose turn, kill
points, marks, relics, the dice and at the end the whole result), a line for each event, and what the
game waits for now. Players appear as mentions, which the table shows in embeds so they name players
without pinging them.

Everything here speaks the language in force (the table's for the board and its lines, a player's for
their replies and DMs); the English is the source of the fortyk catalogue.
"""

from __future__ import annotations

from bot.chat.limits import FIELD_VALUE
from bot.chat.messages import Embed
from bot.lang.i18n import Domain, Value
from cogs.fortyk.vocabulary import SETUP_STAGES, tier_name, who, zone_name
from rules.fortyk import scoreboard
from rules.fortyk.events import (
    BattleEnded,
    BattleLengthRolled,
    BattleStarted,
    DeploymentFinished,
    DeploymentRolled,
    EndReported,
    FirstTurnRolled,
    GameOpened,
    GameScored,
    MarkSurvived,
    OrderChosen,
    RelicCaptured,
    RelicDropped,
    SeizeRolled,
    TurnEnded,
    TurnStarted,
    UnitDestroyed,
    UnitMarked,
    ZoneChosen,
)
from rules.fortyk.mission import ConditionKind
from rules.fortyk.models import ConditionResult, FortyKState, KillReason, Phase, RollOffRecord
from rules.fortyk.views import Scoreboard
from rules.session import Event
from rules.text import clip, clip_start

_ = Domain("fortyk")
COLOUR = 0x7A1F1F


def _side_text(board: Scoreboard, index: int) -> str:
    side = board.sides[index]
    lines = [who(side.player)]
    if side.zone:
        lines.append(_("Zone: {zone}", zone=zone_name(side.zone)))
    lines.append(_("Kill points: {points}", points=f"**{side.kill_points}**"))
    if side.kills:
        kills = ", ".join(f"{k.unit} ({k.kill_points})" for k in side.kills)
        lines.append(_("Destroyed: {units}", units=kills))
    if side.marks_made:
        lines.append(_("Marked: {units}", units=", ".join(side.marks_made)))
    if side.marked_alive:
        lines.append(_("Own marked units alive: {units}", units=", ".join(side.marked_alive)))
    if side.carries_enemy_relic:
        lines.append(_("Carries the enemy relic: {unit}", unit=side.carries_enemy_relic))
    if side.quarters is not None:
        lines.append(_("Table quarters: {quarters}", quarters=side.quarters))
    if side.total is not None:
        lines.append(_("Total: {points}", points=f"**{side.total}**"))
    return clip("\n".join(lines), FIELD_VALUE)


def board_embed(state: FortyKState) -> Embed:
    """The living board: the mission and its map, where the game is and whose turn, each side's kill
    points, marks, relic and quarters, the dice so far, and once it is over the whole result."""
    board = scoreboard(state)
    first, second = state.players
    title = f"{board.mission} — {board.deployment_map}"
    if board.phase is Phase.BATTLE:
        status = _(
            "Battle round {round} (at most {most}) · {player}'s turn",
            round=board.round,
            most=board.max_rounds,
            player=who(board.active),
        )
    elif board.phase is Phase.FINISHED:
        title = _.p("title", "Result: {title}", title=title)
        status = result_text(state)
    elif board.phase is Phase.SCORING:
        status = _(
            "The battle ended after round {round}: each player reports table quarters",
            round=state.ended_after_round,
        )
    else:
        status = _("Setting up: {stage}", stage=_(SETUP_STAGES[board.phase]))
    embed = Embed(title=title, description=f"{who(first)} vs {who(second)}\n{status}", colour=COLOUR)
    embed.add(_.p("field", "Player 1"), _side_text(board, 0), inline=True)
    embed.add(_.p("field", "Player 2"), _side_text(board, 1), inline=True)
    dice = dice_lines(board, state.players)
    if dice:
        embed.add(_.p("field", "Dice"), clip_start("\n".join(dice), FIELD_VALUE))
    if board.phase is Phase.BATTLE:
        embed.footer = _(
            "Kills count when recorded: record them with the button below in the turn they happen."
        )
    return embed


def _roll_off(roll: RollOffRecord, players: list[int]) -> str:
    parts = []
    for dice, totals in zip(roll.rolls, roll.totals, strict=True):
        sides = []
        for player, die, total in zip(players, dice, totals, strict=True):
            bonus = f" (+{total - die} = {total})" if total != die else ""
            sides.append(f"{who(player)} 🎲 {die}{bonus}")
        parts.append(" vs ".join(sides))
    text = ("; " + _("tie, again:") + " ").join(parts)
    return _("{rolls} — {player} wins.", rolls=text, player=who(roll.winner))


def _kill_line(event: UnitDestroyed) -> str:
    k = event.kill
    values = {"by": who(k.by), "unit": k.unit, "owner": who(k.owner)}
    if k.reason is KillReason.MARKED_THIS_TURN:
        what = _.n(
            "{by} destroyed {unit} ({owner}): {count} KP, marked this turn.",
            "{by} destroyed {unit} ({owner}): {count} KP, marked this turn.",
            k.kill_points,
            **values,
        )
    elif k.reason is KillReason.MARKED_EARLIER:
        what = _.n(
            "{by} destroyed {unit} ({owner}): {count} KP, it survived its mark earlier.",
            "{by} destroyed {unit} ({owner}): {count} KP, it survived its mark earlier.",
            k.kill_points,
            **values,
        )
    else:
        what = _.n(
            "{by} destroyed {unit} ({owner}): {count} KP.",
            "{by} destroyed {unit} ({owner}): {count} KP.",
            k.kill_points,
            **values,
        )
    total = _.n("{by} now has {count} KP.", "{by} now has {count} KP.", event.total_kill_points, by=who(k.by))
    return f"{what} {total}"


def describe(event: Event, players: list[int]) -> str:
    """One line for the channel; `players` is the session's two players in order."""
    match event:
        case GameOpened():
            return f"{event.mission}: {who(players[0])} vs {who(players[1])}."
        case DeploymentRolled():
            return _("Deployment roll-off: {roll}", roll=_roll_off(event.roll, players))
        case ZoneChosen():
            c = event.choice
            return _(
                "{chooser} deploys in the {zone}, {first} in the {opponent_zone}. {first} sets up a unit "
                "first; then take turns.",
                chooser=who(c.chooser),
                zone=zone_name(c.zone),
                first=who(event.deploys_first),
                opponent_zone=zone_name(c.opponent_zone),
            )
        case DeploymentFinished():
            if event.first:
                return _("{player} has finished deploying first.", player=who(event.player))
            return _("{player} has finished deploying.", player=who(event.player))
        case FirstTurnRolled():
            return _("First-turn roll-off: {roll}", roll=_roll_off(event.roll, players))
        case OrderChosen():
            if event.go_first:
                return _("{player} chooses to go first.", player=who(event.player))
            return _("{player} chooses to go second.", player=who(event.player))
        case SeizeRolled():
            seize = event.record
            if seize.die is None:
                return _("{player} does not try to seize the initiative.", player=who(seize.player))
            values: dict[str, Value] = {"player": who(seize.player), "die": seize.die, "needs": event.needs}
            if seize.seized:
                return _(
                    "{player} tries to seize the initiative: 🎲 {die} (needs {needs}) — the initiative is "
                    "seized!",
                    **values,
                )
            return _("{player} tries to seize the initiative: 🎲 {die} (needs {needs}) — no luck.", **values)
    return _battle_line(event)


def _battle_line(event: Event) -> str:
    """One line for the channel for an event of the battle or its end; empty for any other."""
    match event:
        case BattleStarted():
            return _(
                "The battle begins: {first} goes first, {second} second.",
                first=who(event.first),
                second=who(event.second),
            )
        case TurnStarted():
            return _("Battle round {round}: {player}'s turn.", round=event.round, player=who(event.player))
        case UnitMarked():
            m = event.mark
            return _("{by} marks {unit} ({owner}) for death.", by=who(m.by), unit=m.unit, owner=who(m.owner))
        case UnitDestroyed():
            return _kill_line(event)
        case RelicCaptured():
            h = event.holder
            return _("{unit} takes {owner}'s relic.", unit=h.unit, owner=who(h.relic_owner))
        case RelicDropped():
            h = event.holder
            if event.because_destroyed:
                return _(
                    "{unit} was destroyed and drops {owner}'s relic.", unit=h.unit, owner=who(h.relic_owner)
                )
            return _("{unit} drops {owner}'s relic.", unit=h.unit, owner=who(h.relic_owner))
        case MarkSurvived():
            return _(
                "{unit} survived its mark: it is worth no kill points from now on.", unit=event.mark.unit
            )
        case TurnEnded():
            return _("{player} ends their turn.", player=who(event.player))
        case BattleLengthRolled():
            r = event.record
            rolled: dict[str, Value] = {
                "round": r.after_round,
                "player": who(r.player),
                "die": r.die,
                "needs": r.needs,
            }
            if r.continues:
                return _(
                    "End of round {round}: {player} rolls 🎲 {die} (needs {needs}+) — the battle goes on.",
                    **rolled,
                )
            return _(
                "End of round {round}: {player} rolls 🎲 {die} (needs {needs}+) — the battle is over.",
                **rolled,
            )
        case BattleEnded():
            if event.reason == "last_round":
                return _("The battle ends after round {round}, the last one.", round=event.after_round)
            return _("The battle ends after round {round}.", round=event.after_round)
        case EndReported():
            report = event.report
            alive = ", ".join(report.marked_alive) if report.marked_alive else _("none")
            return _.n(
                "{player} claims {count} table quarter(s); marked units alive: {alive}.",
                "{player} claims {count} table quarter(s); marked units alive: {alive}.",
                report.quarters,
                player=who(report.player),
                alive=alive,
            )
        case GameScored():
            totals = " – ".join(f"{who(t.player)} {t.points}" for t in event.totals)
            if event.winner is not None:
                return _("Final score: {totals}. {player} wins!", totals=totals, player=who(event.winner))
            return _("Final score: {totals}. A draw.", totals=totals)
    return ""


def now_text(state: FortyKState) -> str:
    """What the game waits for now, for the channel."""
    both = list(state.players)
    mission = state.mission
    match state.phase:
        case Phase.DEPLOYMENT_ROLL:
            return _(
                "{mission} on {map}. Roll off: the winner picks the deployment zone.",
                mission=mission.title,
                map=mission.deployment.map,
            )
        case Phase.CHOOSE_ZONE:
            assert state.deployment_roll is not None
            return _(
                "{player} won the roll-off: choose your deployment zone.",
                player=who(state.deployment_roll.winner),
            )
        case Phase.DEPLOYING:
            text = _(
                "Deploy: {player} sets up a unit first, then take turns unit by unit. Press the button when "
                "your whole army is on the table; the first to finish gets +{bonus} to the first-turn roll.",
                player=who(state.deploys_first),
                bonus=mission.first_turn.setup_first_bonus,
            )
            if state.setup_done:
                text += " " + _("{player} has finished.", player=who(state.setup_done[0]))
            return text
        case Phase.FIRST_TURN_ROLL:
            bonuses = state.first_turn_bonuses()
            bonus_text = ", ".join(f"{who(p)} +{b}" for p, b in zip(both, bonuses, strict=True) if b)
            if bonus_text:
                return _(
                    "Roll off for the first turn ({bonuses} for finishing set-up first).", bonuses=bonus_text
                )
            return _("Roll off for the first turn.")
        case Phase.CHOOSE_ORDER:
            assert state.first_turn_roll is not None
            return _(
                "{player} won the roll-off: go first or second?", player=who(state.first_turn_roll.winner)
            )
        case Phase.SEIZE:
            assert state.first_turn_roll is not None
            seizer = state.opponent(state.first_turn_roll.winner)
            return _(
                "{player}, you may try to seize the initiative: the bot rolls a D6 and a {needs}+ gives you "
                "the first turn.",
                player=who(seizer),
                needs=mission.first_turn.seize_on,
            )
        case Phase.BATTLE:
            text = _(
                "Battle round {round}: {player}'s turn.", round=state.round, player=who(state.active_player)
            )
            if mission.marks is not None and state.marking_open:
                text += " " + _("Before moving you may mark one enemy unit for death.")
            return (
                text
                + " "
                + _(
                    "Record kills as they happen: a marked unit is worth its bonus only in the turn it was "
                    "marked."
                )
            )
        case Phase.SCORING:
            return _(
                "The battle ended after round {round}. Each player reports the table quarters they claim "
                "(more units wholly inside than the enemy; flyers do not count; {quarters} in all) and which "
                "of their marked units are alive.",
                round=state.ended_after_round,
                quarters=mission.table_quarters,
            )
        case Phase.FINISHED:
            return _("The game is over.")
    raise AssertionError(state.phase)  # pragma: no cover


def _roll_off_line(first: bool, rounds: str, winner: int) -> str:
    if first:
        return _("Deployment roll-off: {rounds} — {player} wins.", rounds=rounds, player=who(winner))
    return _("First-turn roll-off: {rounds} — {player} wins.", rounds=rounds, player=who(winner))


def dice_lines(board: Scoreboard, players: list[int]) -> list[str]:
    """The set-up and battle-length dice so far, one line each."""
    lines: list[str] = []
    for deployment, roll in ((True, board.deployment_roll), (False, board.first_turn_roll)):
        if roll is None:
            continue
        then = "; " + _("then") + " "
        rounds = then.join(f"{who(players[0])} {t[0]}, {who(players[1])} {t[1]}" for t in roll.totals)
        lines.append(_roll_off_line(deployment, rounds, roll.winner))
    seize = board.seize
    if seize is not None:
        if seize.die is None:
            lines.append(_("{player} did not try to seize the initiative.", player=who(seize.player)))
        elif seize.seized:
            lines.append(_("Seize: {player} rolled {die} — seized!", player=who(seize.player), die=seize.die))
        else:
            lines.append(_("Seize: {player} rolled {die} — no.", player=who(seize.player), die=seize.die))
    for record in board.continue_rolls:
        values: dict[str, Value] = {
            "round": record.after_round,
            "player": who(record.player),
            "die": record.die,
        }
        if record.continues:
            line = _(
                "After round {round}: {player} rolled {die} (needs {needs}+) — the battle goes on.",
                **values,
                needs=record.needs,
            )
        else:
            line = _(
                "After round {round}: {player} rolled {die} (needs {needs}+) — the battle ends.",
                **values,
                needs=record.needs,
            )
        lines.append(line)
    return lines


def _counted(kind: ConditionKind, player: int, count: int) -> str:
    if kind is ConditionKind.MOST_KILL_POINTS:
        return _.n("{player} {count} KP", "{player} {count} KP", count, player=who(player))
    return _.n("{player} {count} quarter", "{player} {count} quarters", count, player=who(player))


def condition_detail(state: FortyKState, result: ConditionResult) -> str:
    """How a victory condition came out, in words."""
    players = state.players
    kind = next((c.kind for c in state.mission.conditions if c.key == result.key), None)
    if kind is ConditionKind.PER_MARKED_SURVIVOR:
        parts = [
            f"{who(p)} {len(units)}" + (f" ({', '.join(units)})" if units else "")
            for p, units in zip(players, result.units, strict=True)
        ]
        return _("marked units alive: {sides}", sides=", ".join(parts))
    if kind is ConditionKind.HOLDS_ENEMY_RELIC:
        if result.winner is not None:
            units = result.units[players.index(result.winner)] if result.units else []
            return _(
                "{player} holds the enemy relic ({units})",
                player=who(result.winner),
                units=", ".join(units) or "?",
            )
        return _("both hold the enemy relic") if any(result.counts) else _("neither holds the enemy relic")
    if kind is None or len(result.counts) != 2:
        return ""
    detail = ", ".join(_counted(kind, p, n) for p, n in zip(players, result.counts, strict=True))
    if result.winner is None:
        return _("{detail}: tied", detail=detail)
    if kind is ConditionKind.MOST_KILL_POINTS:
        return _("{detail}: {player} has more", detail=detail, player=who(result.winner))
    return _("{detail}: {player} claims more", detail=detail, player=who(result.winner))


def result_text(state: FortyKState) -> str:
    """The whole result: every condition with its outcome and points, the totals and the winner."""
    lines = [
        _(
            "{mission}, ended after battle round {round}.",
            mission=state.mission.title,
            round=state.ended_after_round,
        )
    ]
    for result in state.results:
        worth = (
            _("+{points} each", points=result.points) if result.outcome == "per_unit" else f"{result.points}"
        )
        awards = ", ".join(f"{who(a.player)} {a.points}" for a in result.awards)
        detail = condition_detail(state, result)
        values = {"tier": tier_name(result.tier), "name": result.name, "worth": worth, "awards": awards}
        if detail:
            lines.append(_("{tier} — {name} ({worth}): {detail}. {awards}.", detail=detail, **values))
        else:
            lines.append(_("{tier} — {name} ({worth}): {awards}.", **values))
    if state.outcome is not None:
        scores = " – ".join(f"{who(s.player)} {s.score}" for s in state.outcome.sides)
        winner = state.outcome.winner
        if winner is not None:
            lines.append(_("Total: {scores}. {player} wins.", scores=scores, player=who(winner)))
        else:
            lines.append(_("Total: {scores}. A draw.", scores=scores))
    return "\n".join(lines)
