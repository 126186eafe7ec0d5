"""A message sent as an interaction's answer (bot/chat/answers.py): the outbox row takes the answer
told by this process, and never asks Discord with a token past its time (a 401 counts against the
bot's address). Asking Discord, found or not, is tested end to end in tests/e2e/test_tables.py."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

import discord

from bot.chat.answers import Answered, Answers
from bot.chat.limits import INTERACTION_TOKEN_LIFETIME
from bot.chat.messages import InteractionAnswer
from bot.db.models import utcnow


def _client() -> discord.Client:
    return discord.Client(intents=discord.Intents.none())  # never connected: any request would fail


def _interaction(age: float) -> int:
    return discord.utils.time_snowflake(utcnow() - timedelta(seconds=age))


async def test_the_row_takes_the_answer_given_here_without_asking_discord() -> None:
    answers = Answers(_client())
    interaction = _interaction(0)
    answers.expect(interaction)
    given = InteractionAnswer(interaction_id=interaction, token="t")
    waiting = asyncio.ensure_future(answers.message_of(given))
    await asyncio.sleep(0.01)
    assert not waiting.done()  # the answer is still being given: the row waits for it
    answers.answered(interaction, Answered(42))
    assert await asyncio.wait_for(waiting, 1) == 42


async def test_a_token_past_its_time_is_not_used_the_row_is_posted() -> None:
    answers = Answers(_client())
    old = InteractionAnswer(interaction_id=_interaction(INTERACTION_TOKEN_LIFETIME + 60), token="t")
    started = time.monotonic()
    assert await answers.message_of(old) is None
    assert time.monotonic() - started < 0.5  # not waited for, not asked


async def test_an_answer_discord_refused_is_posted_at_once_without_asking() -> None:
    answers = Answers(_client())
    interaction = _interaction(0)
    answers.expect(interaction)
    answers.answered(interaction, Answered(refused=True))
    started = time.monotonic()
    assert await answers.message_of(InteractionAnswer(interaction_id=interaction, token="t")) is None
    assert time.monotonic() - started < 0.5  # nothing shown, so nothing to look for
