"""The 40K mission's refusal sentences: the English of each of its refusal codes (`fortyk.<what>`).

The adapter (cogs/fortyk/adapter.py) adds them to the refusal catalogue (`add_words`) when the cog is
loaded; the English is the source of the fortyk catalogue, which words them in the reader's language.
"""

from __future__ import annotations

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
