"""The words of Kill Team's questions, in the language in force: each question of the rules by its
topic and params (`localise`), its message at the table (`question_text`) and a player's own secret
prompt (`private_reply`).

The rules word their questions in English and stay pure; a fixed title, text or button is
translated by its English (marked here, so the catalogue holds it), the names in them through
cogs/killteam/vocabulary.py.
"""

from __future__ import annotations

from bot.chat.limits import EMBED_DESCRIPTION
from bot.chat.messages import Embed, Reply
from bot.lang.i18n import Domain
from bot.play.questions import components
from bot.play.table import DONE_MARK
from cogs.killteam.vocabulary import COLOUR, map_group, map_label, reword, sealed_label, who
from rules.killteam import PROCEDURE, KillTeamState, private_view
from rules.killteam.state import BATTLE_READY_VP
from rules.killteam.views import (
    BATTLE_END,
    BATTLE_NOT_READY,
    BATTLE_READY,
    NO_FACTION,
    bid_contest,
)
from rules.session import Option, Question
from rules.text import clip

_ = Domain("killteam")

# Questions each player answers once with Done: their message says who is done already.
EACH_DONE = frozenset({"killteam.equipment", "killteam.barricades", "killteam.operatives"})


QUESTION_WORDS = frozenset(
    {
        _.mark("Game over"),
        _.mark("The battle is over."),
        _.mark("Attacker or defender"),
        _.mark("The roll-off winner chooses to attack or to defend."),
        _.mark("Veto: put forward two missions"),
        _.mark("The attacker puts forward two mission cards; the defender will pick one."),
        _.mark("Veto: pick the mission"),
        _.mark("The defender picks one of the two missions put forward."),
        _.mark("Veto: put forward three maps"),
        _.mark("The defender puts forward three map cards."),
        _.mark("Veto: discard a map"),
        _.mark("The attacker discards one of the three maps put forward."),
        _.mark("Veto: pick the map"),
        _.mark("The defender picks the map from the two that are left."),
        _.mark("Control: pick the mission"),
        _.mark("The winner of your last game picks a mission that was not used in it."),
        _.mark("Control: pick the map type"),
        _.mark("The winner of your last game picks a map type that was not used in it."),
        _.mark("Control: pick the map"),
        _.mark("The loser of your last game picks a map card of the chosen type."),
        _.mark("Defender: choose your drop zone"),
        _.mark("The defender picks a drop zone; the attacker has the other."),
        _.mark("Select your kill team"),
        _.mark(
            "Pick your operatives from your roster and show them to your opponent, then say which "
            "faction you play (for its Tac Ops). Each player gains 3 CP."
        ),
        _.mark("Tac Ops: choose in private"),
        _.mark("Each player picks their Tac Ops in private."),
        _.mark("Acquired Tac Ops: take one from the row"),
        _.mark(
            "Take one Tac Op from the public row; a card from the deck refills it. The attacker picks "
            "first, then you alternate until each has three."
        ),
        _.mark("Equipment"),
        _.mark(
            "Pick up to 10 points of your faction's equipment, give it to your operatives and show it "
            "to your opponent, then press Done."
        ),
        _.mark("Scouting: pick in secret"),
        _.mark("Each player secretly picks a scouting option; both are revealed together."),
        _.mark("Scouting: resolve"),
        _.mark("Carry out your scouting pick (the attacker first), then press Done."),
        _.mark("First initiative"),
        _.mark("The roll-off winner decides who has the initiative in the first turning point."),
        _.mark(
            "Play the turning point and record your VP as you score them; each player presses End "
            "turning point when it is over."
        ),
        _.mark(
            "Each player secretly bids some of their remaining tokens (0 is fine). The higher bid "
            "decides; a tie is cancelled and bid again, unless both bid 0, when a roll-off decides. "
            "Both bids are spent."
        ),
        _.mark("Bid won: choose the mission"),
        _.mark("The bid winner picks any mission card."),
        _.mark("Bid won: choose the map"),
        _.mark("The bid winner picks any map card."),
        _.mark("Bid won: attacker or defender"),
        _.mark("The bid winner decides who attacks."),
        _.mark("Bid won: first initiative"),
        _.mark("The bid winner decides who has the initiative in the first turning point."),
        _.mark("Bid won: choose the archetype"),
        _.mark("The bid winner picks the one archetype both players take their Tac Ops from."),
        _.mark("Bid won: take a Tac Op from the pair"),
        _.mark("The bid winner takes one of the two; the other player gets the other."),
        _.mark("Your scouting pick"),
        _.mark("Pick in secret; both picks are revealed together."),
        _.mark("Tac Ops: choose your archetype"),
        _.mark("Pick the archetype your Tac Ops come from (only you see it)."),
        _.mark("Tac Ops: build your deck of six"),
        _.mark("Pick six Tac Ops: up to three of your faction's, the rest from your archetype."),
        _.mark("Tac Ops: pick your three"),
        _.mark("Pick three Tac Ops: at most one of your faction's, the rest from your archetype."),
        _.mark("You drew these; keep one and discard the other."),
        _.mark("End the game now?"),
        _.mark(
            "Ending the game can't be undone; the higher total wins. The other player confirms, or the "
            "player who asked may confirm their own. Not yet withdraws the request and play goes on."
        ),
    }
)
"""Question titles and texts the rules word the same way every time (translated by their English)."""


