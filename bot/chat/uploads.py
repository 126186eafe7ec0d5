"""Files the outbox sends with a message, rendered when the message is sent.

An outbox row names its file (`Upload`: a kind, a reference, a file name) instead of carrying its
bytes: rows stay small, and a resend after a crash renders the same file again from the store (the
nonce makes Discord answer a repeat with the message it already made, so one message is posted).
A feature registers the renderer of its kind when it loads, before the outbox starts sending; the
renderer reads what it needs from the store and draws in the language in force (the message's).
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable

import discord

from bot.chat.messages import Upload

log = logging.getLogger(__name__)

Renderer = Callable[[str], Awaitable[bytes | None]]
"""A kind's renderer: the file's bytes for a reference (None: there is nothing to render now)."""


class Uploads:
    """The renderers of the kinds of file the outbox can send, by kind."""

    def __init__(self) -> None:
        self._renderers: dict[str, Renderer] = {}

    def register(self, kind: str, renderer: Renderer) -> None:
        self._renderers[kind] = renderer

    async def file(self, upload: Upload) -> discord.File | None:
        """The file to send, rendered now. None (the message goes without it, logged) when no
        renderer is registered for its kind or it has nothing to render: a message owed is never
        held back for ever by its picture."""
        renderer = self._renderers.get(upload.kind)
        if renderer is None:
            log.warning("no renderer for uploads of kind %r; sent without the file", upload.kind)
            return None
        data = await renderer(upload.ref)
        if data is None:
            log.info("nothing to render for %s %s; sent without the file", upload.kind, upload.ref)
            return None
        return discord.File(io.BytesIO(data), filename=upload.filename)
