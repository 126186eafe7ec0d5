"""How Kill Team's questions read at the table, in the language in force: a question's message
(`question_text`: its words, who asked to end the game, who is done already) and a player's own
secret prompt (`private_reply`).

The rules word each question once, in English (rules/killteam/prompts.py, private.py), and the bot
says it in the reader's language (`say`); what is added here is what needs the table: mentions.
"""

from __future__ import annotations

from bot.chat.limits import EMBED_DESCRIPTION
from bot.chat.messages import Embed, Reply
from bot.lang.i18n import Domain, say
from bot.play.questions import components
from bot.play.table import DONE_MARK
from cogs.killteam.vocabulary import COLOUR, who
from rules.killteam import PROCEDURE, KillTeamState, private_view
from rules.session import Question
from rules.text import clip

_ = Domain("killteam")

# Questions each player answers once with Done: their message says who is done already.
EACH_DONE = frozenset({"killteam.equipment", "killteam.barricades", "killteam.operatives"})


def private_question(state: KillTeamState, player: int) -> Question | None:
    """`player`'s own secret question, answered in their DMs."""
    return next((asked for asked in PROCEDURE.ask(state, player) if asked.private), None)


def prompt_text(asked: Question) -> str:
    """A question's words in the language in force (a scouting card's effect under its name)."""
    lines = [f"**{say(asked.title)}**", say(asked.text)]
    described = [
        f"• **{say(o.label)}**: {say(o.description)}"
        for o in asked.options
        if o.description and not o.disabled
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
    asked = private_question(state, user_id)
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
