"""Warmaster's refusals by code, in the language in force: each code worded in English in
`ENGLISH` (the catalogue translates it by its code). The values players read (a kind of target, a
deck, who may carry a card, the unit types allowed, a fixed target's name) are the rules' own
`Words`. Registered with `add_words` on import, so whatever imports the words has them."""

from __future__ import annotations

from bot.lang.text import add_words

ENGLISH: dict[str, str] = {
    # starting
    "warmaster.same_player": "A Warmaster game needs two different players.",
    "warmaster.points_missing": "Give both armies' points.",
    "warmaster.first_not_player": "The player with the first turn must be one of the two players.",
    "warmaster.army_points": "An army's points must be a positive whole number, like 2000.",
    "warmaster.army_too_big": "An army of more than {maximum:,} points is beyond what the decks can serve.",
    "warmaster.magic_deck_small": "The magic item deck holds {holds} cards, but these armies need "
    "{needed}. Use smaller armies or load a bigger deck.",
    "warmaster.tactics_deck_small": "The tactics deck holds {holds} cards, but these armies need "
    "{needed}. Use smaller armies or load a bigger deck.",
    # naming targets
    "warmaster.name_empty": "Give the target a name, for example `Knights` or `Old Forest`.",
    "warmaster.name_too_long": "Target names can be at most {limit} characters long.",
    "warmaster.name_markup": "Target names may not contain mentions, links or formatting characters.",
    "warmaster.target_unknown": "I don't know that target. Pick one from the list, or type a new name "
    "with its kind.",
    "warmaster.target_whose": "Say whose {kind} you mean: yours or your opponent's.",
    "warmaster.target_unnamed": "Name the target, for example `Knights`, or choose one from the list.",
    "warmaster.target_ambiguous": "More than one target is called **{name}**; say whose it is "
    "(mine, enemy or neutral).",
    "warmaster.target_known_as": "**{name}** is already known with other details; name it alone to "
    "use it, or give a new target another name.",
    "warmaster.new_target_kind": "**{name}** is a new target: pick what it is from the target's list, "
    "or give its kind (unit, character or terrain) and whose it is.",
    "warmaster.terrain_side": "Terrain features belong to no one; leave the side out or choose neutral.",
    "warmaster.new_target_whose": "Say whose {kind} **{name}** is: yours or your opponent's.",
    "warmaster.role_on_unit": "A role (General, Wizard ...) belongs to characters, not units.",
    "warmaster.unit_type_missing": "Say what kind of unit **{name}** is (infantry, cavalry, chariot, "
    "monster, artillery or machine), so the cards' restrictions can be checked.",
    "warmaster.unit_type_on_character": "A unit type belongs to units, not characters.",
    "warmaster.role_missing": "Say what **{name}** is (General, Wizard, Runesmith or Hero), so the "
    "cards' restrictions can be checked.",
    "warmaster.general_taken": "An army has one General, and **{name}** is already <@{owner}>'s.",
    "warmaster.type_unknown": "Please type one of these: {allowed}.",
    "warmaster.new_choice_malformed": "I could not read that new-target choice. Pick one from the list "
    "again, or type the target's name and give its kind and side.",
    # the card phase
    "warmaster.unknown_action": "Muster does not know that Warmaster action.",
    "warmaster.not_in_hand": "That card is not in your hand. `/warmaster hand` shows what you hold.",
    "warmaster.battle_begun": "The battle has begun: no more cards can be laid or traded.",
    "warmaster.done_laying": "You have finished laying cards.",
    "warmaster.nobody_lays": "Both players have finished laying cards.",
    "warmaster.not_your_turn": "It is <@{player}>'s turn to lay a card.",
    "warmaster.lucky_find_not_laid": "**{card}** is not laid: trade it for {draws} magic item cards instead.",
    "warmaster.limit_reached": "You have laid your limit of {limit} cards.",
    "warmaster.wrong_carrier": "**{card}** can go on {allowed}; **{target}** is not one.",
    "warmaster.slot_taken": "**{target}** already holds a card from the {deck} deck; a target takes at "
    "most one magic item card and one tactics card.",
    "warmaster.trade_first": "You still hold **{card}**: trade it first; the new cards may fit.",
    "warmaster.must_lay": "You can still lay **{card}** on **{target}**, and a card that can be laid "
    "must be.",
    "warmaster.must_lay_on_a_unit": "**{card}** can still be laid: every army has units, so name one of "
    "yours or of the enemy's. A card that can be laid must be.",
    "warmaster.must_lay_on_a_general": "**{card}** can still be laid: every army has a General; name "
    "yours or the enemy's. A card that can be laid must be.",
    "warmaster.not_traded": "**{card}** is laid on a target, not traded.",
    "warmaster.nothing_to_trade": "You hold no card that can be traded.",
    "warmaster.deck_empty": "The magic item deck is empty, so there is nothing to trade for.",
    "warmaster.no_such_card": "No card was laid as number {placement}.",
    "warmaster.not_your_card": "Only the player who laid a card can turn it face up.",
    "warmaster.already_face_up": "Card #{placement} is already face up.",
    "warmaster.already_begun": "The battle has already begun.",
    "warmaster.cards_still_laid": "Cards are still being laid: it is <@{player}>'s turn. Every card "
    "that can be laid must be before the battle begins.",
    # the battle
    "warmaster.losses_before_battle": "Losses are recorded once the battle has begun (`/warmaster begin`).",
    "warmaster.unit_points": "A unit's points must be a positive whole number up to {maximum:,}.",
    "warmaster.not_losable": "Only units and characters are destroyed; players, armies, the table and "
    "terrain are not.",
    "warmaster.already_lost": "**{target}** is already recorded as lost.",
    "warmaster.battle_not_begun": "The battle has not begun yet; finish the card phase with "
    "`/warmaster begin` first.",
}


add_words(ENGLISH)  # here, so whatever imports the words has them
