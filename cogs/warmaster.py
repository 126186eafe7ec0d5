"""/warmaster: the Players Society magic item and tactics cards, dealt and laid by the rules.

A thin adapter over rules/warmaster: options and answers become rules actions, events become
messages. Every component answers one of the game's questions (`rules.warmaster.questions`), made
into buttons and selects by `bot.questions`, so a click on a message the game has moved past is
refused as stale. Each hand goes to its owner as a secret DM with the questions only they answer (the
platform falls back to an "Open my secret prompt" button when DMs are closed); the channel only ever
sees what the table would see: a face-down card is "a face-down magic item card on Knights" until
its owner turns it up, and the questions both players answer (begin the battle, finish the game).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import discord
from discord import app_commands

from bot.app import MusterBot
from bot.checks import channel_id_of, guild_id_of, require_opponent
from bot.game_cog import GameCog
from bot.games import GameAdapter, PackSpec, SessionInfo
from bot.limits import FIELD_VALUE, fit
from bot.messages import Button, Embed, Outgoing, Reply, Select
from bot.questions import components
from bot.router import send_reply
from bot.table import AutoAnswer
from bot.text import add_words
from cogs.warmaster_text import (
    ENGLISH,
    card_line,
    describe_target,
    event_text,
    new_target_label,
    prompt_text,
    result_text,
    summary_lines,
)
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
from rules.warmaster.cards import deck_size
from rules.warmaster.models import (
    BattleBegun,
    CardPhaseComplete,
    CardsDrawn,
    GameFinished,
    HandDealt,
    HeldCard,
    TurnToLay,
)
from rules.warmaster.new_targets import decode_new_target, encode_new_target, new_target_offers, typed_target
from rules.warmaster.questions import BEGIN, FINISH, LAY, target_label
from rules.warmaster.targets import CharacterRole, Restriction, Side, TargetKind, UnitType
from rules.warmaster.views import PrivateView

add_words(ENGLISH)

SYSTEM = PROCEDURE.system
COLOUR = 0x2E4A7A
HOW_TO_PLAY = (
    "On your turn each card you can lay comes with its own buttons (in your DMs, or with "
    "`/warmaster hand`); or lay one with `/warmaster play card:<card> target:<name>` (for a new "
    "target, pick what it is from the target's list)."
)
MAX_ROWS = 5  # Discord's action rows in one message
ROW = 5  # buttons in one row
CHOICE_MAX = 100  # characters in an autocomplete choice's name and value
MAX_CHOICES = 25  # autocomplete choices Discord shows
# A public question is posted once, with the event that first asks it.
PUBLIC_ASKED_BY: dict[str, type[Event]] = {BEGIN: CardPhaseComplete, FINISH: BattleBegun}

KindOption = Literal["unit", "character", "terrain", "table", "player", "army"]
SideOption = Literal["mine", "enemy", "neutral"]
UnitTypeOption = Literal["infantry", "cavalry", "chariot", "monster", "artillery", "machine"]
RoleOption = Literal["general", "wizard", "runesmith", "hero"]


# ------------------------------------------------------------------ drawing


def _chunks(lines: list[str], limit: int = FIELD_VALUE) -> str:
    text = "\n".join(lines)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def add_lines(embed: Embed, name: str, lines: list[str], limit: int = FIELD_VALUE) -> None:
    """Every line in fields of at most `limit` characters (a long hand takes several fields, the
    later ones named "(continued)"), so each card stays visible to its owner."""
    chunk: list[str] = []
    title = name
    for line in (clip(line, limit) for line in lines):
        if chunk and len("\n".join([*chunk, line])) > limit:
            embed.add(title, "\n".join(chunk))
            chunk, title = [], f"{name} (continued)"
        chunk.append(line)
    if chunk:
        embed.add(title, "\n".join(chunk))


def hand_embed(view: PrivateView) -> Embed:
    embed = Embed(title="Your Warmaster cards", colour=COLOUR)
    status = f"Laid {view.laid} of {view.limit}."
    if view.your_turn:
        status += " **It is your turn to lay a card.**"
    embed.description = f"{status}\n{HOW_TO_PLAY}"
    add_lines(embed, "In your hand", [card_line(c) for c in view.hand] or ["(empty)"])
    if view.face_down:
        lines = [f"#{v.placement} **{v.card.name}** on {describe_target(v.target)}" for v in view.face_down]
        add_lines(embed, "Your face-down cards (turn one up with the buttons or /warmaster reveal)", lines)
    if not view.tactics_dealt:
        embed.footer = "No tactics deck is loaded on this server: only magic item cards were dealt."
    return embed


def private_questions(state: WarmasterState, player: int) -> tuple[list[Question], list[Question]]:
    """What only `player` answers now: one question per card they may lay, and the rest (pass,
    trade, turn a card up, record a loss)."""
    asked = [q for q in PROCEDURE.ask(state, player) if q.private]
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
        rows = len(selects) + len(more_selects) + -(-(len(buttons) + len(more_buttons)) // ROW)
        if rows > MAX_ROWS:
            continue
        buttons += more_buttons
        selects += more_selects
    return buttons, selects


def private_reply(state: WarmasterState, player: int) -> Reply:
    """The player's hand, with the components of their questions other than laying a card."""
    _lays, others = private_questions(state, player)
    buttons, selects = packed(others)
    return Reply(embeds=[hand_embed(private_view(state, player))], buttons=buttons, selects=selects)


