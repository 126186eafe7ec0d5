"""The 40K mission in words: refusal sentences for its codes, a line for each event, what the game
waits for now, the words on each question's message, the dice on the board and the result. Players
appear as mentions, which the table shows in embeds so they name players without pinging them."""

from __future__ import annotations

from rules.fortyk.mission import ConditionKind
from rules.fortyk.models import (
    BattleEnded,
    BattleLengthRolled,
    BattleStarted,
    ConditionResult,
    DeploymentFinished,
    DeploymentRolled,
    EndReported,
    FirstTurnRolled,
    FortyKState,
    GameOpened,
    GameScored,
    KillReason,
    MarkSurvived,
    OrderChosen,
    Phase,
    RelicCaptured,
    RelicDropped,
    RollOffRecord,
    SeizeRolled,
    TurnEnded,
    TurnStarted,
    UnitDestroyed,
    UnitMarked,
    ZoneChosen,
)
from rules.fortyk.questions import DEPLOYED, TURN
from rules.fortyk.views import Scoreboard
from rules.session import Event, Question

_BATTLE_NOT_BEGUN = "the battle hasn't begun."
_BATTLE_OVER = "the battle is over."

ENGLISH: dict[str, str] = {
    "fortyk.two_players": "A mission needs two different players.",
    "fortyk.unknown_mission": "There is no mission `{mission}` here. Choose one of: {missions}.",
    "fortyk.unknown_action": "That is not something you can do in this mission.",
    "fortyk.stale_button": "That button belongs to an earlier step of the game; use the latest message.",
    "fortyk.unit_missing": "Name the unit, please.",
    "fortyk.unit_long": "Unit names can be at most {limit} characters long.",
    # an action outside its phase: before it (not_yet) or after it (no_longer)
    "fortyk.not_yet.choose_zone": "You can't choose a deployment zone yet: roll off for deployment first.",
    "fortyk.not_yet.deployment_done": "You can't finish deploying yet: the deployment zone is chosen first.",
    "fortyk.not_yet.roll_first_turn": "You can't roll off for the first turn yet: both armies deploy first.",
    "fortyk.not_yet.choose_order": "You can't choose to go first or second yet: the first-turn roll-off "
    "comes before that.",
    "fortyk.not_yet.seize": "You can't seize the initiative yet: the roll-off winner chooses the order "
    "first.",
    "fortyk.not_yet.mark": "You can't mark a unit now: " + _BATTLE_NOT_BEGUN,
    "fortyk.not_yet.destroyed": "You can't record a destroyed unit now: " + _BATTLE_NOT_BEGUN,
    "fortyk.not_yet.capture_relic": "You can't take the enemy relic now: " + _BATTLE_NOT_BEGUN,
    "fortyk.not_yet.drop_relic": "You can't drop the relic now: " + _BATTLE_NOT_BEGUN,
    "fortyk.not_yet.end_turn": "You can't end a turn now: " + _BATTLE_NOT_BEGUN,
    "fortyk.not_yet.report_end": "You can't report table quarters now: that comes when the battle is over.",
    "fortyk.no_longer.roll_deployment": "You can't roll off for deployment now: that roll-off is done.",
    "fortyk.no_longer.choose_zone": "You can't choose a deployment zone now: the zones are chosen.",
    "fortyk.no_longer.deployment_done": "You can't finish deploying now: both armies are deployed.",
    "fortyk.no_longer.roll_first_turn": "You can't roll off for the first turn now: that roll-off is done.",
    "fortyk.no_longer.choose_order": "You can't choose to go first or second now: that is decided.",
    "fortyk.no_longer.seize": "You can't seize the initiative now: the first turn is decided.",
    "fortyk.no_longer.mark": "You can't mark a unit now: " + _BATTLE_OVER,
    "fortyk.no_longer.destroyed": "You can't record a destroyed unit now: " + _BATTLE_OVER,
    "fortyk.no_longer.capture_relic": "You can't take the enemy relic now: " + _BATTLE_OVER,
    "fortyk.no_longer.drop_relic": "You can't drop the relic now: " + _BATTLE_OVER,
    "fortyk.no_longer.end_turn": "You can't end a turn now: " + _BATTLE_OVER,
    # set-up
    "fortyk.zone_chooser": "<@{player}> won the deployment roll-off, so they choose the zone.",
    "fortyk.unknown_zone": "“{zone}” is not a deployment zone of {map}; choose one of: {zones}.",
    "fortyk.already_deployed": "You have already said your army is deployed.",
    "fortyk.order_chooser": "<@{player}> won the first-turn roll-off, so they choose to go first or second.",
    "fortyk.seizer": "You chose to go first; only <@{player}> may try to seize the initiative.",
    # the battle
    "fortyk.not_your_turn.mark": "It is <@{player}>'s turn; you can mark a unit only in your own turn.",
    "fortyk.not_your_turn.capture_relic": "It is <@{player}>'s turn; you can take the enemy relic only in "
    "your own turn.",
    "fortyk.not_your_turn.end_turn": "It is <@{player}>'s turn; you can end the turn only in your own turn.",
    "fortyk.own_unit.mark": "“{unit}” is one of your own units; you can only mark an enemy unit. If "
    "<@{enemy}> has a unit with the same name, add something to tell them apart, such as “{unit} (enemy)”.",
    "fortyk.own_unit.destroyed": "“{unit}” is one of your own units; you can only record an enemy unit as "
    "destroyed. If <@{enemy}> has a unit with the same name, add something to tell them apart, such as "
    "“{unit} (enemy)”.",
    "fortyk.no_marks": "{mission} has no Marked for Death rule.",
    "fortyk.marked_this_turn": "You have already marked {unit} this turn; one mark per turn.",
    "fortyk.marking_closed": "Marks are declared at the start of your turn, before movement; this turn has "
    "already moved on (a kill or a relic was recorded).",
    "fortyk.mark_destroyed": "{unit} was destroyed in battle round {round}; mark a unit still on the table.",
    "fortyk.mark_relic_carrier": "{unit} carries your relic, so it cannot be marked for death.",
    "fortyk.mark_survived": "{unit} was marked in battle round {round} and survived that turn, so it is "
    "worth no kill points now; mark another unit.",
    "fortyk.already_destroyed": "{unit} was already recorded as destroyed (battle round {round}).",
    "fortyk.no_relics": "{mission} has no relics.",
    "fortyk.relic_held": "Your unit {unit} already carries the enemy relic.",
    "fortyk.relic_enemy_unit": "“{unit}” is one of <@{enemy}>'s units; you can only take the enemy relic "
    "with one of your own units (you cannot capture your own relic).",
    "fortyk.relic_destroyed_unit": "{unit} was destroyed in battle round {round}, so it cannot take the "
    "relic.",
    "fortyk.no_relic_carried": "None of your units carries the enemy relic.",
    # the end
    "fortyk.quarters_number": "Enter how many table quarters you claim as a number from 0 to {limit}.",
    "fortyk.quarters_over": "There are only {quarters} table quarters.",
    "fortyk.quarters_taken": "<@{player}> claims {claimed} table quarters, so you can claim at most {left} "
    "of {quarters}.",
    "fortyk.no_marked_alive": "“{unit}” is not one of your marked units still alive (marked and not recorded "
    "as destroyed: none).",
    "fortyk.not_marked_alive": "“{unit}” is not one of your marked units still alive (marked and not "
    "recorded as destroyed: {units}).",
}


