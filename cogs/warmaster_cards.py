"""The effects of the printed magic item deck (rules/warmaster/data/magic_items.yaml), marked so
the catalogue translates them by their English wherever a card is shown.

Card names are the printed proper names and stay English; a server's own pack prints its effects
in its own words, shown as written.
"""

from __future__ import annotations

from bot.lang.i18n import Domain

_ = Domain("warmaster")

EFFECTS = (
    _.mark("Once per game, in the unit's first combat, one stand gets +1 Attack (one extra attack in all)."),
    _.mark("One enemy unit in contact must re-roll one successful armour save each combat round."),
    _.mark("Re-roll one missed attack die each combat round."),
    _.mark("One stand gets +1 Attack (one extra attack in all, not one per stand)."),
    _.mark(
        "The General may give his first order each turn on an unmodified Command of 10; it stops "
        "working after a failed first order (11 or 12)."
    ),
    _.mark("+1 Attack on every stand during the unit's first combat engagement."),
    _.mark("+1 Hits on every stand during the unit's first combat engagement."),
    _.mark("Ignore one shooting hit per turn after saves, until the unit loses a stand."),
    _.mark("Once per game, re-roll all of the unit's attack dice in shooting or combat."),
    _.mark("Armour one step better (never better than 3+) until the unit loses a stand."),
    _.mark("Once per game the General re-rolls one failed order as if his Command were 8."),
    _.mark("For one turn, declared at its start, the General gets +1 Command (up to 10)."),
    _.mark("Once per game a Wizard casts a spell without rolling."),
    _.mark("An enemy Wizard who fails a cast is spellbound on a 4+: -1 to every later cast."),
    _.mark("Once per battle the General may ignore a subordinate's blunder; the order then passes."),
    _.mark(
        "Once, make an enemy spell that was cast successfully fail (a Runesmith may use it after a "
        "failed anti-magic roll)."
    ),
    _.mark("Once per game, after a spell is cast successfully, the Wizard may cast a second spell."),
    _.mark("Once per game +1 to a casting roll, declared before rolling (a 1 still fails)."),
    _.mark("+1 shooting attack."),
    _.mark("The enemy re-rolls one successful armour save each combat round."),
    _.mark("For the whole game the unit gets no benefit from being defended or fortified."),
    _.mark("Once per game the opponent may make the unit re-roll all its attack dice."),
    _.mark("Nothing happens."),
    _.mark("Every unrevealed magic item card within 60cm of the bearer, yours too, leaves play."),
    _.mark("No -1 Command penalty for dense terrain."),
    _.mark("+1 Command for one whole turn (up to 10)."),
    _.mark("Each turn the enemy re-rolls one hit scored by shooting or in combat."),
    _.mark("+10cm when evading."),
    _.mark("+1 to casting rolls made within 20cm of the feature."),
    _.mark("Once, roll one extra die for a magic, combat or command roll and drop the worst."),
    _.mark("Once, cancel one hit on the unit at once."),
    _.mark("Never driven back by shooting or magic (confusion still tested), but must charge on initiative."),
    _.mark("Once, +2 to one casting roll (never better than 2+)."),
    _.mark("The enemy turns up every card already laid and lays the rest face up."),
    _.mark("If the unit survives, its side scores 50 VP; if it is destroyed, the other side scores 40 VP."),
    _.mark("-1 Attack on every stand all game (never below 1 before modifiers)."),
    _.mark("Re-roll one successful hit each combat round."),
    _.mark("Shooting range -10cm."),
    _.mark("Shooting range +10cm."),
    _.mark(
        "Played before the game and not counted as a laid card: swap it for two magic item cards "
        "from the deck."
    ),
    _.mark("A blank card: no item and no cost."),
)
"""Every effect the built-in deck prints, once (a test keeps this in step with the deck)."""