def lay_prompts(state: WarmasterState, player: int) -> list[Reply]:
    """One message per card the player may lay now, with the targets it may go on.

    A card is a message of its own because its buttons name only the targets: shared with another
    card's, they would not say which card they lay.
    """
    lays, _others = private_questions(state, player)
    hand = {card.id: card for card in private_view(state, player).hand}
    prompts = []
    for question in lays:
        card = hand[str(question.params["card"])]
        buttons, selects = components(question)
        prompts.append(
            Reply(content=f"{card_line(card)}\n{question.text}"[:2000], buttons=buttons, selects=selects)
        )
    return prompts


def public_components(state: WarmasterState, events: Sequence[Event]) -> tuple[list[Button], list[Select]]:
    """The components of the questions both players answer, when this step first asks them."""
    buttons: list[Button] = []
    selects: list[Select] = []
    seen: set[str] = set()
    for player in state.players:
        for question in PROCEDURE.ask(state, player):
            asked_by = PUBLIC_ASKED_BY.get(question.topic)
            if question.private or question.step in seen or asked_by is None:
                continue
            if not any(isinstance(e, asked_by) for e in events):
                continue
            seen.add(question.step)
            more_buttons, more_selects = components(question)
            buttons += more_buttons
            selects += more_selects
    return buttons, selects


def board_embed(state: WarmasterState) -> Embed:
    """The running summary: every laid card as the table sees it, losses and VP."""
    targets = {v.target.key: v.target for v in known_targets(state)}
    embed = Embed(title="Warmaster cards", description=prompt_text(state), colour=COLOUR)
    for side in state.sides:
        lines = []
        for laid in state.laid:
            if laid.player != side.player:
                continue
            where = describe_target(targets[laid.target_key])
            if laid.face_up:
                lines.append(
                    f"#{laid.placement} **{laid.held.card.name}** ({laid.held.card.cost_text()}) on {where}"
                )
            else:
                lines.append(f"#{laid.placement} face-down {laid.held.deck.label} card on {where}")
        header = f"<@{side.player}>: laid {side.laid} of {side.limit}"
        embed.add(
            "First player" if side.player == state.first else "Second player",
            _chunks([header, *lines]),
            inline=False,
        )
    if state.losses:
        lost = [
            f"{describe_target(targets[loss.target_key])}: {loss.base_points} {loss.card_costs:+d} → "
            f"{loss.vp} VP to <@{loss.to_player}>"
            for loss in state.losses
        ]
        embed.add("Destroyed", _chunks(lost))
    if state.phase is not Phase.CARDS:
        embed.add(
            "Victory points" + ("" if state.phase is Phase.OVER else " so far"),
            _chunks(summary_lines(vp_summary(state))),
        )
    return embed


