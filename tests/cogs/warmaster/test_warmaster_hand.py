"""A Warmaster hand of any size shows every card to its owner within Discord's embed limits."""

from __future__ import annotations

import random

from bot.chat.limits import FIELD_VALUE
from bot.chat.render import embed
from cogs.warmaster.adapter import hand_embed
from rules.dice import Roller
from rules.warmaster import start
from rules.warmaster.cards import CardDef
from rules.warmaster.views import private_view
from tests.emulator.validation import validate_message

ALICE, BOB = 1001, 2002
WORDY = [
    CardDef(
        name=f"Tactic {n}",
        carrier="unit",
        cost=10,
        copies=1,
        effect="A long-winded effect that the players' society printed on the card, " * 3,
    )
    for n in range(1, 13)
]


def test_a_6500_point_hand_with_tactics_shows_every_card_in_fields_within_the_limits() -> None:
    state, _ = start("hand", [ALICE, BOB], [2000, 6500], Roller(random.Random(3)), first=ALICE, tactics=WORDY)
    view = private_view(state, BOB)
    assert len(view.hand) >= 10
    made = hand_embed(view)
    text = "\n".join(f.value for f in made.fields)
    assert sum(len(c.effect or "") for c in view.hand) > FIELD_VALUE  # too long for one field
    for held in view.hand:
        assert held.name in text, held.name
    assert all(len(f.value) <= FIELD_VALUE for f in made.fields)
    assert [f.name for f in made.fields][:2] == ["In your hand", "In your hand (continued)"]
    errors = validate_message({"embeds": [embed(made).to_dict()]}, file_count=0, editing=False)
    assert not errors, errors.summary()