def _buttons() -> dict[str, str]:
    """Option labels the rules word the same way every time."""
    return {
        "Attack": _.p("button", "Attack"),
        "Defend": _.p("button", "Defend"),
        "Take the initiative": _.p("button", "Take the initiative"),
        "Give it to my opponent": _.p("button", "Give it to my opponent"),
        "Done": _.p("button", "Done"),
        "Confirm": _.p("button", "Confirm"),
        "Not yet": _.p("button", "Not yet"),
        "Other (no faction Tac Ops)": _.p("button", "Other (no faction Tac Ops)"),
    }


WHY_NOT = (
    _.mark("You already hold {count} Tac Ops."),
    _.mark("You already hold {name}."),
    _.mark("{name} is a {faction} Tac Op, not one of your faction's."),
    _.mark("You may hold only one faction Tac Op."),
    _.mark(
        "Your Tac Ops so far are {mine}; all your archetype Tac Ops must come from one archetype, and "
        "{name} is {archetype}."
    ),
)
"""Why a Tac Op can't be taken (rules: hand.fits), on a disabled option."""


def why_not(text: str) -> str:
    return reword(text, WHY_NOT)


# ---------------------------------------------------------------------- questions


def _title_and_text(state: KillTeamState, asked: Question) -> tuple[str, str]:
    topic = asked.topic.removeprefix("killteam.")
    params = asked.params
    contest = bid_contest(state)
    if topic == "bid" and contest is not None:
        label = sealed_label(contest.label)
        left = params.get("tokens")
        if isinstance(left, int):  # a player's own prompt (the public question has no tokens)
            text = _.n(
                "You have {count} token. Bid 0 to {count}; only you see it until both have bid.",
                "You have {count} tokens. Bid 0 to {count}; only you see it until both have bid.",
                left,
            )
            return _("Your sealed bid: {label}", label=label), text
        return _("Sealed bid: {label}", label=label), _(asked.text)
    if topic == "barricades":
        return _("Barricades: {each} each", each=params.get("each")), _(
            "Set up your {each} barricades, taking turns with your opponent; the defender starts. Each "
            "goes near your drop zone. Press Done once all of yours are set up.",
            each=params.get("each"),
        )
    if topic == "operatives":
        return _("Operatives: {each} groups each", each=params.get("each")), _(
            "Set up your operatives in {each} groups, taking turns with your opponent; the defender "
            "starts. Each group goes wholly in your drop zone, each operative with an order. Press Done "
            "once all of yours are set up.",
            each=params.get("each"),
        )
    if topic == "battle":
        return _("Turning point {number}", number=params.get("turning_point")), _(asked.text)
    if topic == "tac_draft" and params.get("draft") == "draw":
        held = len(state.tac.held.get(asked.players[0], [])) if asked.players else 0
        return _("Tac Ops: keep one ({number} of 3)", number=held + 1), _(asked.text)
    return _(asked.title), _(asked.text)