def dm_due(player: int, events: Sequence[Event]) -> bool:
    """Whether this step gives the player something new to do in secret: a hand (dealt or drawn),
    their turn to lay, or the battle's questions. Other steps answer the actor in their reply, and
    `/warmaster hand` always shows the questions as they stand."""
    return any(
        (isinstance(e, HandDealt | CardsDrawn) and e.private_to == player)
        or (isinstance(e, TurnToLay) and e.player == player)
        or isinstance(e, BattleBegun)
        for e in events
    )


def dm_heading(info: SessionInfo, events: Sequence[Event], player: int) -> str:
    drawn = [card.name for e in events if isinstance(e, CardsDrawn) for card in e.cards]
    if drawn:
        return f"Your Lucky Find! brought {', '.join(f'**{name}**' for name in drawn)}."
    if any(isinstance(e, HandDealt) for e in events):
        return f"Your Warmaster cards for the game in <#{info.channel_id}> (`{info.id}`). Keep them secret!"
    if any(isinstance(e, TurnToLay) and e.player == player for e in events):
        return f"Your turn to lay a card in <#{info.channel_id}> (`{info.id}`)."
    return (
        f"The battle in <#{info.channel_id}> has begun: record destroyed units and turn your cards "
        "face up here."
    )


class WarmasterAdapter(GameAdapter[WarmasterState]):
    answers_only_choices = False  # not yet on the shared table
    procedure = PROCEDURE
    title = "Warmaster"
    start_command = "/warmaster game"
    help = "`/warmaster game @opponent` deals hidden magic item and tactics hands and runs card play"
    # No pack of its own: the printed magic item deck, and no tactics (none was ever printed).
    pack = PackSpec(parse=parse_pack, shipped=builtin_pack)

    def render_step(
        self,
        info: SessionInfo,
        before: WarmasterState | None,
        after: WarmasterState,
        events: list[Event],
        auto: list[AutoAnswer] | None = None,
    ) -> list[Outgoing]:
        """Not yet on the shared table: every step posts in the game's channel."""
        return self.render(info, after, events)

    def render(self, info: SessionInfo, state: WarmasterState, events: list[Event]) -> list[Outgoing]:
        messages: list[Outgoing] = []
        for player in state.players:
            if state.finished or not dm_due(player, events):
                continue
            hand = private_reply(state, player)
            # One secret message per prompt: a player with closed DMs gets one "Open my secret
            # prompt" button, not one per card. The cards' own messages are dropped then, and
            # `/warmaster hand` shows them.
            messages.append(
                Outgoing(
                    to="dm",
                    user_id=player,
                    secret=True,
                    content=dm_heading(info, events, player),
                    embeds=hand.embeds,
                    buttons=hand.buttons,
                    selects=hand.selects,
                )
            )
            messages += [
                Outgoing(
                    to="dm", user_id=player, content=lay.content, buttons=lay.buttons, selects=lay.selects
                )
                for lay in lay_prompts(state, player)
            ]
        public = [text for text in (event_text(e) for e in events if e.private_to is None) if text]
        if public:
            turn = next((e.player for e in events if isinstance(e, TurnToLay)), None)
            buttons, selects = public_components(state, events)
            messages.append(
                Outgoing(
                    content=f"<@{turn}>" if turn else "",
                    embeds=[Embed(description=_chunks(public, 4000), colour=COLOUR)],
                    buttons=buttons,
                    selects=selects,
                )
            )
        messages.append(Outgoing(key="board", embeds=[board_embed(state)]))
        if any(isinstance(e, GameFinished) for e in events) and state.outcome is not None:
            messages.append(
                Outgoing(
                    embeds=[
                        Embed(title="Warmaster result", colour=COLOUR, description=result_text(state.outcome))
                    ]
                )
            )
        return messages

    def reply(self, info: SessionInfo, state: WarmasterState, events: list[Event], actor: int) -> Reply:
        # The actor's own private lines first (e.g. which card went face down), then what the table saw.
        shown = [
            e for e in events if e.private_to in (None, actor) and not isinstance(e, HandDealt | CardsDrawn)
        ]
        lines = [event_text(e) for e in sorted(shown, key=lambda e: e.private_to is None)]
        drawn = [e for e in events if isinstance(e, CardsDrawn) and e.private_to == actor]
        text = "\n".join(line for line in lines if line)[:1900] or "Done."
        if drawn:
            return Reply(content=text, embeds=private_reply(state, actor).embeds)
        if state.phase is Phase.BATTLE:
            # In the battle every loss moves the questions on: the actor gets them fresh here.
            _lays, others = private_questions(state, actor)
            buttons, selects = packed(others)
            return Reply(content=text, buttons=buttons, selects=selects)
        return Reply(content=text)

    def private_prompt(self, info: SessionInfo, state: WarmasterState, user_id: int) -> Reply | None:
        if user_id not in state.players:
            return None
        return private_reply(state, user_id)

    def summary(self, info: SessionInfo, state: WarmasterState) -> str:
        return prompt_text(state)[:200]