def who(player: int | None) -> str:
    return f"<@{player}>" if player is not None else "nobody"


def _roll_off(roll: RollOffRecord, players: list[int]) -> str:
    parts = []
    for dice, totals in zip(roll.rolls, roll.totals, strict=True):
        sides = []
        for player, die, total in zip(players, dice, totals, strict=True):
            bonus = f" (+{total - die} = {total})" if total != die else ""
            sides.append(f"{who(player)} 🎲 {die}{bonus}")
        parts.append(" vs ".join(sides))
    text = "; tie, again: ".join(parts)
    return f"{text} — {who(roll.winner)} wins."


def describe(event: Event, players: list[int]) -> str:
    """One line for the channel; `players` is the session's two players in order."""
    match event:
        case GameOpened():
            return f"{event.mission}: {who(players[0])} vs {who(players[1])}."
        case DeploymentRolled():
            return f"Deployment roll-off: {_roll_off(event.roll, players)}"
        case ZoneChosen():
            c = event.choice
            return (
                f"{who(c.chooser)} deploys in the {c.zone}, {who(event.deploys_first)} in the "
                f"{c.opponent_zone}. {who(event.deploys_first)} sets up a unit first; then take turns."
            )
        case DeploymentFinished():
            return f"{who(event.player)} has finished deploying" + (" first." if event.first else ".")
        case FirstTurnRolled():
            return f"First-turn roll-off: {_roll_off(event.roll, players)}"
        case OrderChosen():
            return f"{who(event.player)} chooses to go {'first' if event.go_first else 'second'}."
        case SeizeRolled():
            seize = event.record
            if seize.die is None:
                return f"{who(seize.player)} does not try to seize the initiative."
            verdict = "the initiative is seized!" if seize.seized else "no luck."
            return (
                f"{who(seize.player)} tries to seize the initiative: 🎲 {seize.die} "
                f"(needs {event.needs}) — {verdict}"
            )
        case BattleStarted():
            return f"The battle begins: {who(event.first)} goes first, {who(event.second)} second."
        case TurnStarted():
            return f"Battle round {event.round}: {who(event.player)}'s turn."
        case UnitMarked():
            m = event.mark
            return f"{who(m.by)} marks {m.unit} ({who(m.owner)}) for death."
        case UnitDestroyed():
            k = event.kill
            why = {
                KillReason.UNMARKED: "",
                KillReason.MARKED_THIS_TURN: ", marked this turn",
                KillReason.MARKED_EARLIER: ", it survived its mark earlier",
            }[k.reason]
            return (
                f"{who(k.by)} destroyed {k.unit} ({who(k.owner)}): {k.kill_points} KP{why}. "
                f"{who(k.by)} now has {event.total_kill_points} KP."
            )
        case RelicCaptured():
            h = event.holder
            return f"{h.unit} takes {who(h.relic_owner)}'s relic."
        case RelicDropped():
            h = event.holder
            how = "was destroyed and drops" if event.because_destroyed else "drops"
            return f"{h.unit} {how} {who(h.relic_owner)}'s relic."
        case MarkSurvived():
            m = event.mark
            return f"{m.unit} survived its mark: it is worth no kill points from now on."
        case TurnEnded():
            return f"{who(event.player)} ends their turn."
        case BattleLengthRolled():
            r = event.record
            verdict = "the battle goes on." if r.continues else "the battle is over."
            return (
                f"End of round {r.after_round}: {who(r.player)} rolls 🎲 {r.die} (needs {r.needs}+) — "
                f"{verdict}"
            )
        case BattleEnded():
            if event.reason == "last_round":
                return f"The battle ends after round {event.after_round}, the last one."
            return f"The battle ends after round {event.after_round}."
        case EndReported():
            report = event.report
            alive = ", ".join(report.marked_alive) if report.marked_alive else "none"
            return (
                f"{who(report.player)} claims {report.quarters} table quarter(s); "
                f"marked units alive: {alive}."
            )
        case GameScored():
            totals = " – ".join(f"{who(t.player)} {t.points}" for t in event.totals)
            verdict = f"{who(event.winner)} wins!" if event.winner is not None else "A draw."
            return f"Final score: {totals}. {verdict}"
    return ""


