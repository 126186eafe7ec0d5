"""Which language each message is in: the server's for the table, the player's own for them alone.

- Public posts (a game's board and thread, start cards, announcements) speak the server's language:
  `/settings language` (en, de, fr, es), or by default the server's own Discord locale, else English.
- What one player reads (ephemeral answers, DMs, sealed prompts, reminders) speaks that player's
  Discord language. An interaction carries it (`interaction.locale`); the last one seen is stored
  per user (`user_locales`, written only when it changes), so a DM rendered later (the outbox, a
  reminder) still finds it. A player never seen yet is spoken to in the table's language.

Every interaction starts in its player's language: the gateway's INTERACTION_CREATE is parsed with
that language in force (`LocalisedState`), so every task discord.py starts for it (the command, a
component's callback, a form, the error handler) inherits it without a line in any cog.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from discord.shard import AutoShardedConnectionState  # type: ignore[attr-defined]
from sqlalchemy import Table
from sqlalchemy.orm import Session

from bot.db.models import UserLocale, utcnow
from bot.db.store import Store
from bot.db.upsert import dialect_insert
from bot.db.wakeups import Wakeups
from bot.lang import i18n

if TYPE_CHECKING:
    from bot.play.games import SessionInfo

log = logging.getLogger(__name__)

FOLLOW_DISCORD = "discord"
"""The `/settings language` choice that follows the server's Discord locale (the default)."""
USER_LOCALES: Table = UserLocale.__table__  # type: ignore[assignment]
SEEN_MAX = 50_000
LOCALE_CHARS = 16  # the user_locales.locale column (bot/db/models.py); Discord's are 5 at most
CHANGES = "muster_languages"  # NOTIFYed by triggers on every change: `u:<user_id>`, `g:<guild_id>` (0013)


@dataclass(frozen=True)
class Seen:
    """The interaction being handled: who made it, where, and the locales it carried."""

    user_id: int
    locale: str
    guild_id: int | None = None
    guild_locale: str | None = None


_seen: contextvars.ContextVar[Seen | None] = contextvars.ContextVar("muster_interaction", default=None)


def current() -> Seen | None:
    """The interaction this task handles, if any."""
    return _seen.get()


@dataclass(frozen=True)
class Languages:
    """The language of a game's table, and of each of its players (the table's if never seen)."""

    table: str
    players: Mapping[int, str] = field(default_factory=dict)

    def of(self, player: int | None) -> str:
        return self.players.get(player, self.table) if player is not None else self.table


ENGLISH = Languages(i18n.SOURCE)


def _seen_in(data: Mapping[str, Any]) -> Seen | None:
    user = (data.get("member") or {}).get("user") or data.get("user") or {}
    if "id" not in user:
        return None
    guild = data.get("guild_id")
    return Seen(
        user_id=int(user["id"]),
        locale=str(data.get("locale") or "en-US"),
        guild_id=int(guild) if guild else None,
        guild_locale=data.get("guild_locale"),
    )


class LocalisedState(AutoShardedConnectionState):
    """discord.py's connection state, parsing each interaction in its player's language (and noting
    the locale it carried); everything it starts for the interaction inherits both."""

    def parse_interaction_create(self, data: Any) -> None:
        seen = _seen_in(data)
        if seen is None:
            super().parse_interaction_create(data)
            return
        client = self._get_client()
        service = getattr(client, "languages", None)
        if isinstance(service, LanguageService):
            service.note(seen.user_id, seen.locale)
        token, language = _seen.set(seen), i18n.use(seen.locale)
        try:
            super().parse_interaction_create(data)
        finally:
            i18n.reset(language)
            _seen.reset(token)


