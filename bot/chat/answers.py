"""A message sent as the answer to the interaction that asked for it (a game's start card answering
`/<game> start`): one Discord call where a short answer and a post after it were two.

The message is stored in the outbox first, as every message is, with the interaction it answers
(`InteractionAnswer`). The command then answers with it (`answer_with`) and tells this process's
`Answers` what became of it; the outbox, sending the row, takes the answer's message instead of
posting one. A row whose answer is not known here (a restart, another process taking over the
lane, an answer whose outcome went unconfirmed: a 5xx, a lost connection, Discord's deadline) asks
Discord for the interaction's original response once Discord can no longer take it: found, that is
the message; not found, the answer never took and the row is posted like any other. An answer
Discord refused outright (a 4xx) showed nothing: its row is posted at once. So a crash between Discord
taking the answer and the outbox recording it never shows the message twice.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord.http import MultipartParameters
from discord.webhook.async_ import async_context

from bot.chat.kept import age_of
from bot.chat.limits import ANSWER_DEADLINE, ANSWER_LOOKUP_GRACE, INTERACTION_TOKEN_LIFETIME
from bot.chat.messages import InteractionAnswer, Outgoing
from bot.chat.render import to_discord

log = logging.getLogger(__name__)

ANSWER_FIELDS = ("content", "embeds", "view", "allowed_mentions")
"""What `to_discord` gives that a message sent as an interaction's answer takes (no nonce: an
interaction is answered once, so Discord refuses a second answer rather than showing it)."""
ANSWER_WAIT = 2 * ANSWER_DEADLINE + ANSWER_LOOKUP_GRACE
"""The longest an outbox row waits for an answer being given here (the game's write, then the
answer, each bounded) before it asks Discord instead."""
ALREADY_ANSWERED = 40060
"""Discord's refusal of an interaction's second answer: after a retried 5xx, the first try may have
been taken after all, so it says nothing certain about what was shown."""
NO_ANSWER = (401, 403, 404)
"""What Discord says to a look-up of an interaction's original response that has none (404), or that
it can no longer be asked for (a token past its time, 401): the message is posted."""
FORGOTTEN_AFTER = 60.0
"""An answer's outcome is kept this long for the outbox row that takes it (it is read within
moments; a row never stored, its game refused, leaves nothing behind)."""


@dataclass(frozen=True)
class Answered:
    """What became of an answer: its message, else whether Discord refused it outright (nothing was
    shown: the row is posted at once) or it went unconfirmed (Discord is asked, `message_of`)."""

    message_id: int | None = None
    refused: bool = False


def _refused(exc: discord.HTTPException) -> bool:
    """Whether Discord refused an answer outright, so that nothing was shown."""
    return 400 <= exc.status < 500 and exc.code != ALREADY_ANSWERED


class Answers:
    """What became of the answers this process is giving, by interaction id (`Answered`)."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self._given: dict[int, asyncio.Future[Answered]] = {}

    def expect(self, interaction_id: int) -> None:
        """An answer is about to be given: the outbox row taking it waits for it (`message_of`)."""
        loop = asyncio.get_running_loop()
        self._given[interaction_id] = loop.create_future()
        loop.call_later(FORGOTTEN_AFTER, self._given.pop, interaction_id, None)

    def answered(self, interaction_id: int, answered: Answered) -> None:
        """What became of the answer."""
        given = self._given.get(interaction_id)
        if given is not None and not given.done():
            given.set_result(answered)

    async def message_of(self, answer: InteractionAnswer) -> int | None:
        """The message the interaction was answered with; None: there is none, post the row."""
        given = self._given.get(answer.interaction_id)
        if given is not None:
            try:  # the command stores the game, then answers within the deadline
                async with asyncio.timeout(ANSWER_WAIT):
                    found = await asyncio.shield(given)
            except TimeoutError:
                found = Answered()
            if found.message_id is not None or found.refused:
                return found.message_id
        return await self._looked_up(answer)

    async def _looked_up(self, answer: InteractionAnswer) -> int | None:
        """The interaction's original response on Discord, asked once Discord can no longer take an
        answer, and only while its token works (a dead token's 401 counts against the bot)."""
        age = age_of(answer.interaction_id)
        if age >= INTERACTION_TOKEN_LIFETIME - ANSWER_DEADLINE:
            return None
        await asyncio.sleep(max(ANSWER_DEADLINE + ANSWER_LOOKUP_GRACE - age, 0.0))
        application_id = self.client.application_id
        assert application_id is not None
        # The route discord.py's own `Interaction.original_response` takes, with the client's session.
        webhook = discord.Webhook.partial(application_id, answer.token, client=self.client)
        try:
            data = await async_context.get().get_original_interaction_response(
                application_id, answer.token, session=webhook.session, proxy=webhook.proxy
            )
        except discord.HTTPException as exc:
            if exc.status not in NO_ANSWER:
                raise  # Discord failed to say: the outbox tries the row again later
            log.info("interaction %s has no answer on Discord (%s)", answer.interaction_id, exc.code)
            return None
        return int(data["id"])


async def answer_with(
    interaction: discord.Interaction[Any], session_id: str | None, message: Outgoing
) -> Answered:
    """Answer `interaction` with `message` (public), within Discord's deadline: its message, else
    whether Discord refused it or it went unconfirmed (the outbox then asks, `Answers.message_of`)."""
    kwargs = {k: v for k, v in to_discord(session_id, message).items() if k in ANSWER_FIELDS}
    kwargs = {k: v for k, v in kwargs.items() if v is not None}
    try:  # Discord's deadline has passed by then, counted from before the game was stored
        async with asyncio.timeout(ANSWER_DEADLINE):
            response = await interaction.response.send_message(**kwargs)
    except (TimeoutError, discord.HTTPException, aiohttp.ClientError) as exc:
        # Taken or not, Discord will say (`Answers.message_of`); the caller's game stands either way.
        log.warning("interaction %s: the answer with its message failed (%r)", interaction.id, exc)
        refused = isinstance(exc, discord.HTTPException) and _refused(exc)
        return Answered(refused=refused)
    resource = response.resource
    return Answered(resource.id if isinstance(resource, discord.InteractionMessage) else None)


async def update_clicked(interaction: discord.Interaction[Any], data: dict[str, Any]) -> None:
    """Answer a component's click by editing the message clicked to `data`, Discord's JSON for it
    (`render.message_json`): discord.py's own `edit_message`, less its embed and view objects,
    which a click would build only for discord.py to turn them back into this JSON. Raises as
    `edit_message` does (`discord.HTTPException`, `discord.InteractionResponded`)."""
    response = interaction.response
    if response.is_done():
        raise discord.InteractionResponded(interaction)
    kind = discord.InteractionResponseType.message_update
    params = MultipartParameters(payload={"type": kind.value, "data": data}, multipart=None, files=None)
    http = interaction._state.http
    await async_context.get().create_interaction_response(
        interaction.id,
        interaction.token,
        session=interaction._session,
        proxy=http.proxy,
        proxy_auth=http.proxy_auth,
        params=params,
    )
    response._response_type = kind  # is_done() from now on, as after discord.py's own answer
