"""Short channel lines for each event, showing every die the bot rolled. Players appear as mentions."""

from __future__ import annotations

from rules.fortyk.models import (
    BattleEnded,
    BattleLengthRolled,
    BattleStarted,
    DeploymentFinished,
    DeploymentRolled,
    EndReported,
    FirstTurnRolled,
    GameOpened,
    GameScored,
    KillReason,
    MarkSurvived,
    OrderChosen,
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
from rules.session import Event


def _who(player: int) -> str:
    return f"<@{player}>"


def _roll_off(roll: RollOffRecord, players: list[int]) -> str:
    parts = []
    for dice, totals in zip(roll.rolls, roll.totals, strict=True):
        sides = []
        for player, die, total in zip(players, dice, totals, strict=True):
            bonus = f" (+{total - die} = {total})" if total != die else ""
            sides.append(f"{_who(player)} 🎲 {die}{bonus}")
        parts.append(" vs ".join(sides))
    text = "; tie, again: ".join(parts)
    return f"{text} — {_who(roll.winner)} wins."


def describe(event: Event, players: list[int]) -> str:
    """One line for the channel; `players` is the session's two players in order."""
    match event:
        case GameOpened():
            return f"{event.mission}: {_who(players[0])} vs {_who(players[1])}."
        case DeploymentRolled():
            return f"Deployment roll-off: {_roll_off(event.roll, players)}"
        case ZoneChosen():
            c = event.choice
            return (f"{_who(c.chooser)} deploys in the {c.zone}, {_who(event.deploys_first)} in the "
                    f"{c.opponent_zone}. {_who(event.deploys_first)} sets up a unit first; then take turns.")
        case DeploymentFinished():
            return f"{_who(event.player)} has finished deploying" + (" first." if event.first else ".")
        case FirstTurnRolled():
            return f"First-turn roll-off: {_roll_off(event.roll, players)}"
        case OrderChosen():
            return f"{_who(event.player)} chooses to go {'first' if event.go_first else 'second'}."
        case SeizeRolled():
            seize = event.record
            if seize.die is None:
                return f"{_who(seize.player)} does not try to seize the initiative."
            verdict = "the initiative is seized!" if seize.seized else "no luck."
            return (f"{_who(seize.player)} tries to seize the initiative: 🎲 {seize.die} "
                    f"(needs {event.needs}) — {verdict}")
        case BattleStarted():
            return f"The battle begins: {_who(event.first)} goes first, {_who(event.second)} second."
        case TurnStarted():
            return f"Battle round {event.round}: {_who(event.player)}'s turn."
        case UnitMarked():
            m = event.mark
            return f"{_who(m.by)} marks {m.unit} ({_who(m.owner)}) for death."
        case UnitDestroyed():
            k = event.kill
            why = {KillReason.UNMARKED: "",
                   KillReason.MARKED_THIS_TURN: ", marked this turn",
                   KillReason.MARKED_EARLIER: ", it survived its mark earlier"}[k.reason]
            return (f"{_who(k.by)} destroyed {k.unit} ({_who(k.owner)}): {k.kill_points} KP{why}. "
                    f"{_who(k.by)} now has {event.total_kill_points} KP.")
        case RelicCaptured():
            h = event.holder
            return f"{h.unit} takes {_who(h.relic_owner)}'s relic."
        case RelicDropped():
            h = event.holder
            how = "was destroyed and drops" if event.because_destroyed else "drops"
            return f"{h.unit} {how} {_who(h.relic_owner)}'s relic."
        case MarkSurvived():
            m = event.mark
            return f"{m.unit} survived its mark: it is worth no kill points from now on."
        case TurnEnded():
            return f"{_who(event.player)} ends their turn."
        case BattleLengthRolled():
            r = event.record
            verdict = "the battle goes on." if r.continues else "the battle is over."
            return (f"End of round {r.after_round}: {_who(r.player)} rolls 🎲 {r.die} (needs {r.needs}+) — "
                    f"{verdict}")
        case BattleEnded():
            if event.reason == "last_round":
                return f"The battle ends after round {event.after_round}, the last one."
            return f"The battle ends after round {event.after_round}."
        case EndReported():
            report = event.report
            alive = ", ".join(report.marked_alive) if report.marked_alive else "none"
            return (f"{_who(report.player)} claims {report.quarters} table quarter(s); "
                    f"marked units alive: {alive}.")
        case GameScored():
            totals = " – ".join(f"{_who(t.player)} {t.points}" for t in event.totals)
            verdict = f"{_who(event.winner)} wins!" if event.winner is not None else "A draw."
            return f"Final score: {totals}. {verdict}"
    return ""