def _option(state: KillTeamState, asked: Question, option: Option) -> Option:
    topic = asked.topic.removeprefix("killteam.")
    label, group, description = option.label, option.group, option.description
    tac_op = state.pack.tac_op(option.value)
    card = state.pack.map(option.value)
    if topic == "battle" and option.value == BATTLE_END:
        label = _.p("button", "End turning point {number}", number=asked.params.get("turning_point"))
    elif topic == "battle" and option.value == BATTLE_READY:
        label = _.p("button", "Battle Ready painted (+{vp})", vp=BATTLE_READY_VP)
    elif topic == "battle" and option.value == BATTLE_NOT_READY:
        label = _.p("button", "Not Battle Ready")
    elif topic == "drop_zone":
        label = _.p("button", "Drop zone {zone}", zone=option.value)
    elif topic == "control_map_type":
        label = map_group(option.value)
    elif topic == "faction" and option.value != NO_FACTION:
        ops = next((len(f.tac_ops) for f in state.pack.factions if f.name == option.label), 0)
        description = _.n("{count} faction Tac Op", "{count} faction Tac Ops", ops)
    elif tac_op is not None and (tac_op.id, tac_op.name) == (option.value, option.label):
        if tac_op.faction is not None:
            group = _("{faction} (faction)", faction=tac_op.faction)
        description = why_not(description) if description else description
    elif card is not None and (card.id, card.label) == (option.value, option.label):
        label, group = map_label(card.label), map_group(card.group or "")
    else:
        label = _buttons().get(label, label)
    if topic == "scouting" and description:
        description = _(description)
    return option.model_copy(update={"label": label, "group": group, "description": description})


def localise(state: KillTeamState, asked: Question) -> Question:
    """A question of the rules in the language in force: every step, value and key as asked."""
    title, text = _title_and_text(state, asked)
    options = [_option(state, asked, option) for option in asked.options]
    return asked.model_copy(update={"title": title, "text": text, "options": options})


# ---------------------------------------------------------------------- messages and prompts


def private_question(state: KillTeamState, player: int) -> Question | None:
    """`player`'s own secret question, answered in their DMs."""
    return next((asked for asked in PROCEDURE.ask(state, player) if asked.private), None)


def prompt_text(asked: Question) -> str:
    """A question's words (`asked` as shown, in the language in force)."""
    lines = [f"**{asked.title}**", asked.text]
    described = [
        f"• **{o.label}**: {o.description}" for o in asked.options if o.description and not o.disabled
    ]
    if asked.topic == "killteam.scouting" and described:
        lines += described
    return "\n".join(lines)


def question_text(state: KillTeamState, asked: Question) -> str:
    """A question's message: its words, and what the table needs besides (who asked to end the game,
    who is done with a step each player finishes once)."""
    lines = [prompt_text(asked)]
    if asked.topic == "killteam.end" and state.pending is not None:
        lines.append(_("{player} asked to end the game.", player=who(state.pending.by)))
    if asked.topic in EACH_DONE:
        done = [p for p in state.players if p not in asked.players]
        if done:
            lines.append(f"{DONE_MARK} " + _("Done: {players}", players=", ".join(who(p) for p in done)))
    return "\n".join(lines)


def private_reply(state: KillTeamState, user_id: int) -> Reply | None:
    """The player's own secret prompt (with its components) and their Tac Ops, in their language."""
    view = private_view(state, user_id)
    parts: list[str] = []
    if view.tac_ops:
        cards = ", ".join(
            _("{card} (revealed)", card=f"**{c.name}** ({c.archetype or c.faction})")
            if c.revealed
            else f"**{c.name}** ({c.archetype or c.faction})"
            for c in view.tac_ops
        )
        parts.append(_("Your Tac Ops: {cards}.", cards=cards))
    if view.sealed_choice is not None:
        parts.append(
            _("You have sealed: {choice}. It stays hidden until both have sealed.", choice=view.sealed_choice)
        )
    raw = private_question(state, user_id)
    asked = localise(state, raw) if raw is not None else None
    buttons, selects = components(asked) if asked is not None else ([], [])
    if asked is not None:
        parts.append(prompt_text(asked))
    if not parts:
        return None
    return Reply(
        embeds=[
            Embed(
                title=_.p("title", "Kill Team: only for you"),
                description=clip("\n\n".join(parts), EMBED_DESCRIPTION),
                colour=COLOUR,
            )
        ],
        buttons=buttons,
        selects=selects,
    )
