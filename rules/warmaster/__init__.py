"""Warmaster: the Players Society magic item and tactics cards, dealt by army size and laid by the rules."""

from rules.confirmation import ConfirmPending
from rules.warmaster.actions import (
    BeginBattle,
    FinishGame,
    PassTurn,
    PlayCard,
    RecordLoss,
    RevealCard,
    TargetRef,
    TradeLuckyFind,
)
from rules.warmaster.battle import vp_summary
from rules.warmaster.cards import (
    CardDef,
    DeckKind,
    Pack,
    PackError,
    Special,
    builtin_magic_deck,
    builtin_pack,
    parse_pack,
)
from rules.warmaster.dealing import start
from rules.warmaster.hands import HandSize, hand_size, play_limits
from rules.warmaster.models import Phase, WarmasterState
from rules.warmaster.procedure import PROCEDURE, awaiting, parse_action, step
from rules.warmaster.targets import CharacterRole, Restriction, Side, Target, TargetKind, UnitType
from rules.warmaster.turns import legal_plays
from rules.warmaster.views import known_targets, playable_targets, private_view, prompt

__all__ = [
    "PROCEDURE",
    "BeginBattle",
    "CardDef",
    "CharacterRole",
    "ConfirmPending",
    "DeckKind",
    "FinishGame",
    "HandSize",
    "Pack",
    "PackError",
    "PassTurn",
    "Phase",
    "PlayCard",
    "RecordLoss",
    "Restriction",
    "RevealCard",
    "Side",
    "Special",
    "Target",
    "TargetKind",
    "TargetRef",
    "TradeLuckyFind",
    "UnitType",
    "WarmasterState",
    "awaiting",
    "builtin_magic_deck",
    "builtin_pack",
    "hand_size",
    "known_targets",
    "legal_plays",
    "parse_action",
    "parse_pack",
    "play_limits",
    "playable_targets",
    "private_view",
    "prompt",
    "start",
    "step",
    "vp_summary",
]
