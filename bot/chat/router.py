"""Routes component clicks and form submits to the game session they belong to.

A question's click (bot/chat/custom_ids.py) becomes a `rules.session.Answer` that the session service
checks against what the game asks now and steps with, in one path for every game.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from typing import TYPE_CHECKING, Any

import discord

from bot.chat import custom_ids, errors, render
from bot.chat.limits import ANSWER_DEADLINE, EMBED_DESCRIPTION
from bot.chat.messages import Embed, Reply
from bot.lang.i18n import Domain, say
from bot.play import questions
from bot.play.games import GameAdapter, SessionInfo
from bot.play.in_place import Redraw, answer_in_place, pick_in_place, redraw_clicked
from bot.play.sessions import SessionClosed, SessionNotFound, StepResult
from rules.errors import RuleError
from rules.text import clip

if TYPE_CHECKING:
    from bot.app import MusterBot

_ = Domain("muster")
log = logging.getLogger(__name__)
OLD_MODAL = r"m:(?P<sid>[0-9a-f]{12}):[A-Za-z0-9_\-]{1,40}:[^:]{0,40}"


async def send_reply(interaction: discord.Interaction[Any], session_id: str | None, reply: Reply) -> None:
    kwargs = render.to_discord(session_id, reply)
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=reply.ephemeral, **kwargs)
    else:
        await interaction.response.send_message(ephemeral=reply.ephemeral, **kwargs)


async def _players_game(interaction: discord.Interaction[Any], sid: str) -> tuple[SessionInfo, Any]:
    """The open session `sid` as stored now, if the one clicking plays in it (else a polite refusal)."""
    bot: MusterBot = interaction.client  # type: ignore[assignment]
    return _players(interaction, await bot.sessions.load(sid))


def _players(interaction: discord.Interaction[Any], game: tuple[SessionInfo, Any]) -> tuple[SessionInfo, Any]:
    """The game, if the one clicking may act in it; else the refusal they may hear.

    A game's id is in every one of its buttons, so a form or click naming it can be forged by
    anyone. Someone who doesn't play, acting from outside the game's server (another server, a
    DM), is answered exactly as for an id that names no game: they learn neither who plays nor
    that the game exists. A member of the server at the table is told whose game it is."""
    info = game[0]
    if interaction.user.id not in info.players and interaction.guild_id != info.guild_id:
        raise SessionNotFound()
    if interaction.guild_id is not None and interaction.guild_id != info.guild_id:
        raise RuleError(code="session.other_server")
    if info.status != "open":
        raise SessionClosed(info.status)
    if interaction.user.id not in info.players:
        first, second = info.players
        raise RuleError(code="session.not_player", first=first, second=second)
    return game


async def on_question(
    interaction: discord.Interaction[Any],
    sid: str,
    step: str,
    values: list[str],
    opens_form: bool | None,
    fields: dict[str, str] | None = None,
) -> None:
    """A click on a question's component (`opens_form` None: a select, whose pick may need a form).

    An answer is judged first on this process's copy of the game without asking the store: taken,
    it is stored only if the stored version is still that copy's (else it is judged again on the
    stored state); refused, it is judged again on the stored state before the player is told no.
    So a cache never decides, and the usual click costs one round trip to the store, not two."""
    bot: MusterBot = interaction.client  # type: ignore[assignment]
    try:
        cached = bot.sessions.cached(sid)
        if cached is not None:
            try:
                game = _players(interaction, cached)
                if await _answer(interaction, game, step, values, opens_form, fields):
                    return
            except (RuleError, SessionClosed):
                pass  # perhaps only stale here: the stored game decides the refusal
        game = await _players_game(interaction, sid)
        await _answer(interaction, game, step, values, opens_form, fields, checked=True)
    except Exception as exc:
        await errors.report(interaction, exc)


async def _answer(
    interaction: discord.Interaction[Any],
    game: tuple[SessionInfo, Any],
    step: str,
    values: list[str],
    opens_form: bool | None,
    fields: dict[str, str] | None,
    checked: bool = False,
) -> bool:
    """Answer the question (or open its form); False when a form would open on an unchecked copy."""
    bot: MusterBot = interaction.client  # type: ignore[assignment]
    info, state = game
    sid, user = info.id, interaction.user.id
    adapter = bot.games.get(info.system)
    procedure = adapter.procedure
    question = questions.asked(procedure.ask(state, user), step)
    wants_form = opens_form
    if opens_form is None:  # a select: a single pick with a form opens it
        option = question.option(values[0]) if question and len(values) == 1 else None
        wants_form = bool(option and option.form)
    if wants_form and fields is None:
        if not checked:
            return False  # a form is shown only for what the stored game asks
        if question is None:  # moved on: refused as an answer to it would be, opening no form
            procedure.action_for(state, questions.answer(user, None, step, values))
            raise RuleError(code="answer.not_asked")
        spec = questions.form(question, values[0])
        if spec is None:
            raise RuleError(code="answer.not_offered")
        custom_id = custom_ids.modal(sid, step, values[0])
        await interaction.response.send_modal(render.modal(custom_id, spec))
        return True
    if fields is not None and question is not None:
        fields = adapter.typed(state, question, fields)
    answer = questions.answer(user, question, step, values, fields, nonce=secrets.token_hex(16))
    redraws: list[Redraw] = []

    async def redraw(step: StepResult) -> None:  # the clicked message, drawn while the step is written
        redraws.append(await redraw_clicked(interaction, step))

    result = await bot.sessions.answer(sid, answer, deliver=False, known=game, while_storing=redraw)
    assert result is not None  # a checked answer always makes an action
    # The player's own answer goes out before what the step caused is posted for everyone: the
    # message they clicked redrawn (bot/play/in_place.py), else an ephemeral answer. An answer held
    # past Discord's deadline (a long 429 discord.py would sleep out) can only fail: the step's
    # messages don't wait for it.
    shown = None
    try:
        async with asyncio.timeout(ANSWER_DEADLINE):
            shown = await answer_in_place(interaction, result, redraws[-1] if redraws else None)
            if shown is None:
                await send_reply(
                    interaction, sid, adapter.reply(result.info, result.state, result.events, user)
                )
    except TimeoutError:
        log.warning("game %s: a click's answer was held past Discord's deadline; dropped", sid)
    finally:
        await bot.sessions.rendered(result, shown)
    return True


async def on_pick(interaction: discord.Interaction[Any], sid: str, values: list[str]) -> None:
    """A question picked from a menu of them (bot/play/prompts.py), as the stored game asks it now
    (a stale pick is refused as stale): shown, with its words and its components, on the DM prompt
    picked from (bot/play/in_place.py), else to the player alone."""
    bot: MusterBot = interaction.client  # type: ignore[assignment]
    try:
        info, state = await _players_game(interaction, sid)
        adapter = bot.games.get(info.system)
        asked = adapter.procedure.ask(state, interaction.user.id)
        question = questions.asked(asked, values[0]) if values else None
        if question is None:  # moved on: refused as an answer to it would be
            raise (
                RuleError(code="answer.stale", now=asked[0].title)
                if asked
                else RuleError(code="answer.not_asked")
            )
        if await pick_in_place(interaction, info, state, question):
            return
        buttons, selects = questions.components(question)
        words = Embed(description=clip(adapter.question_text(state, question), EMBED_DESCRIPTION))
        await send_reply(interaction, sid, Reply(embeds=[words], buttons=buttons, selects=selects))
    except Exception as exc:
        await errors.report(interaction, exc)


async def on_old_component(interaction: discord.Interaction[Any], sid: str) -> None:
    """A component posted before every question carried its step id (`s:`, `sm:`, `ss:`, `m:`): it
    can't say what it answered, so the player gets what the game asks them now, ready to answer."""
    bot: MusterBot = interaction.client  # type: ignore[assignment]
    try:
        info, state = await _players_game(interaction, sid)
        adapter = bot.games.get(info.system)
        reply = current_questions(adapter, state, interaction.user.id)
        if reply is None:
            reply = adapter.private_prompt(info, state, interaction.user.id) or Reply(
                content=_("That button is from an older message, and the game isn't asking you anything now.")
            )
        await send_reply(interaction, sid, reply)
    except Exception as exc:
        await errors.report(interaction, exc)


