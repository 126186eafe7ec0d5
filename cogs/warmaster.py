"""/warmaster: the Players Society magic item and tactics cards, dealt and laid by the rules.

A thin adapter over rules/warmaster, played at the shared table (bot/play/table.py): the game's thread
has one living board (every laid card as the table sees it, losses and VP) and one message that
asks both players to begin the battle and then to finish it; either step, pressed by one player,
waits there for the other's Confirm (or the presser's own) and Not yet takes it back. Everything
secret lives in each player's DMs, every message there edited as the game goes on rather than
posted again: their hand (key `hand.<player>`), one prompt per card they may lay (reopened on each
of their turns, and showing where it went once laid), a short "your turn" prompt per turn (the
notification; it says what they did once the turn is over), and their tools for trading, turning
cards up and recording losses. A face-down card is "a face-down magic item card on Knights" to
everyone but its owner until it is turned up. With DMs closed the platform posts an "Open my secret
prompt" button instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import discord
from discord import app_commands

from bot.app import MusterBot
from bot.chat.checks import channel_id_of, guild_id_of, require_opponent
from bot.chat.limits import (
    ACTION_ROWS,
    AUTOCOMPLETE_CHOICES,
    COMMAND_CHOICE_NAME,
    COMMAND_CHOICE_VALUE,
    CONTENT,
    FIELD_VALUE,
    ROW_BUTTONS,
    fit,
)
from bot.chat.messages import Button, Embed, Outgoing, Reply, Select
from bot.chat.router import send_reply
from bot.lang.i18n import Domain
from bot.play.game_cog import GameCog
from bot.play.games import SUMMARY, GameAdapter, PackSpec, SessionInfo
from bot.play.questions import components
from cogs.warmaster_asked import closed_text, localise, question_words, typed
from cogs.warmaster_text import (
    board_status,
    hand_status,
    notes_lines,
    prompt_text,
    public_line,
    reply_lines,
    side_header,
    summary_lines,
)
from cogs.warmaster_words import (
    card_choice,
    card_line,
    cost_text,
    deck_card,
    describe_target,
    new_target_label,
    target_label,
)
from rules.dice import Roller
from rules.errors import RuleError
from rules.session import Event, Question
from rules.text import clip
from rules.warmaster import (
    PROCEDURE,
    BeginBattle,
    CardDef,
    FinishGame,
    PassTurn,
    Phase,
    PlayCard,
    RecordLoss,
    RevealCard,
    TargetRef,
    TradeLuckyFind,
    WarmasterState,
    builtin_magic_deck,
    builtin_pack,
    known_targets,
    parse_pack,
    private_view,
    start,
    vp_summary,
)
from rules.warmaster.cards import Pack, deck_size
from rules.warmaster.models import (
    BattleBegun,
    CardLaidFaceDown,
    CardLaidFaceUp,
    CardRevealed,
    CardsDrawn,
    GameFinished,
    HandDealt,
    HeldCard,
    LuckyFindTraded,
    TurnPassed,
)
from rules.warmaster.new_targets import decode_new_target, encode_new_target, new_target_offers, typed_target
from rules.warmaster.questions import LAY
from rules.warmaster.targets import CharacterRole, Restriction, Side, TargetKind, UnitType
from rules.warmaster.views import PrivateView

_ = Domain("warmaster")

SYSTEM = PROCEDURE.system
QUICK_POINTS = 2000  # each army in a game opened without options (a night's pairing)
COLOUR = 0x2E4A7A
HOW_TO_PLAY = _.mark(
    "On your turn each card you can lay has its own message here with its targets (or see them "
    "with `/warmaster hand`); or lay one with `/warmaster play card:<card> target:<name>` (for a "
    "new target, pick what it is from the target's list)."
)
HAND_KEY = "hand"

KindOption = Literal["unit", "character", "terrain", "table", "player", "army"]
SideOption = Literal["mine", "enemy", "neutral"]
UnitTypeOption = Literal["infantry", "cavalry", "chariot", "monster", "artillery", "machine"]
RoleOption = Literal["general", "wizard", "runesmith", "hero"]


# ------------------------------------------------------------------ drawing


def add_lines(embed: Embed, name: str, lines: list[str], limit: int = FIELD_VALUE) -> None:
    """Every line in fields of at most `limit` characters (a long hand takes several fields, the
    later ones named "(continued)"), so each card stays visible to its owner."""
    chunk: list[str] = []
    title = name
    for line in (clip(line, limit) for line in lines):
        if chunk and len("\n".join([*chunk, line])) > limit:
            embed.add(title, "\n".join(chunk))
            chunk, title = [], _.p("field", "{name} (continued)", name=name)
        chunk.append(line)
    if chunk:
        embed.add(title, "\n".join(chunk))


def hand_embed(view: PrivateView, status: str | None = None) -> Embed:
    """A player's hand and face-down cards; `status` says where they stand (else their turn, if it is)."""
    embed = Embed(title=_.p("title", "Your Warmaster cards"), colour=COLOUR)
    if status is None:
        values = {"laid": view.laid, "limit": view.limit}
        if view.your_turn:
            status = _("Laid {laid} of {limit}. **It is your turn to lay a card.**", **values)
        else:
            status = _("Laid {laid} of {limit}.", **values)
    embed.description = f"{status}\n{_(HOW_TO_PLAY)}"
    add_lines(embed, _.p("field", "In your hand"), [card_line(c) for c in view.hand] or [_("(empty)")])
    if view.face_down:
        lines = [
            _(
                "#{placement} **{card}** on {target}",
                placement=v.placement,
                card=v.card.name,
                target=describe_target(v.target),
            )
            for v in view.face_down
        ]
        name = _.p("field", "Your face-down cards (turn one up with the buttons or /warmaster reveal)")
        add_lines(embed, name, lines)
    if not view.tactics_dealt:
        embed.footer = _("No tactics deck is loaded on this server: only magic item cards were dealt.")
    return embed