class LanguageService:
    """The store's languages: a server's choice, and each user's last-seen locale.

    The store is the truth; `_known` only spares a write when a locale is what this process last wrote or
    read for that user. A locale this process has seen but not yet stored (`_writing`) is spoken over the
    store's, so a DM sent a moment after a player's interaction is in their language. On PostgreSQL, what
    was read is remembered only while this process hears every change committed by any process: row
    triggers NOTIFY `muster_languages` naming the user whose locale or the server whose language was
    written (migration 0013), and only that one is forgotten; an empty or unknown payload (0007's
    statement trigger, during a rolling upgrade), and the loss of the listening connection, forget it all.
    An upsert that writes no row (a locale seen again) announces nothing. On SQLite, which one process
    runs, what was read is remembered; a server's language changed here forgets it, a user's locale stored
    here is remembered as stored. So a step or a `/roll` needs no round trip for its languages, and a
    change made anywhere speaks from the next message on.
    """

    def __init__(self, store: Store, guild_locale: Callable[[int], str | None]) -> None:
        self.store = store
        self.guild_locale = guild_locale
        self._known: dict[int, str] = {}
        self._writes: set[asyncio.Task[None]] = set()
        self._writing: dict[int, str] = {}  # a user's locale seen here, its write not yet committed
        self.changes = Wakeups(store.engine.url, self._heard_of, CHANGES, on_lost=self._forget)
        self._chosen: dict[int | None, str | None] = {}  # a server's stored choice, as last read
        self._stored: dict[int, str | None] = {}  # a user's stored locale (None: none), as last read
        self._heard = 0  # changes heard: a read begun before one is not remembered

    async def start(self) -> None:
        await self.changes.start()

    async def stop(self) -> None:
        await self.changes.stop()
        self._forget()

    def _forget(self) -> None:
        self._heard += 1
        self._chosen.clear()
        self._stored.clear()

    def _heard_of(self, payload: str) -> None:
        """Another process (or this one) committed a change: forget the user's stored locale or the
        server's choice it names; anything else (an old trigger's empty payload) forgets it all.
        Any change discards a read under way, whoever it was for."""
        kind, _, key = payload.partition(":")
        if kind not in ("u", "g") or not (key.isascii() and key.isdigit()):
            self._forget()
            return
        self._heard += 1
        if kind == "u":
            self._stored.pop(int(key), None)
        else:
            self._chosen.pop(int(key), None)

    @property
    def remembers(self) -> bool:
        """Whether what was read may be kept: on PostgreSQL while listening for every process's
        changes; on SQLite always, as its one process forgets on its own changes (`changed`)."""
        return self.changes.listening or not self.changes.enabled

    def changed(self) -> None:
        """This process stored a language change: forget what it remembers (other processes hear
        it through the database's notification)."""
        self._forget()

    def _remembered(self, guild_id: int | None, users: list[int]) -> tuple[str | None, dict[int, str]] | None:
        """A server's stored choice and some users' stored locales, if remembered (else None)."""
        if self.remembers and guild_id in self._chosen and all(u in self._stored for u in users):
            found = {u: locale for u in users if (locale := self._stored[u]) is not None}
            return self._chosen[guild_id], found
        return None

    async def _read(self, guild_id: int | None, users: list[int]) -> tuple[str | None, dict[int, str]]:
        """A server's stored choice and some users' stored locales: remembered, or from the store."""
        if (found := self._remembered(guild_id, users)) is not None:
            return found
        heard = self._heard
        chosen, locales = await self.store.languages_of(guild_id, users)
        if self.remembers and heard == self._heard:
            if len(self._stored) > SEEN_MAX or len(self._chosen) > SEEN_MAX:
                self._forget()
            self._chosen[guild_id] = chosen
            self._stored.update({u: locales.get(u) for u in users})
        return chosen, dict(locales)

    def note(self, user_id: int, locale: str) -> None:
        """An interaction from `user_id` carried `locale`: store it if it changed."""
        if self._known.get(user_id) == locale:
            return
        self._known[user_id] = locale
        if len(self._known) > SEEN_MAX:
            self._known.pop(next(iter(self._known)))
        self._writing[user_id] = locale
        task = asyncio.get_running_loop().create_task(self.remember(user_id, locale))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)
        task.add_done_callback(lambda _task: self._written(user_id, locale))

    def _written(self, user_id: int, locale: str) -> None:
        """A locale's write ended (stored or not): the store, or what is remembered of it, answers."""
        if self._writing.get(user_id) == locale:
            del self._writing[user_id]

    async def remember(self, user_id: int, locale: str) -> None:
        stored = locale[:LOCALE_CHARS]
        values = {"user_id": user_id, "locale": stored, "updated_at": utcnow()}

        def write(db: Session) -> None:
            statement = dialect_insert(self.store.dialect, USER_LOCALES).values(values)
            db.execute(
                statement.on_conflict_do_update(
                    index_elements=["user_id"],
                    set_={"locale": statement.excluded.locale, "updated_at": statement.excluded.updated_at},
                    where=USER_LOCALES.c.locale != statement.excluded.locale,
                )
            )

        try:
            await self.store.run_write(write)
        except Exception:
            self._known.pop(user_id, None)
            log.warning("could not store the locale of user %s", user_id, exc_info=True)
            return
        self._stored_now(user_id, stored)

    def _stored_now(self, user_id: int, locale: str) -> None:
        """This process stored a user's locale: it is remembered as stored, and what this process
        remembers of everyone else still holds (on PostgreSQL every process, this one too, then
        hears the database's notification and forgets that user alone, whose next read asks the
        store once). A read begun before the write is not remembered."""
        self._heard += 1
        self._stored[user_id] = locale

    async def settle(self) -> None:
        """Wait for the locale writes under way (tests, shutdown)."""
        while self._writes:
            await asyncio.gather(*list(self._writes), return_exceptions=True)

    def table_language(self, guild_id: int | None, chosen: str | None) -> str:
        """A server's language: its `/settings language`, else its Discord locale, else English."""
        if chosen and chosen != FOLLOW_DISCORD:
            return i18n.supported(chosen)
        if guild_id is None:
            return i18n.SOURCE
        locale = self.guild_locale(guild_id)
        if locale is None:
            seen = current()
            if seen is not None and seen.guild_id == guild_id:
                locale = seen.guild_locale
        return i18n.supported(locale)

    async def of_server(self, guild_id: int | None) -> str:
        """The language of a server's public posts (every `/roll` asks: remembered, it is answered
        without building a whole `Languages`)."""
        remembered = self.remembered_server(guild_id)
        if remembered is not None:
            return remembered
        return (await self.for_players(guild_id, ())).table

    def remembered_server(self, guild_id: int | None) -> str | None:
        """`of_server` with no round trip and no coroutine, when this process remembers the server's
        choice (else None): the `/roll` answer asks it first, on the path a player waits on."""
        if self.remembers and guild_id in self._chosen:
            return self.table_language(guild_id, self._chosen[guild_id])
        return None

    async def of_user(self, user_id: int, guild_id: int | None = None) -> str:
        """The language to speak to one user outside an interaction of theirs (a DM)."""
        return (await self.for_players(guild_id, (user_id,))).of(user_id)

    async def for_session(self, info: SessionInfo) -> Languages:
        return await self.for_players(info.guild_id, info.players)

    def remembered(self, info: SessionInfo) -> Languages | None:
        """A session's languages with no round trip, when this process remembers them (else None)."""
        players = list(info.players)
        found = self._remembered(info.guild_id, players)
        return None if found is None else self._languages(info.guild_id, players, *found)

    async def for_players(self, guild_id: int | None, players: Iterable[int]) -> Languages:
        """The table's language and each player's, read in one unit of work (the interaction being
        handled gives its own player's freshest locale)."""
        wanted = list(players)
        return self._languages(guild_id, wanted, *await self._read(guild_id, wanted))

    def _languages(
        self, guild_id: int | None, wanted: list[int], chosen: str | None, locales: dict[int, str]
    ) -> Languages:
        """What was stored, as the languages spoken (the interaction being handled speaks last)."""
        if self._writing:  # seen here a moment ago, not yet stored: the DM a game sends now speaks it
            locales.update({user: self._writing[user] for user in wanted if user in self._writing})
        self._known.update(locales)
        seen = current()
        if seen is not None and seen.user_id in wanted:
            locales[seen.user_id] = seen.locale
        table = self.table_language(guild_id, chosen)
        return Languages(table, {user: i18n.supported(locale) for user, locale in locales.items()})


async def of_people(service: LanguageService | None, guild_id: int, people: Iterable[int]) -> Languages:
    """The server's language and each person's, each read once (what a game night or an event speaks
    to its organiser and players); English where there is no service (one built without a bot)."""
    if service is None:
        return ENGLISH
    return await service.for_players(guild_id, list(dict.fromkeys(people)))