def current_questions(adapter: GameAdapter[Any], state: Any, user: int) -> Reply | None:
    """What `user` is asked now as one ephemeral reply (as many questions as one message holds)."""
    asked = adapter.procedure.ask(state, user)
    if not asked:
        return None
    lines, buttons, selects = [_("That button is from an older message. The game asks you now:")], [], []
    rows = 0
    for raw in asked:
        question = raw
        more_buttons, more_selects = questions.components(question)
        needed = len(more_selects) + -(-len(more_buttons) // 5)
        if rows + needed > 5:
            break
        rows += needed
        lines.append(f"- **{say(question.title)}**")
        buttons.extend(more_buttons)
        selects.extend(more_selects)
    return Reply(content="\n".join(lines), buttons=buttons, selects=selects)


async def on_prompt_button(interaction: discord.Interaction[Any], sid: str, user_id: int) -> None:
    bot: MusterBot = interaction.client  # type: ignore[assignment]
    try:
        if interaction.user.id != user_id:
            raise RuleError(code="session.prompt_of_other", player=user_id)
        info, state = await bot.sessions.load(sid)
        if info.status != "open":
            raise SessionClosed(info.status)
        reply = bot.games.get(info.system).private_prompt(info, state, user_id)
        await send_reply(interaction, sid, reply or Reply(content=_("Nothing is waiting for you right now.")))
    except Exception as exc:
        await errors.report(interaction, exc)


def _submitted_values(components: list[Any]) -> dict[str, str]:
    """Field values from a modal submit, whatever the nesting (action rows or labels)."""
    values: dict[str, str] = {}
    for component in components:
        if not isinstance(component, dict):
            continue
        if "custom_id" in component and "value" in component:
            values[str(component["custom_id"])] = str(component["value"] or "")
        values.update(_submitted_values(component.get("components", [])))
        if isinstance(component.get("component"), dict):
            values.update(_submitted_values([component["component"]]))
    return values


async def on_modal_submit(interaction: discord.Interaction[Any]) -> bool:
    """Route a session form's submit; False if the form is not one of ours."""
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    custom_id = str(data.get("custom_id", ""))
    values = _submitted_values(list(data.get("components", [])))
    asked = custom_ids.parse_modal(custom_id)
    if asked is not None:
        await on_question(interaction, asked.session_id, asked.step, [asked.value], True, values)
        return True
    old = re.fullmatch(OLD_MODAL, custom_id)
    if old is None:
        return False
    await on_old_component(interaction, old["sid"])
    return True
