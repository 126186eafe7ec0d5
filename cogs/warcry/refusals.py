"""The English for every Warcry refusal code (`warcry.<what>`), added to bot/text's one catalogue with
`add_words`. The values of a refusal that are words (a battle group, an objective) are the rules'
own `Words`, shown in the reader's language where they are filled in.

Codes beside the refusals: `warcry.muster.*` (a muster rule a warband breaks) and `warcry.line.*`
(why a roster line can't be read) are worded through the same catalogue.
"""

from __future__ import annotations

from bot.lang.i18n import Domain
from bot.lang.text import add_words

_ = Domain("warcry")

PACK_HINT = "A server can load its own cards with `/warcry pack load`."
ROSTER_HINT = "Write one fighter a line: `Name, points, faction runemark, leader` (`leader` on one only)."
ROSTER_LINES = "I couldn't read every line of the roster:\n{lines}"
DECIDED = "{battleplan} does not use that; it is decided by "

ENGLISH: dict[str, str] = {
    # starting a battle and drawing its battleplan
    "warcry.two_players": "A Warcry battle needs two different players.",
    "warcry.unknown_battleplan": "There is no battleplan called `{name}`. Choose one of: {known}.",
    "warcry.battleplan_pending": "The battleplan has not been decided yet: both warbands must be split "
    "first.",
    "warcry.no_victory_cards": "The victory deck has no cards loaded, so no battle can be generated. "
    + PACK_HINT,
    "warcry.no_matched_victory_cards": "The victory deck has no cards with the Matched Play runemark "
    "loaded, so no battle can be generated. " + PACK_HINT,
    "warcry.table_incomplete": "The {kind} battleplan table is incomplete.",
    "warcry.unknown_action": "That is not something you can do in a Warcry battle.",
    # set-up
    "warcry.split_closed": "Battle groups can only be split before the battleplan is drawn.",
    "warcry.already_split": "You have already split your warband into battle groups.",
    "warcry.split_first": "The player who lost the priority roll splits their warband first; please wait.",
    "warcry.split_size": "A warband has {minimum} to {maximum} fighters, so {fighters} cannot be split.",
    "warcry.split_total": "The groups hold {groups} fighters but the warband has {fighters}.",
    "warcry.group_empty": "The {group} needs at least 1 fighter.",
    "warcry.group_large": "The {group} has {size}, more than half of {fighters} (at most {half}).",
    "warcry.split_broken": "That split breaks the battle-group rules:",
    "warcry.shield_small": "The Shield needs at least a third of the warband, rounded up: {minimum} of "
    "{fighters}.",
    "warcry.colour_closed": "Deployment colours are chosen once, after the battleplan is drawn.",
    "warcry.colour_by_winner": "The player who won the priority roll chooses red or blue.",
    "warcry.deploy_closed": "Battle groups are set up during deployment only.",
    "warcry.deploy_turn": "It is the other player's turn to set up their {group}.",
    "warcry.deploy_order": "Set up your {group} now; Daggers come first, then Shields, then Hammers.",
    "warcry.placing_closed": "Objectives and treasure are placed during set-up, before the battle begins.",
    "warcry.nothing_to_place": "{battleplan} places no objectives or treasure tokens, so nothing can be "
    "blocked.",
    "warcry.begin_closed": "The battle begins once every battle group is set up.",
    # battle rounds
    "warcry.battle_only": "That is recorded during the battle rounds, once the battle has begun.",
    "warcry.round_ended": "Battle round {round} has ended; an objective must be removed first.",
    "warcry.round_over": "Battle round {round} has already ended; this is round {now}.",
    "warcry.round_not_yet": "This is battle round {now}, not {round}.",
    "warcry.not_a_player": "Name one of the two players of this battle.",
    "warcry.too_many_fighters": "A warband has at most {limit} fighters, so {count} is too many.",
    "warcry.treasure_too_many": "There are only {tokens} treasure tokens and a fighter carries one at most: "
    "{count} plus the other side's {other} is too many.",
    "warcry.no_carrier": "Nobody carries the relic, so there is no damage to roll. Record the carrier first.",
    "warcry.quarters_too_many": "The battlefield has {quarters} quarters: {count} plus the other side's "
    "{other} is too many.",
    "warcry.blood_too_much": "An enemy warband is worth at most {limit} points: {before} already taken down "
    "plus {points} this round is more than that.",
    "warcry.initiative_fixed": "Objective {objective} was already awakened this round by the player without "
    "the initiative; the initiative can no longer change.",
    "warcry.initiative_first": "Record who has the initiative this round first: the other player awakens.",
    "warcry.awaken_by_other": "Only the player without the initiative may awaken an objective.",
    "warcry.awaken_once": "Objective {objective} was already awakened this round; only one per round.",
    "warcry.already_awake": "Objective {objective} is already awakened; pick a dormant one.",
    "warcry.dormant": "Objective {objective} is dormant: only awakened objectives score in Ley Lines.",
    "warcry.no_objective": "There is no objective `{name}` in play; in play: {in_play}.",
    "warcry.remove_closed": "Objectives are removed only at the end of the first and second battle rounds.",
    "warcry.remove_turn": "It is the other player's turn to remove an objective.",
    "warcry.champion_standing": "{champion} is still on the battlefield as the great champion; a new one can "
    "be named only when there is none.",
    "warcry.no_champion": "That player has no great champion on the battlefield; name one first.",
    "warcry.claim_pending": "Answer the claim that only one warband is left before ending the round.",
    "warcry.last_warband_extra_only": "Only in the extra rounds of a tied battle does the last warband "
    "standing win.",
    "warcry.last_warband_decides": "The battle is past its extra round, so the victory card is not checked "
    "again and nothing more is recorded for it: only the last warband standing wins. Declare it when only "
    "one warband is left, or end battle round {round}.",
    "warcry.no_claim": "Nobody has claimed to be the last warband standing.",
    # a claim the other player answers
    "warcry.own_claim": "Your opponent answers your claim, not you.",
    # a tally the battleplan doesn't keep: what decides it instead
    "warcry.decided_by.treasure_hunters": DECIDED + "the fighters carrying treasure at the end.",
    "warcry.decided_by.cursed_relic": DECIDED
    + 'who carries the relic at the end, else the fighters within 3" of it.',
    "warcry.decided_by.no_quarter": DECIDED + "the quarters captured at the end.",
    "warcry.decided_by.reaper": DECIDED + "each battle round's blood tally.",
    "warcry.decided_by.ley_lines": DECIDED
    + "the awakened objectives each player controls at the end of each "
    "round.",
    "warcry.decided_by.hidden_vault": DECIDED + "who controls the last objective.",
    "warcry.decided_by.cursed_prize": DECIDED + "who carries the prize at the end.",
    "warcry.decided_by.altar_of_ascendancy": DECIDED + "who has fighters on the altar at the end.",
    "warcry.decided_by.brutal_conquest": DECIDED + "the great champions' tallies.",
    "warcry.decided_by.manual": DECIDED + "its victory card: report who has achieved it.",
    # warband rosters
    "warcry.roster_unreadable": ROSTER_LINES + "\n" + ROSTER_HINT,
    "warcry.roster_unreadable_more": ROSTER_LINES + "\n…and {more} more lines like these\n" + ROSTER_HINT,
    "warcry.roster_long": "That roster is longer than {limit} characters; a warband has at most {fighters} "
    "fighters.",
    "warcry.roster_lines": "That roster has more than {limit} lines; a warband has at most {fighters} "
    "fighters.",
    "warcry.roster_empty": "The roster has no fighters in it. " + ROSTER_HINT,
    # muster rules a warband breaks (`check_warband`'s problems)
    "warcry.muster.too_few": "A warband needs at least {minimum} fighters; this one has {count}.",
    "warcry.muster.too_many": "A warband can have at most {maximum} fighters; this one has {count}.",
    "warcry.muster.too_costly": "A warband can cost at most {limit} points; this one costs {total} "
    "({over} over).",
    "warcry.muster.factions": "All fighters must share one faction runemark; this roster has {count}: "
    "{factions}.",
    "warcry.muster.no_leader": "A warband needs exactly one leader; none is marked (add `, leader` to one "
    "line).",
    "warcry.muster.leaders": "A warband can have only one leader; {count} are marked: {leaders}.",
    # why a roster line can't be read
    "warcry.line.count": "a fighter count must be at least 1",
    "warcry.line.too_few_fields": "expected at least a name, points and a faction runemark separated by "
    "commas",
    "warcry.line.too_many_fields": "too many fields; expected name, points, faction runemark and "
    "optionally `leader`",
    "warcry.line.no_name": "the fighter has no name",
    "warcry.line.name_long": "the name is longer than {limit} characters",
    "warcry.line.points": "`{text}` is not a points value (a whole number such as 120)",
    "warcry.line.free": "a fighter costs at least 1 point",
    "warcry.line.no_faction": "the faction runemark is missing",
    "warcry.line.faction_long": "the faction runemark is longer than {limit} characters",
    "warcry.line.leader": "`{text}` should be `leader` or left out",
}


add_words(ENGLISH)