def deck_line(label: str, cards: list[CardDef] | None) -> str:
    if not cards:
        return f"{label}: none"
    return f"{label}: {len(cards)} cards ({deck_size(cards)} with copies)"


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
        app_commands.Choice(name=clip(new_target_label(new), CHOICE_MAX), value=value)
        for new, value in values
        if len(value) <= CHOICE_MAX
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
        result = await self.bot.sessions.open(
            guild_id=guild_id,
            channel_id=channel_id,
            organiser_id=caller,
            system=SYSTEM,
            build=lambda sid, roller: start(
                sid,
                players,
                [my_points, their_points],
                roller,
                first=first_id,
                magic=pack.magic,
                tactics=pack.tactics,
            ),
            title=f"Warmaster: <@{caller}> vs <@{opponent.id}>",
        )
        await interaction.response.send_message(
            f"Cards dealt (`{result.info.id}`): your hand is in your DMs, or behind `/warmaster hand`.",
            ephemeral=True,
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
        named = []
        for card in private_view(state, interaction.user.id).hand:
            if card.special == "lucky_find":
                continue
            cost = "no cost" if card.cost is None else f"{card.cost:+d}"
            named.append((f"{card.name} ({card.deck.label}, {cost}; {card.carrier})", card.id))
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
            taken = [d for d, held in (("magic", view.holds_magic), ("tactics", view.holds_tactics)) if held]
            if taken:
                label += f" (holds {' and '.join(taken)})"
            named.append((label, view.target.key))
        # What the name could be as a new target keeps its room after the known targets it matches.
        new = new_target_choices(state, me, chosen, current)
        return self.choices(named, current)[: max(0, MAX_CHOICES - len(new))] + new[:MAX_CHOICES]

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
                name=f"#{v.placement} {v.card.name} on {target_label(v.target, me)}"[:100], value=v.placement
            )
            for v in private_view(state, me).face_down
        ][:25]

    @app_commands.command(name="begin", description="End the card phase: the battle begins, no more cards")
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

    @app_commands.command(name="finish", description="End the game and score it from the destroyed units")
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
        magic = deck_line("Magic items", loaded.magic) if loaded.magic else "Magic items: the built-in deck"
        await interaction.response.send_message(
            **fit(
                content=f"Loaded {loaded.name or 'the pack'}. {deck_line('Tactics', loaded.tactics)}. "
                f"{magic}. New games deal from it.",
                ephemeral=True,
            )
        )

    @pack.command(name="show", description="Which decks new Warmaster games deal from here")
    async def pack_show(self, interaction: discord.Interaction[MusterBot]) -> None:
        pack = await self.server_pack(guild_id_of(interaction), channel_id_of(interaction))
        magic = pack.magic or list(builtin_magic_deck())
        lines = [deck_line("Magic items", magic), deck_line("Tactics", pack.tactics)]
        if not pack.tactics:
            lines.append(
                "Without a tactics deck, games deal magic item cards only; load one with "
                "`/warmaster pack load`."
            )
        await interaction.response.send_message(**fit(content="\n".join(lines), ephemeral=True))


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Warmaster(bot))
