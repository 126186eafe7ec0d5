"""/warmaster: the slash commands (the game, the card phase, the battle, the server's decks)
over the adapter (cogs/warmaster/adapter.py), with their autocomplete."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands

from bot.app import MusterBot
from bot.chat.checks import channel_id_of, guild_id_of, require_opponent
from bot.chat.limits import AUTOCOMPLETE_CHOICES, COMMAND_CHOICE_NAME, COMMAND_CHOICE_VALUE, fit
from bot.chat.router import send_reply
from bot.lang.i18n import Domain
from bot.play.game_cog import GameCog
from cogs.warmaster.adapter import WarmasterAdapter, deal, lay_prompts, private_reply
from cogs.warmaster.vocabulary import card_choice, new_target_label, target_label
from rules.errors import RuleError
from rules.text import clip
from rules.warmaster import (
    PROCEDURE,
    BeginBattle,
    CardDef,
    FinishGame,
    PassTurn,
    PlayCard,
    RecordLoss,
    RevealCard,
    TargetRef,
    TradeLuckyFind,
    WarmasterState,
    builtin_magic_deck,
    known_targets,
    parse_pack,
    private_view,
)
from rules.warmaster.cards import deck_size
from rules.warmaster.models import HeldCard
from rules.warmaster.new_targets import decode_new_target, encode_new_target, new_target_offers, typed_target
from rules.warmaster.targets import CharacterRole, Restriction, Side, TargetKind, UnitType

_ = Domain("warmaster")

SYSTEM = PROCEDURE.system

KindOption = Literal["unit", "character", "terrain", "table", "player", "army"]
SideOption = Literal["mine", "enemy", "neutral"]
UnitTypeOption = Literal["infantry", "cavalry", "chariot", "monster", "artillery", "machine"]
RoleOption = Literal["general", "wizard", "runesmith", "hero"]


def deck_line(label: str, cards: list[CardDef] | None) -> str:
    """A deck at a glance ('Tactics: 8 cards (8 with copies)'); `label` is already translated."""
    if not cards:
        return _("{deck}: none", deck=label)
    return _(
        "{deck}: {cards} cards ({copies} with copies)", deck=label, cards=len(cards), copies=deck_size(cards)
    )


def target_ref(
    state: WarmasterState,
    target: str,
    kind: str | None,
    side: str | None,
    unit_type: str | None = None,
    role: str | None = None,
    shoots: bool | None = None,
) -> TargetRef:
    """A known target picked from autocomplete (its key), else a typed name or a new-target choice,
    with the details given as options (they win over the choice's)."""
    if any(v.target.key == target for v in known_targets(state)):
        return TargetRef(key=target)
    return typed_target(
        target,
        kind=TargetKind(kind) if kind else None,
        side=Side(side) if side else None,
        unit_type=UnitType(unit_type) if unit_type else None,
        role=CharacterRole(role) if role else None,
        shooting=shoots,
    )


def new_target_choices(
    state: WarmasterState, player: int, chosen: HeldCard | None, typed: str
) -> list[app_commands.Choice[str]]:
    """The new targets the typed name may be for the chosen card (any card's, before one is
    chosen), each carrying its kind, side and details; a choice already picked is offered back."""
    try:
        picked = decode_new_target(typed)
    except RuleError:
        return []  # a broken choice is refused when the command runs, not here
    if picked is not None:
        offers = [picked]
    else:
        carrier = Restriction.ANY if chosen is None else chosen.card.carrier
        offers = [] if carrier is None else new_target_offers(state, player, carrier, typed)
    values = [(new, encode_new_target(new)) for new in offers]
    return [
        app_commands.Choice(name=clip(new_target_label(new), COMMAND_CHOICE_NAME), value=value)
        for new, value in values
        if len(value) <= COMMAND_CHOICE_VALUE
    ]


class Warmaster(
    GameCog[WarmasterState],
    group_name="warmaster",
    group_description="Warmaster magic item and tactics cards",
):
    adapter = WarmasterAdapter()

    # ------------------------------------------------------------ starting

    @app_commands.command(name="game", description="Deal Warmaster magic item and tactics cards for a game")
    @app_commands.describe(
        opponent="Who you are playing",
        my_points="Your army's points",
        their_points="Your opponent's army's points",
        first="Who has the first turn (default: a roll-off)",
    )
    @app_commands.guild_only()
    async def game(
        self,
        interaction: discord.Interaction[MusterBot],
        opponent: discord.User,
        my_points: int,
        their_points: int,
        first: discord.User | None = None,
    ) -> None:
        require_opponent(interaction, opponent)
        guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
        caller = interaction.user.id
        if first is not None and first.id not in (caller, opponent.id):
            raise RuleError(code="warmaster.first_not_player", player=first.id)
        await self.bot.sessions.refuse_second_game(guild_id, channel_id, SYSTEM, caller, opponent.id)
        pack = await self.server_pack(guild_id, channel_id)
        players = [caller, opponent.id]
        first_id = first.id if first else None
        await self.open_game(
            interaction,
            opponent,
            lambda sid, roller: deal(sid, players, [my_points, their_points], roller, pack, first_id),
        )

    # ------------------------------------------------------------ the card phase

    @app_commands.command(name="hand", description="Show your hand and your face-down cards (only to you)")
    async def hand(self, interaction: discord.Interaction[MusterBot]) -> None:
        info = await self.my_game(interaction)
        _info, state = await self.bot.sessions.load(info.id)
        user = interaction.user.id
        await send_reply(interaction, info.id, private_reply(state, user))
        for lay in lay_prompts(state, user):
            await send_reply(interaction, info.id, lay)

    @app_commands.command(name="play", description="Lay a card from your hand on a target (on your turn)")
    @app_commands.describe(
        card="A card from your hand",
        target="A target used before, or a new name (then pick what it is from the list)",
        kind="For a new target: what it is",
        side="For a new unit or character: yours or the enemy's",
        unit_type="For a new unit: its type",
        role="For a new character: General, Wizard, Runesmith or Hero",
        shoots="For a new unit or character: does it shoot?",
    )
    async def play(
        self,
        interaction: discord.Interaction[MusterBot],
        card: str,
        target: str,
        kind: KindOption | None = None,
        side: SideOption | None = None,
        unit_type: UnitTypeOption | None = None,
        role: RoleOption | None = None,
        shoots: bool | None = None,
    ) -> None:
        actor = interaction.user.id
        await self.act(
            interaction,
            lambda state: PlayCard(
                actor=actor,
                card=card,
                target=target_ref(state, target, kind, side, unit_type, role, shoots),
            ),
        )

    @play.autocomplete("card")
    async def card_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        state = await self.my_state(interaction)
        if state is None:
            return []
        named = [
            (card_choice(card), card.id)
            for card in private_view(state, interaction.user.id).hand
            if card.special != "lucky_find"
        ]
        return self.choices(named, current)

    @play.autocomplete("target")
    async def target_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        state = await self.my_state(interaction)
        if state is None:
            return []
        me = interaction.user.id
        chosen = next(
            (h for h in state.side(me).hand if h.id == getattr(interaction.namespace, "card", None)), None
        )
        named = []
        for view in known_targets(state):
            if view.lost:
                continue
            label = target_label(view.target, me)
            if chosen is not None:
                carrier = chosen.card.carrier
                full = view.holds_magic if chosen.deck.value == "magic" else view.holds_tactics
                if carrier is None or full or not carrier.allows(view.target):
                    continue
            if view.holds_magic and view.holds_tactics:
                label = _.p("option", "{target} (holds magic and tactics)", target=label)
            elif view.holds_magic:
                label = _.p("option", "{target} (holds magic)", target=label)
            elif view.holds_tactics:
                label = _.p("option", "{target} (holds tactics)", target=label)
            named.append((label, view.target.key))
        # What the name could be as a new target keeps its room after the known targets it matches.
        new = new_target_choices(state, me, chosen, current)
        return (
            self.choices(named, current)[: max(0, AUTOCOMPLETE_CHOICES - len(new))]
            + new[:AUTOCOMPLETE_CHOICES]
        )

    @app_commands.command(name="pass", description="Pass: no card you hold can be laid on any target")
    async def pass_turn(self, interaction: discord.Interaction[MusterBot]) -> None:
        await self.act(interaction, PassTurn(actor=interaction.user.id))

    @app_commands.command(name="lucky-find", description="Trade your Lucky Find! for two magic item cards")
    async def lucky_find(self, interaction: discord.Interaction[MusterBot]) -> None:
        await self.act(interaction, TradeLuckyFind(actor=interaction.user.id))

    @app_commands.command(name="reveal", description="Turn one of your face-down cards face up")
    @app_commands.describe(card="Your face-down card (by its number)")
    async def reveal(self, interaction: discord.Interaction[MusterBot], card: int) -> None:
        await self.act(interaction, RevealCard(actor=interaction.user.id, placement=card))

    @reveal.autocomplete("card")
    async def reveal_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: int | str
    ) -> list[app_commands.Choice[int]]:
        state = await self.my_state(interaction)
        if state is None:
            return []
        me = interaction.user.id
        return [
            app_commands.Choice(
                name=clip(
                    _.p(
                        "option",
                        "#{placement} {card} on {target}",
                        placement=v.placement,
                        card=v.card.name,
                        target=target_label(v.target, me),
                    ),
                    COMMAND_CHOICE_NAME,
                ),
                value=v.placement,
            )
            for v in private_view(state, me).face_down
        ][:AUTOCOMPLETE_CHOICES]

    @app_commands.command(
        name="begin",
        description="Ask to begin the battle (no more cards after it); it waits for a confirmation",
    )
    async def begin(self, interaction: discord.Interaction[MusterBot]) -> None:
        await self.act(interaction, BeginBattle(actor=interaction.user.id))

    # ------------------------------------------------------------ the battle

    @app_commands.command(name="lost", description="Record a destroyed unit or character and its points")
    @app_commands.describe(
        target="The unit or character (those named so far are suggested)",
        points="Its points value in the army list, before cards",
        side="For one not named before: yours or the enemy's",
        kind="For one not named before: unit or character",
    )
    async def lost(
        self,
        interaction: discord.Interaction[MusterBot],
        target: str,
        points: int,
        side: Literal["mine", "enemy"] | None = None,
        kind: Literal["unit", "character"] | None = None,
    ) -> None:
        actor = interaction.user.id
        new_kind = kind or ("unit" if side else None)
        await self.act(
            interaction,
            lambda state: RecordLoss(
                actor=actor, target=target_ref(state, target, new_kind, side), base_points=points
            ),
        )

    @lost.autocomplete("target")
    async def lost_autocomplete(
        self, interaction: discord.Interaction[MusterBot], current: str
    ) -> list[app_commands.Choice[str]]:
        state = await self.my_state(interaction)
        if state is None:
            return []
        me = interaction.user.id
        named = [
            (target_label(v.target, me), v.target.key)
            for v in known_targets(state)
            if v.target.kind in (TargetKind.UNIT, TargetKind.CHARACTER) and not v.lost
        ]
        return self.choices(named, current)

    @app_commands.command(
        name="finish", description="Ask to end the game and score it; it waits for a confirmation"
    )
    async def finish(self, interaction: discord.Interaction[MusterBot]) -> None:
        await self.act(interaction, FinishGame(actor=interaction.user.id))

    # ------------------------------------------------------------ decks as data

    pack = app_commands.Group(name="pack", description="This server's own Warmaster decks")

    @pack.command(
        name="load", description="Load this server's tactics (and magic item) cards (YAML; Manage Server)"
    )
    @app_commands.describe(file="A YAML file with a `tactics:` list (and optionally `magic:`)")
    async def pack_load(self, interaction: discord.Interaction[MusterBot], file: discord.Attachment) -> None:
        loaded = await self.bot.packs.load(interaction, SYSTEM, file, parse_pack)
        magic = (
            deck_line(_("Magic items"), loaded.magic) if loaded.magic else _("Magic items: the built-in deck")
        )
        tactics = deck_line(_("Tactics"), loaded.tactics)
        if loaded.name:
            said = _(
                "Loaded {name}. {tactics}. {magic}. New games deal from it.",
                name=loaded.name,
                tactics=tactics,
                magic=magic,
            )
        else:
            said = _(
                "Loaded the pack. {tactics}. {magic}. New games deal from it.", tactics=tactics, magic=magic
            )
        await interaction.response.send_message(**fit(content=said, ephemeral=True))

    @pack.command(name="show", description="Which decks new Warmaster games deal from here")
    async def pack_show(self, interaction: discord.Interaction[MusterBot]) -> None:
        pack = await self.server_pack(guild_id_of(interaction), channel_id_of(interaction))
        magic = pack.magic or list(builtin_magic_deck())
        lines = [deck_line(_("Magic items"), magic), deck_line(_("Tactics"), pack.tactics)]
        if not pack.tactics:
            lines.append(
                _(
                    "Without a tactics deck, games deal magic item cards only; load one with "
                    "`/warmaster pack load`."
                )
            )
        await interaction.response.send_message(**fit(content="\n".join(lines), ephemeral=True))
