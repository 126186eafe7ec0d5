"""Servers' own rules packs (cards, decks): upload checks and storage, shared by every game."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import discord
from sqlalchemy import Table

from bot.chat.checks import guild_id_of, require_manage
from bot.chat.errors import UserError
from bot.db.models import RulesPack, utcnow
from bot.db.store import Store
from bot.db.upsert import insert_or_update
from bot.lang.i18n import Domain
from rules.packs import MAX_PACK_BYTES, PackError

PACKS: Table = RulesPack.__table__  # type: ignore[assignment]

log = logging.getLogger("muster.packs")

T = TypeVar("T")

# Reading a pack takes milliseconds (the reader bounds its size and nesting); this limit is the safety
# net, short enough that the refusal still answers within Discord's 3 s.
PARSE_SECONDS = 2.0
ERRORS_SHOWN = 1800  # of a pack's problems in one refusal: room left in the message for the words before them
_ = Domain("muster")


async def read_attachment(attachment: discord.Attachment, limit: int = MAX_PACK_BYTES) -> str:
    """The text of an uploaded pack file, refused politely if too large or not UTF-8 text."""
    if attachment.size > limit:
        raise UserError(
            _(
                "That file is {size} bytes; a pack may be at most {limit} bytes.",
                size=f"{attachment.size:,}",
                limit=f"{limit:,}",
            )
        )
    data = await attachment.read()
    if len(data) > limit:
        raise UserError(_("That file is larger than {limit} bytes.", limit=f"{limit:,}"))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(
            _("That file is not UTF-8 text; save it as YAML or TOML text and try again.")
        ) from None


async def parse_off_loop(parse: Callable[[str], T], text: str, seconds: float = PARSE_SECONDS) -> T:
    """Run a game's pack parser in a worker thread under a time limit, so the event loop keeps
    answering everyone else meanwhile; a parser that runs out of time is refused politely (its thread
    finishes on its own and its result is dropped)."""
    try:
        async with asyncio.timeout(seconds):
            return await asyncio.to_thread(parse, text)
    except TimeoutError:
        raise UserError(
            _(
                "That pack was not loaded and nothing was changed: it took too long to read. "
                "Make it smaller or simpler and upload it again."
            )
        ) from None
    except PackError as error:
        if error.__cause__ is not None:
            log.warning("a pack could not be read", exc_info=error.__cause__)
        raise UserError(
            _("That pack was not loaded and nothing was changed; fix these and upload it again:")
            + "\n"
            + format_errors(error.errors)
        ) from None
    except Exception:
        log.exception("a pack parser failed")
        raise UserError(
            _(
                "That pack was not loaded and nothing was changed: it could not be read; "
                "check that it is plain YAML."
            )
        ) from None


def format_errors(errors: list[str], limit: int = ERRORS_SHOWN) -> str:
    """Every problem, one per line, cut politely to fit a Discord message."""
    lines: list[str] = []
    used = 0
    for index, error in enumerate(errors):
        line = f"• {error}"
        if used + len(line) > limit:
            lines.append(_("… and {count} more.", count=len(errors) - index))
            break
        lines.append(line)
        used += len(line) + 1
    return "\n".join(lines)


class PackService:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def load(
        self,
        interaction: discord.Interaction[Any],
        system: str,
        file: discord.Attachment,
        parse: Callable[[str], T],
    ) -> T:
        """`/<game> pack load`: Manage Server, read, validate (every problem listed), then store.

        The parse runs off the event loop under a time limit; nothing is stored unless the whole pack
        is valid.
        """
        require_manage(interaction)
        guild_id = guild_id_of(interaction)
        text = await read_attachment(file)
        loaded = await parse_off_loop(parse, text)
        await self.save(guild_id, system, text, interaction.user.id)
        return loaded

    async def get(self, guild_id: int, system: str) -> str | None:
        async with self.store.read() as db:
            row = await db.get(RulesPack, (guild_id, system))
            return row.content if row else None

    async def save(self, guild_id: int, system: str, content: str, uploaded_by: int) -> None:
        values = {
            "guild_id": guild_id,
            "system": system,
            "content": content,
            "uploaded_by": uploaded_by,
            "updated_at": utcnow(),
        }
        async with self.store.write() as db:
            await db.execute(insert_or_update(self.store.dialect, PACKS, values, ["guild_id", "system"]))

    async def delete(self, guild_id: int, system: str) -> bool:
        async with self.store.write() as db:
            row = await db.get(RulesPack, (guild_id, system))
            if row is None:
                return False
            await db.delete(row)
            return True