SETUP_STAGES: dict[Phase, str] = {
    Phase.DEPLOYMENT_ROLL: "the deployment roll-off",
    Phase.CHOOSE_ZONE: "choosing the deployment zones",
    Phase.DEPLOYING: "deploying the armies",
    Phase.FIRST_TURN_ROLL: "the first-turn roll-off",
    Phase.CHOOSE_ORDER: "choosing who goes first",
    Phase.SEIZE: "seizing the initiative",
}


def now_text(state: FortyKState) -> str:
    """What the game waits for now, for the channel."""
    both = list(state.players)
    mission = state.mission
    match state.phase:
        case Phase.DEPLOYMENT_ROLL:
            return (
                f"{mission.title} on {mission.deployment.map}. Roll off: the winner picks the deployment "
                "zone."
            )
        case Phase.CHOOSE_ZONE:
            assert state.deployment_roll is not None
            return f"{who(state.deployment_roll.winner)} won the roll-off: choose your deployment zone."
        case Phase.DEPLOYING:
            text = (
                f"Deploy: {who(state.deploys_first)} sets up a unit first, then take turns unit by unit. "
                "Press the button when your whole army is on the table; the first to finish gets "
                f"+{mission.first_turn.setup_first_bonus} to the first-turn roll."
            )
            if state.setup_done:
                text += f" {who(state.setup_done[0])} has finished."
            return text
        case Phase.FIRST_TURN_ROLL:
            bonuses = state.first_turn_bonuses()
            bonus_text = ", ".join(f"{who(p)} +{b}" for p, b in zip(both, bonuses, strict=True) if b)
            return "Roll off for the first turn" + (
                f" ({bonus_text} for finishing set-up first)." if bonus_text else "."
            )
        case Phase.CHOOSE_ORDER:
            assert state.first_turn_roll is not None
            return f"{who(state.first_turn_roll.winner)} won the roll-off: go first or second?"
        case Phase.SEIZE:
            assert state.first_turn_roll is not None
            seizer = state.opponent(state.first_turn_roll.winner)
            return (
                f"{who(seizer)}, you may try to seize the initiative: the bot rolls a D6 and a "
                f"{mission.first_turn.seize_on}+ gives you the first turn."
            )
        case Phase.BATTLE:
            text = f"Battle round {state.round}: {who(state.active_player)}'s turn."
            if mission.marks is not None and state.marking_open:
                text += " Before moving you may mark one enemy unit for death."
            return (
                text + " Record kills as they happen: a marked unit is worth its bonus only in the turn it "
                "was marked."
            )
        case Phase.SCORING:
            return (
                f"The battle ended after round {state.ended_after_round}. Each player reports the table "
                "quarters they claim (more units wholly inside than the enemy; flyers do not count; "
                f"{mission.table_quarters} in all) and which of their marked units are alive."
            )
        case Phase.FINISHED:
            return "The game is over."
    raise AssertionError(state.phase)  # pragma: no cover