def private_questions(state: WarmasterState, player: int) -> tuple[list[Question], list[Question]]:
    """What only `player` answers now, as shown: one question per card they may lay, and the rest
    (pass, trade, turn a card up, record a loss)."""
    asked = [localise(state, q) for q in PROCEDURE.ask(state, player) if q.private]
    return [q for q in asked if q.topic == LAY], [q for q in asked if q.topic != LAY]


def packed(questions: list[Question]) -> tuple[list[Button], list[Select]]:
    """The components of as many questions as one message holds, in the order asked.

    Each select takes a row and the buttons fill rows of five; the pass, trade, reveal and loss
    questions label their buttons with what they do, so they can share rows.
    """
    buttons: list[Button] = []
    selects: list[Select] = []
    for question in questions:
        more_buttons, more_selects = components(question)
        rows = len(selects) + len(more_selects) + -(-(len(buttons) + len(more_buttons)) // ROW_BUTTONS)
        if rows > ACTION_ROWS:
            continue
        buttons += more_buttons
        selects += more_selects
    return buttons, selects


def private_reply(state: WarmasterState, player: int) -> Reply:
    """The player's hand, with the components of their questions other than laying a card (for
    `/warmaster hand` and the closed-DM button: answered there and then, never left in a DM)."""
    _lays, others = private_questions(state, player)
    buttons, selects = packed(others)
    return Reply(embeds=[hand_embed(private_view(state, player))], buttons=buttons, selects=selects)


def lay_prompts(state: WarmasterState, player: int) -> list[Reply]:
    """One message per card the player may lay now, with the targets it may go on.

    A card is a message of its own because its buttons name only the targets: shared with another
    card's, they would not say which card they lay.
    """
    lays, _others = private_questions(state, player)
    prompts = []
    for question in lays:
        buttons, selects = components(question)
        prompts.append(
            Reply(content=clip(question_words(state, question), CONTENT), buttons=buttons, selects=selects)
        )
    return prompts


def board_embed(state: WarmasterState) -> Embed:
    """The living board: where the game stands, each side's army and laid cards as the table sees
    them (a face-down card by its deck only), what was destroyed, and the victory points."""
    targets = {v.target.key: v.target for v in known_targets(state)}
    embed = Embed(title="Warmaster", description=board_status(state), colour=COLOUR)
    for side in state.sides:
        lines = [side_header(state, side)]
        for laid in state.laid:
            if laid.player != side.player:
                continue
            where = describe_target(targets[laid.target_key])
            if laid.face_up:
                printed = laid.held.card
                lines.append(
                    _(
                        "#{placement} **{card}** ({cost}) on {target}",
                        placement=laid.placement,
                        card=printed.name,
                        cost=cost_text(printed.cost),
                        target=where,
                    )
                )
            else:
                deck = deck_card(laid.held.deck)
                lines.append(
                    _(
                        "#{placement} face-down {card} on {target}",
                        placement=laid.placement,
                        card=deck,
                        target=where,
                    )
                )
        first = side.player == state.first
        add_lines(embed, _.p("field", "First player") if first else _.p("field", "Second player"), lines)
    notes = notes_lines(state)
    if notes:
        add_lines(embed, _.p("field", "Notes"), notes)
    if state.losses:
        lost = [
            _(
                "{target}: {points} {costs:+d} → {vp} VP to {player}",
                target=describe_target(targets[loss.target_key]),
                points=loss.base_points,
                costs=loss.card_costs,
                vp=loss.vp,
                player=f"<@{loss.to_player}>",
            )
            for loss in state.losses
        ]
        add_lines(embed, _.p("field", "Destroyed"), lost)
    if state.phase is not Phase.CARDS:
        over = state.phase is Phase.OVER
        name = _.p("field", "Victory points") if over else _.p("field", "Victory points so far")
        add_lines(embed, name, summary_lines(vp_summary(state)))
    return embed


def touches_hand(player: int, events: list[Event]) -> bool:
    """Whether a step changed what the player's hand message shows: their cards, what they laid or
    turned up, whether they are still laying, or the phase."""
    return any(
        (isinstance(e, CardsDrawn | LuckyFindTraded | TurnPassed) and e.player == player)
        or (isinstance(e, CardLaidFaceUp | CardLaidFaceDown | CardRevealed) and e.player == player)
        or isinstance(e, BattleBegun | GameFinished)
        for e in events
    )


def hand_messages(info: SessionInfo, state: WarmasterState, events: list[Event]) -> list[Outgoing]:
    """Each player's hand as one DM, posted when dealt and edited whenever it changes.

    With DMs closed, the table gets one "Open my secret prompt" button per player at the deal (it
    shows the hand): the hand's own when the player is asked nothing yet, else their first prompt's.
    """
    messages = []
    for player in state.players:
        dealt = any(isinstance(e, HandDealt) and e.player == player for e in events)
        if not (dealt or touches_hand(player, events)):
            continue
        prompted = any(q.private for q in PROCEDURE.ask(state, player))
        messages.append(
            Outgoing(
                to="dm",
                user_id=player,
                key=f"{HAND_KEY}.{player}",
                secret=dealt and not prompted,
                edit_only=not dealt,
                content=_(
                    "Your Warmaster cards for the game in {table} ({id}). Keep them secret!",
                    table=f"<#{info.table_id}>",
                    id=f"`{info.id}`",
                ),
                embeds=[hand_embed(private_view(state, player), hand_status(state, player))],
            )
        )
    return messages


def deal(
    session_id: str,
    players: Sequence[int],
    points: Sequence[int],
    roller: Roller,
    pack: Pack | None,
    first: int | None = None,
) -> tuple[WarmasterState, list[Event]]:
    """A game dealt from the server's decks (`/warmaster game`, and a night's pairing)."""
    pack = pack or builtin_pack()
    return start(session_id, players, points, roller, first=first, magic=pack.magic, tactics=pack.tactics)


class WarmasterAdapter(GameAdapter[WarmasterState]):
    procedure = PROCEDURE
    title = "Warmaster"
    start_command = "/warmaster game"
    domain = "warmaster"
    help = _.mark("`/warmaster game @opponent` deals hidden magic item and tactics hands and runs card play")
    # No pack of its own: the printed magic item deck, and no tactics (none was ever printed).
    pack = PackSpec(parse=parse_pack, shipped=builtin_pack)
    colour = COLOUR

    def quick_start(
        self,
        session_id: str,
        players: Sequence[int],
        roller: Roller,
        pack: Pack | None,
        names: Mapping[int, str] | None = None,
    ) -> tuple[WarmasterState, list[Event]]:
        """A club night's game: 2,000 points a side, the first turn to a roll-off."""
        return deal(session_id, players, [QUICK_POINTS, QUICK_POINTS], roller, pack)

    def localise(self, state: WarmasterState, asked: Question) -> Question:
        return localise(state, asked)

    def typed(self, state: WarmasterState, asked: Question, fields: dict[str, str]) -> dict[str, str]:
        return typed(state, asked, fields)

    def board(self, info: SessionInfo, state: WarmasterState) -> Embed:
        return board_embed(state)

    def lines(self, info: SessionInfo, state: WarmasterState, events: list[Event]) -> list[str]:
        return [line for e in events if e.private_to is None and (line := public_line(e))]

    def moments(self, info: SessionInfo, state: WarmasterState, events: list[Event]) -> list[Outgoing]:
        """Nothing of its own in the thread (the board shows every card laid or turned up); each
        player's hand in their DMs."""
        return hand_messages(info, state, events)

    def private_lines(
        self, info: SessionInfo, state: WarmasterState, player: int, events: list[Event]
    ) -> list[str]:
        """Nothing posted apart: what a player did in secret is said where they did it (the card's
        prompt, their turn's prompt) and their hand message shows the rest."""
        return []

    def question_text(self, state: WarmasterState, asked: Question) -> str:
        return question_words(state, asked)

    def answered_privately(
        self, info: SessionInfo, state: WarmasterState, player: int, asked: Question, events: list[Event]
    ) -> str | None:
        return closed_text(state, player, asked, events)

    def reply(self, info: SessionInfo, state: WarmasterState, events: list[Event], actor: int) -> Reply:
        return Reply(content=clip("\n".join(reply_lines(state, events, actor)), CONTENT))

    def private_prompt(self, info: SessionInfo, state: WarmasterState, user_id: int) -> Reply | None:
        if user_id not in state.players:
            return None
        return private_reply(state, user_id)

    def outcome_summary(self, state: WarmasterState) -> str:
        if state.outcome is None:
            return ""
        first, second = (side.score for side in state.outcome.sides)
        if state.outcome.winner is None:
            return _("{first} VP to {second} VP, a draw", first=first, second=second)
        return _("{first} VP to {second} VP", first=first, second=second)

    def summary(self, info: SessionInfo, state: WarmasterState) -> str:
        return clip(prompt_text(state), SUMMARY)


def deck_line(label: str, cards: list[CardDef] | None) -> str:
    """A deck at a glance ('Tactics: 8 cards (8 with copies)'); `label` is already translated."""
    if not cards:
        return _("{deck}: none", deck=label)
    return _(
        "{deck}: {cards} cards ({copies} with copies)", deck=label, cards=len(cards), copies=deck_size(cards)
    )


# ------------------------------------------------------------------ the cog


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


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Warmaster(bot))