def question_text(state: FortyKState, asked: Question) -> str:
    """A question's message: what is asked and of whom (named, not pinged: the table pings once, when
    the message is posted), and why a shown option can't be taken now. The battle's one message
    follows the turns, so it says whose turn it is first."""
    asking = ", ".join(who(p) for p in asked.players)
    lines = [f"**{asked.title}** · {asking}", asked.text]
    if asked.topic == TURN:
        lines = [
            f"**Battle round {state.round}: {who(state.active_player)}'s turn**",
            "Mark a unit before moving: a marked unit is worth its bonus only in the turn it was marked. "
            "Record kills with the board's button as they happen; press End turn when your turn is over.",
        ]
    elif asked.topic == DEPLOYED:
        lines.append(f"{who(state.deploys_first)} sets up a unit first; then take turns unit by unit.")
        lines += [f"{who(p)} has finished deploying." for p in state.setup_done]
    lines += [f"• {o.label}: {o.description}" for o in asked.options if o.disabled and o.description]
    return "\n".join(line for line in lines if line)


def dice_lines(board: Scoreboard, players: list[int]) -> list[str]:
    """The set-up and battle-length dice so far, one line each."""
    lines: list[str] = []
    for label, roll in (
        ("Deployment roll-off", board.deployment_roll),
        ("First-turn roll-off", board.first_turn_roll),
    ):
        if roll is None:
            continue
        rounds = "; then ".join(f"{who(players[0])} {t[0]}, {who(players[1])} {t[1]}" for t in roll.totals)
        lines.append(f"{label}: {rounds} — {who(roll.winner)} wins.")
    seize = board.seize
    if seize is not None:
        if seize.die is None:
            lines.append(f"{who(seize.player)} did not try to seize the initiative.")
        else:
            lines.append(
                f"Seize: {who(seize.player)} rolled {seize.die} — " + ("seized!" if seize.seized else "no.")
            )
    for record in board.continue_rolls:
        verdict = "the battle goes on." if record.continues else "the battle ends."
        lines.append(
            f"After round {record.after_round}: {who(record.player)} rolled {record.die} "
            f"(needs {record.needs}+) — {verdict}"
        )
    return lines


def _count(value: int, label: str) -> str:
    return f"{value} {label}" if value == 1 or label == "KP" else f"{value} {label}s"


def condition_detail(state: FortyKState, result: ConditionResult) -> str:
    """How a victory condition came out, in words."""
    players = state.players
    kind = next((c.kind for c in state.mission.conditions if c.key == result.key), None)
    if kind is ConditionKind.PER_MARKED_SURVIVOR:
        parts = [
            f"{who(p)} {len(units)}" + (f" ({', '.join(units)})" if units else "")
            for p, units in zip(players, result.units, strict=True)
        ]
        return "marked units alive: " + ", ".join(parts)
    if kind is ConditionKind.HOLDS_ENEMY_RELIC:
        if result.winner is not None:
            units = result.units[players.index(result.winner)] if result.units else []
            return f"{who(result.winner)} holds the enemy relic ({', '.join(units) or '?'})"
        return "both hold the enemy relic" if any(result.counts) else "neither holds the enemy relic"
    if kind is None or len(result.counts) != 2:
        return ""
    label, better = (
        ("KP", "has more") if kind is ConditionKind.MOST_KILL_POINTS else ("quarter", "claims more")
    )
    detail = ", ".join(f"{who(p)} {_count(n, label)}" for p, n in zip(players, result.counts, strict=True))
    return f"{detail}: {who(result.winner)} {better}" if result.winner is not None else f"{detail}: tied"


def result_text(state: FortyKState) -> str:
    """The whole result: every condition with its outcome and points, the totals and the winner."""
    lines = [f"{state.mission.title}, ended after battle round {state.ended_after_round}."]
    for result in state.results:
        worth = f"+{result.points} each" if result.outcome == "per_unit" else f"{result.points}"
        awards = ", ".join(f"{who(a.player)} {a.points}" for a in result.awards)
        detail = condition_detail(state, result)
        lines.append(
            f"{result.tier} — {result.name} ({worth}): " + (f"{detail}. " if detail else "") + f"{awards}."
        )
    if state.outcome is not None:
        scores = " – ".join(f"{who(s.player)} {s.score}" for s in state.outcome.sides)
        winner = state.outcome.winner
        lines.append(f"Total: {scores}. " + (f"{who(winner)} wins." if winner is not None else "A draw."))
    return "\n".join(lines)
