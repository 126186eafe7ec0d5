"""The loopback Discord: world model, HTTP + gateway server, and the driver tests act through."""

from __future__ import annotations

import asyncio
import base64
import copy
import datetime as dt
import re
import secrets
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from aiohttp import web

from .commands import CommandStore
from .events import ScheduledEvent
from .gateway import Gateway
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    CommandNotFound,
    InteractionRecord,
    ModalPrompt,
    NotAllowed,
    OptionError,
)
from .model import (
    ANNOUNCEMENT_THREAD,
    BOT_PERMISSIONS,
    DM,
    DM_APP_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    FLAG_EPHEMERAL,
    FLAG_HAS_THREAD,
    GUILD_ANNOUNCEMENT,
    GUILD_TEXT,
    INTENT_GUILD_MEMBERS,
    JSON,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Overwrite,
    Role,
    Snowflakes,
    User,
    permissions,
    utcnow,
)
from .options import OptionContext, build_chat_input_data, split_command
from .ratelimits import DEFAULT_SCALE, Clock, RateLimits
from .spec import SpecViolation, describe

T = TypeVar("T")

MANAGE_GUILD = permissions("manage_guild")
ADMINISTRATOR = permissions("administrator")
USE_APPLICATION_COMMANDS = permissions("use_application_commands")
COMMANDS_PATH = re.compile(r"/applications/\d+(/guilds/\d+)?/commands(/\d+)?")
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024


@dataclass
class RecordedRequest:
    """One HTTP request the bot made, with the emulator's answer."""

    method: str
    path: str  # relative to the API base ("/channels/1/messages"); CDN paths start with /attachments
    query: dict[str, str]
    json: Any
    files: list[tuple[str, str, int]]  # (form field, filename, size)
    at: float
    status: int = 0
    response: Any = None
    elapsed: float = 0.0
    fault: bool = False
    rate_limit: str = ""  # the limit that refused it ("global", "message-create", ...), if one did

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


@dataclass
class Fault:
    """An injected failure: the next `count` matching requests get `status`.

    With `status` None the request is handled normally, only slowed: `delay` before it is handled,
    `delay_after` after it took effect and before it is answered (a client killed meanwhile never
    learns that its request worked).
    """

    method: str
    pattern: re.Pattern[str]
    status: int | None
    count: int | None
    retry_after: float = 0.05
    body: JSON | None = None
    delay: float = 0.0
    delay_after: float = 0.0
    scope: str = "user"
    is_global: bool = False
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        if self.count is not None and self.hits >= self.count:
            return False
        return (self.method in ("*", method)) and self.pattern.fullmatch(path) is not None

    @property
    def exhausted(self) -> bool:
        return self.count is not None and self.hits >= self.count


@dataclass
class DefaultWorld:
    """One guild "Club" with #games; alice and bob play, carol organises (Manage Server)."""

    guild: Guild
    channel: Channel
    alice: User
    bob: User
    carol: User

    @property
    def games(self) -> Channel:
        return self.channel


@dataclass
class _Changes:
    event: asyncio.Event = field(default_factory=asyncio.Event)


class Emulator:
    """A loopback Discord for one bot application; see README.md for the driver API."""

    def __init__(
        self,
        *,
        bot_name: str = "Muster",
        token: str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        shard_count: int = 1,
        heartbeat_interval_ms: int = 41250,
        response_deadline: float | None = 3.0,
        token_lifetime: float = 15 * 60.0,
        privileged_intents: int = 0,
        connect_timeout: float = 10.0,
        min_reaction_time: float = 0.05,
        rate_limits: bool = True,
        rate_limit_scale: float = DEFAULT_SCALE,
        spec_check: bool = True,
    ) -> None:
        self.ids = Snowflakes()
        # Discord's rate limits, on unless a test must not meet them; their windows run on
        # `clock`, shortened by `rate_limit_scale` (see ratelimits.py and README.md).
        self.clock = Clock(rate_limit_scale)
        self.limiter = RateLimits(self, self.clock, enabled=rate_limits)
        self.host = host
        self.port = port
        self.shard_count = shard_count
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.privileged_intents = privileged_intents
        self.connect_timeout = connect_timeout
        self.attachment_size_limit = ATTACHMENT_SIZE_LIMIT
        # A person cannot click a button the instant it appears; discord.py also drops a click on a
        # View (or a modal submit) that arrives before the response carrying it has returned. The
        # driver waits this long after a message's last change before acting on it (0 disables).
        self.min_reaction_time = min_reaction_time
        self.application_flags = 0

        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.attachments: dict[int, Attachment] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        self.interactions_by_token: dict[str, InteractionRecord] = {}
        self.modals: list[ModalPrompt] = []
        self.scheduled_events: dict[int, ScheduledEvent] = {}  # deleted ones too (`.deleted`)

        self.requests: list[RecordedRequest] = []
        self.unknown_requests: list[RecordedRequest] = []
        self.invalid_requests: list[RecordedRequest] = []
        # Requests Discord's OpenAPI spec refuses (spec.py); stop() fails on them unless expected.
        self.spec_check = spec_check
        self.spec_violations: list[SpecViolation] = []
        self.spec_violations_expected = False
        self.faults: list[Fault] = []
        self.rate_limited: list[RecordedRequest] = []  # every 429 answered, injected ones too

        self.bot_user = self.add_user(bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.app_owner = self.add_user(f"{bot_name.lower()}-developer")
        self.token = token or _make_token(self.bot_user.id)
        self.commands = CommandStore(self.application_id, self.ids)
        self.gateway = Gateway(self)

        self._changes: _Changes | None = None
        self._background: set[asyncio.Task[Any]] = set()
        self._runner: web.AppRunner | None = None
        self.base_url = ""

    # --- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> Emulator:
        from .control import ControlApi
        from .server import RestApi

        rest = RestApi(self)
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self.gateway.handle)
        app.router.add_route("GET", "/gateway-resume", self.gateway.handle)
        ControlApi(self).add_routes(app)
        app.router.add_route("*", "/{tail:.*}", rest.handle)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=2.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        address = self._runner.addresses[0]
        self.port = int(address[1])
        self.base_url = f"http://{self.host}:{self.port}"
        return self

    async def stop(self) -> None:
        """Shut down; then fail (AssertionError) if a request broke Discord's spec unexpectedly."""
        await self.gateway.close_all()
        for task in list(self._background):
            task.cancel()
        if self._background:
            await asyncio.gather(*self._background, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.spec_violations and not self.spec_violations_expected:
            raise AssertionError(f"requests outside Discord's spec:\n{describe(self.spec_violations)}")

    def expect_spec_violations(self) -> None:
        """For a test that sends bad bodies on purpose: they are still answered as Discord would
        and listed in `spec_violations`, but do not fail `stop()`."""
        self.spec_violations_expected = True

    async def __aenter__(self) -> Emulator:
        return await self.start()

    async def __aexit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        if exc is None:
            await self.stop()
            return
        try:  # the test already failed: keep its error, with the violations as a note
            await self.stop()
        except AssertionError as violations:
            exc.add_note(str(violations))

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    @property
    def resume_gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway-resume"

    def bot_user_payload(self) -> JSON:
        return {
            **self.bot_user.payload(),
            "bot": True,
            "verified": True,
            "mfa_enabled": False,
            "email": None,
            "locale": "en-US",
            "premium_type": 0,
            "bio": "",
        }

    def env(self) -> dict[str, str]:
        """Environment variables that point a bot process at this emulator."""
        return {"DISCORD_TOKEN": self.token, "DISCORD_API_BASE": self.api_base}

    # --- change notification and waiting -------------------------------------------------------

    def notify(self) -> None:
        changes = self._changes
        self._changes = None
        if changes is not None:
            changes.event.set()

    async def wait_until(
        self,
        predicate: Callable[[], T | None],
        timeout: float = 3.0,  # noqa: ASYNC109
        what: str = "a condition",
    ) -> T:
        """Wait until `predicate()` is truthy (re-checked on every change); return its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = predicate()
            if result:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout:.1f} s waiting for {what}")
            if self._changes is None:
                self._changes = _Changes()
            event = self._changes.event
            try:
                await asyncio.wait_for(event.wait(), min(remaining, 0.25))
            except TimeoutError:
                pass

    async def wait_ready(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until every shard has a live, identified (or resumed) gateway connection."""
        await self.wait_until(self.gateway.all_shards_live, timeout, "the bot to connect to the gateway")

    async def wait_shards_ready(
        self,
        shard_ids: Iterable[int],
        timeout: float = 10.0,  # noqa: ASYNC109
        *,
        besides: Collection[str] = (),
    ) -> None:
        """Wait until each of these shards has a live session that is not one of `besides`: one
        process's shards, when several processes share the shards between them."""
        wanted = sorted(shard_ids)
        await self.wait_until(
            lambda: self.gateway.shards_live(wanted, besides=besides),
            timeout,
            f"shards {wanted} to connect to the gateway",
        )

    async def wait_commands_synced(self, names: Iterable[str] = (), timeout: float = 10.0) -> list[JSON]:  # noqa: ASYNC109
        """Wait until commands are registered (all of `names`, if given); return them."""
        wanted = set(names)

        def synced() -> list[JSON]:
            commands = self.commands.all()
            if not commands:
                return []
            have = {c["name"] for c in commands}
            return commands if wanted <= have else []

        return await self.wait_until(synced, timeout, f"commands {sorted(wanted) or ''} to be registered")

    # --- world building -----------------------------------------------------------------------

    def add_user(self, name: str, *, bot: bool = False, global_name: str | None = None) -> User:
        user = User(id=self.ids.next(), name=name, bot=bot, global_name=global_name)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        owner: User | None = None,
        bot_permissions: int = BOT_PERMISSIONS,
        everyone_permissions: int = EVERYONE_PERMISSIONS,
    ) -> Guild:
        if owner is None:
            owner = self.add_user(f"{name.lower().replace(' ', '-')}-owner")
        guild = Guild(id=self.ids.next_in_new_millisecond(), name=name, owner_id=owner.id)
        guild.roles[guild.id] = Role(
            id=guild.id, guild_id=guild.id, name="@everyone", permissions=everyone_permissions
        )
        bot_role = Role(
            id=self.ids.next(),
            guild_id=guild.id,
            name=self.bot_user.name,
            permissions=bot_permissions,
            position=1,
            managed=True,
            bot_id=self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = Member(self.bot_user, guild.id, [bot_role.id])
        guild.members[owner.id] = Member(owner, guild.id)
        self.guilds[guild.id] = guild
        self._spawn(self.gateway.dispatch(guild.id, "GUILD_CREATE", self._live_guild_create(guild)))
        return guild

    def _live_guild_create(self, guild: Guild) -> JSON:
        session = next(
            (s for s in reversed(list(self.gateway.sessions.values())) if s.handles_guild(guild.id)), None
        )
        return self.gateway.guild_create(guild, session.intents if session else 0)

    def add_channel(
        self, guild: Guild, name: str, *, topic: str | None = None, type: int = GUILD_TEXT
    ) -> Channel:
        """A guild channel: text (0) by default; voice (2) or forum (15) to test where threads fail."""
        channel = Channel(
            id=self.ids.next(),
            name=name.lstrip("#"),
            type=type,
            guild_id=guild.id,
            position=len(guild.channels),
            topic=topic,
        )
        guild.channels[channel.id] = channel
        self.channels[channel.id] = channel
        self._spawn(self.gateway.dispatch(guild.id, "CHANNEL_CREATE", channel.payload()))
        return channel

    def add_role(self, guild: Guild, name: str, *, permissions: int = 0) -> Role:
        role = Role(
            id=self.ids.next(),
            guild_id=guild.id,
            name=name,
            permissions=permissions,
            position=len(guild.roles),
        )
        guild.roles[role.id] = role
        self._spawn(
            self.gateway.dispatch(
                guild.id, "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.payload()}
            )
        )
        return role

    def organiser_role(self, guild: Guild) -> Role:
        for role in guild.roles.values():
            if role.name == "Organiser":
                return role
        return self.add_role(guild, "Organiser", permissions=MANAGE_GUILD)

    def add_member(
        self,
        guild: Guild,
        user: User,
        *,
        manage_guild: bool = False,
        roles: Sequence[Role] = (),
        nick: str | None = None,
    ) -> Member:
        role_ids = [r.id for r in roles]
        if manage_guild:
            role_ids.append(self.organiser_role(guild).id)
        member = Member(user, guild.id, role_ids, nick=nick)
        guild.members[user.id] = member
        self._spawn(
            self.gateway.dispatch(
                guild.id,
                "GUILD_MEMBER_ADD",
                {**member.payload(), "guild_id": str(guild.id)},
                intent=1 << 1,
            )
        )
        return member

    def remove_member(self, guild: Guild, user: User) -> None:
        guild.members.pop(user.id, None)
        for thread in guild.threads.values():  # leaving a server leaves its threads
            thread.thread_members.pop(user.id, None)

    def give_role(self, guild: Guild, user: User, role: Role) -> None:
        member = guild.members[user.id]
        if role.id not in member.role_ids:
            member.role_ids.append(role.id)

    def take_role(self, guild: Guild, user: User, role: Role) -> None:
        member = guild.members[user.id]
        if role.id in member.role_ids:
            member.role_ids.remove(role.id)

    def set_guild_locale(self, guild: Guild, locale: str) -> None:
        """The server's owner changes its preferred locale: GUILD_UPDATE reaches the bot."""
        guild.locale = locale
        payload = {key: value for key, value in guild.payload().items() if key not in ("channels", "members")}
        self._spawn(self.gateway.dispatch(guild.id, "GUILD_UPDATE", payload))

    def set_manage_guild(self, guild: Guild, user: User, allowed: bool) -> None:
        role = self.organiser_role(guild)
        (self.give_role if allowed else self.take_role)(guild, user, role)

    # --- threads ------------------------------------------------------------------------------

    def add_thread(
        self,
        parent: Channel,
        name: str,
        *,
        owner: User,
        message: Message | None = None,
        private: bool = False,
    ) -> Channel:
        """A thread a user starts (from `message` if given), as if made in Discord's client."""
        thread = self.make_thread(
            parent, name, owner=owner, message=message, type=PRIVATE_THREAD if private else PUBLIC_THREAD
        )
        self._spawn(self.announce_thread(thread))
        return thread

    def make_thread(
        self,
        parent: Channel,
        name: str,
        *,
        owner: User,
        type: int = PUBLIC_THREAD,
        message: Message | None = None,
        auto_archive_duration: int = 1440,
        rate_limit_per_user: int = 0,
        invitable: bool = True,
    ) -> Channel:
        """Add a thread to the world (no gateway event; see `announce_thread`). A thread started
        from a message takes the message's id, and the message points at it (HAS_THREAD)."""
        guild = self.guild_of(parent)
        assert guild is not None and not parent.is_thread, f"{parent!r} cannot hold threads"
        assert message is None or message.thread is None, f"{message!r} already has a thread"
        if parent.type == GUILD_ANNOUNCEMENT:
            type = ANNOUNCEMENT_THREAD
        thread = Channel(
            id=message.id if message is not None else self.ids.next(),
            name=name,
            type=type,
            guild_id=guild.id,
            parent_id=parent.id,
            owner_id=owner.id,
            invitable=invitable,
            auto_archive_duration=auto_archive_duration,
            rate_limit_per_user=rate_limit_per_user,
        )
        thread.thread_members[owner.id] = thread.created_at
        guild.threads[thread.id] = thread
        self.channels[thread.id] = thread
        if message is not None:
            message.thread = thread
            message.flags |= FLAG_HAS_THREAD
        self.notify()
        return thread

    async def announce_thread(self, thread: Channel) -> None:
        """THREAD_CREATE (newly created) to the bot if it can see the thread, then the starter
        message's MESSAGE_UPDATE carrying the thread, as Discord sends them."""
        if thread.guild_id is None or not self.bot_permissions(thread) & VIEW_CHANNEL:
            return
        data = {**self.thread_event(thread), "newly_created": True}
        await self.gateway.dispatch(thread.guild_id, "THREAD_CREATE", data)
        starter = self.thread_starter(thread)
        if starter is not None:
            await self.gateway.dispatch_message_event(
                thread.guild_id, "MESSAGE_UPDATE", self._message_event(starter)
            )

    def thread_event(self, thread: Channel) -> JSON:
        """A thread's gateway payload: with `member` (the bot's thread member) when it joined."""
        data = thread.payload()
        if self.bot_user.id in thread.thread_members:
            data["member"] = thread.thread_member_payload(self.bot_user.id)
        return data

    def thread_starter(self, thread: Channel) -> Message | None:
        parent = self.channels.get(thread.parent_id or 0)
        if parent is None:
            return None
        return next((m for m in parent.messages if m.thread is thread), None)

    def threads(self, channel: Channel) -> list[Channel]:
        """The threads (archived ones too) whose parent is `channel`, oldest first."""
        guild = self.guild_of(channel)
        if guild is None:
            return []
        return [t for t in guild.threads.values() if t.parent_id == channel.id]

    def thread_of(self, message: Message) -> Channel | None:
        """The thread started from `message`, if any."""
        return message.thread

    def add_thread_member(self, thread: Channel, user: User) -> bool:
        """Add `user` to the thread (as joining in the client does); False if already in."""
        if user.id in thread.thread_members:
            return False
        thread.thread_members[user.id] = utcnow()
        self._spawn(self.announce_thread_members(thread, added=[user]))
        self.notify()
        return True

    def remove_thread_member(self, thread: Channel, user: User) -> bool:
        if thread.thread_members.pop(user.id, None) is None:
            return False
        self._spawn(self.announce_thread_members(thread, removed=[user]))
        self.notify()
        return True

    async def announce_thread_members(
        self, thread: Channel, *, added: Sequence[User] = (), removed: Sequence[User] = ()
    ) -> None:
        """THREAD_MEMBERS_UPDATE: about other users only with the members intent, as Discord."""
        guild = self.guild_of(thread)
        about_bot = any(u is self.bot_user for u in (*added, *removed))
        if guild is None or not (about_bot or self.bot_permissions(thread) & VIEW_CHANNEL):
            return
        added_members = []
        for user in added:
            if user.id not in thread.thread_members:
                continue
            member = guild.members.get(user.id)
            entry = thread.thread_member_payload(
                user.id, member=member.payload() if member is not None else None
            )
            entry["presence"] = None
            added_members.append(entry)
        data: JSON = {
            "id": str(thread.id),
            "guild_id": str(guild.id),
            "member_count": thread.payload()["member_count"],
        }
        if added_members:
            data["added_members"] = added_members
        if removed:
            data["removed_member_ids"] = [str(u.id) for u in removed]
        intent = 0 if about_bot else INTENT_GUILD_MEMBERS
        await self.gateway.dispatch(guild.id, "THREAD_MEMBERS_UPDATE", data, intent=intent)

    def archive_thread(self, thread: Channel, *, locked: bool = False) -> None:
        """Archive a thread (as Discord does after its auto-archive duration, or a moderator)."""
        thread.archived = True
        thread.locked = thread.locked or locked
        thread.archive_timestamp = utcnow()
        self._spawn(self.announce_thread_update(thread))
        self.notify()

    async def announce_thread_update(self, thread: Channel) -> None:
        if thread.guild_id is None or not self.bot_permissions(thread) & VIEW_CHANNEL:
            return
        await self.gateway.dispatch(thread.guild_id, "THREAD_UPDATE", self.thread_event(thread))

    def add_default_world(self) -> DefaultWorld:
        guild = self.add_guild("Club")
        channel = self.add_channel(guild, "games")
        alice, bob, carol = (self.add_user(n, global_name=n.capitalize()) for n in ("alice", "bob", "carol"))
        self.add_member(guild, alice)
        self.add_member(guild, bob)
        self.add_member(guild, carol, manage_guild=True)
        return DefaultWorld(guild=guild, channel=channel, alice=alice, bob=bob, carol=carol)

    def user(self, name: str) -> User:
        for user in self.users.values():
            if user.name == name:
                return user
        raise KeyError(f"no user named {name!r}")

    def guild(self, name: str) -> Guild:
        for guild in self.guilds.values():
            if guild.name == name:
                return guild
        raise KeyError(f"no guild named {name!r}")

    def dm_channel(self, user: User) -> Channel:
        """The bot's DM channel with `user` (created on first use, as Discord does)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = Channel(id=self.ids.next(), name=f"dm-{user.name}", type=DM, recipient=user)
            self.dm_channels[user.id] = channel
            self.channels[channel.id] = channel
        return channel

    def upload(self, filename: str, data: bytes, *, content_type: str | None = None) -> Attachment:
        """A file a user attaches to a command option; served at its `url` like Discord's CDN."""
        attachment_id = self.ids.next()
        attachment = Attachment.create(
            id=attachment_id,
            filename=filename,
            data=data,
            cdn_base=self.base_url,
            channel_id=0,
            content_type=content_type,
        )
        attachment.ephemeral = True
        self.attachments[attachment.id] = attachment
        return attachment

    # --- permissions --------------------------------------------------------------------------

    def events_of(self, guild: Guild) -> list[ScheduledEvent]:
        """The guild's scheduled events that still exist, oldest first."""
        return [e for e in self.scheduled_events.values() if e.guild_id == guild.id and not e.deleted]

    def guild_of(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id is not None else None

    def channel_permissions(self, channel: Channel, user: User) -> int:
        guild = self.guild_of(channel)
        if guild is None:
            return DM_APP_PERMISSIONS if channel.recipient is user or user is self.bot_user else 0
        return guild.channel_permissions(channel, user.id)

    def bot_permissions(self, channel: Channel) -> int:
        return self.channel_permissions(channel, self.bot_user)

    def set_permissions(
        self, channel: Channel, target: User | Role | Guild, *, allow: int = 0, deny: int = 0
    ) -> None:
        """Set a channel overwrite for a member, a role, or @everyone (pass the guild)."""
        if channel.is_thread:
            raise ValueError(f"{channel!r} has its parent's permissions: set them on the parent")
        kind = 1 if isinstance(target, User) else 0
        if allow == 0 and deny == 0:
            channel.overwrites.pop(target.id, None)
        else:
            channel.overwrites[target.id] = Overwrite(id=target.id, type=kind, allow=allow, deny=deny)
        if channel.guild_id is not None:
            self._spawn(self.gateway.dispatch(channel.guild_id, "CHANNEL_UPDATE", channel.payload()))

    def deny_bot(self, channel: Channel, *names: str) -> None:
        """Take permissions (e.g. "send_messages") from the bot in one channel."""
        current = channel.overwrites.get(self.bot_user.id)
        allow = current.allow if current else 0
        deny = (current.deny if current else 0) | permissions(*names)
        self.set_permissions(channel, self.bot_user, allow=allow & ~deny, deny=deny)

    def allow_bot(self, channel: Channel, *names: str) -> None:
        current = channel.overwrites.get(self.bot_user.id)
        bits = permissions(*names)
        self.set_permissions(
            channel,
            self.bot_user,
            allow=(current.allow if current else 0) | bits,
            deny=(current.deny if current else 0) & ~bits,
        )

    # --- faults -------------------------------------------------------------------------------

    def close_dms(self, user: User) -> None:
        """The user no longer accepts DMs from the bot: sends fail with 403 / 50007."""
        user.dms_open = False

    def open_dms(self, user: User) -> None:
        user.dms_open = True

    def inject(
        self,
        method: str,
        path_regex: str,
        *,
        status: int | None = 429,
        count: int | None = 1,
        retry_after: float = 0.05,
        body: JSON | None = None,
        delay: float = 0.0,
        delay_after: float = 0.0,
        scope: str = "user",
        is_global: bool = False,
    ) -> Fault:
        """Fail the next `count` requests whose path (relative to the API base) fully matches.

        `status=None` only slows them: by `delay` before handling, by `delay_after` after handling.
        """
        fault = Fault(
            method=method.upper(),
            pattern=re.compile(path_regex),
            status=status,
            count=count,
            retry_after=retry_after,
            body=body,
            delay=delay,
            delay_after=delay_after,
            scope=scope,
            is_global=is_global,
        )
        self.faults.append(fault)
        return fault

    def clear_faults(self) -> None:
        self.faults.clear()

    def age(self, message: Message, seconds: float) -> Message:
        """Make `message` `seconds` older without waiting: its `timestamp` moves back, and so does
        the creation time the rate limits measure (an edit of a message over an hour old spends
        its small budget, error 30046). Its id keeps the time it was really made."""
        message.created_at -= dt.timedelta(seconds=seconds)
        self.limiter.age(message.id, seconds)
        return message

    age_message = age

    async def drop_gateway(self, code: int | None = None) -> None:
        """Cut the gateway connection(s) abruptly (no close frame unless `code` is given)."""
        conns = self.gateway.drop(code)
        await self.gateway.close_dropped(conns, code)
        self.notify()

    async def invalidate_session(self, *, resumable: bool = False) -> None:
        """Send INVALID_SESSION; the bot must IDENTIFY again (after ~5 s in discord.py)."""
        await self.gateway.invalidate(resumable=resumable)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT; the bot closes and RESUMEs."""
        await self.gateway.request_reconnect()

    # --- recorded traffic ---------------------------------------------------------------------

    def requests_to(self, method: str, path_regex: str) -> list[RecordedRequest]:
        pattern = re.compile(path_regex)
        return [r for r in self.requests if r.method in (method.upper(), "*") and pattern.fullmatch(r.path)]

    def sync_requests(self) -> list[RecordedRequest]:
        """Requests that changed registered commands (PUT/POST/PATCH/DELETE on command endpoints)."""
        return [r for r in self.requests if r.method != "GET" and COMMANDS_PATH.fullmatch(r.path)]

    # --- reading ------------------------------------------------------------------------------

    def messages(
        self,
        channel: Channel,
        *,
        include_ephemeral: bool = False,
        include_deleted: bool = False,
        include_system: bool = False,
    ) -> list[Message]:
        """What was posted in `channel`, oldest first; Discord's own notes (a thread started,
        someone added to it) only with `include_system`."""
        return [
            m
            for m in channel.messages
            if (include_ephemeral or not m.ephemeral)
            and (include_deleted or not m.deleted)
            and (include_system or not m.system)
        ]

    def last_message(self, channel: Channel) -> Message:
        messages = self.messages(channel)
        if not messages:
            raise LookupError(f"no messages in {channel!r}")
        return messages[-1]

    def message(self, message_id: int) -> Message:
        for channel in self.channels.values():
            for message in channel.messages:
                if message.id == message_id:
                    return message
        raise KeyError(f"no message {message_id}")

    def dms(self, user: User, *, include_deleted: bool = False) -> list[Message]:
        """Messages in the bot's DM channel with `user` (what the user received)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            return []
        return [m for m in channel.messages if include_deleted or not m.deleted]

    def can_see(self, user: User, message: Message) -> bool:
        if message.ephemeral:
            return message.interaction_user is user
        channel = message.channel
        if channel.is_dm:
            return channel.recipient is user
        guild = self.guild_of(channel)
        return guild is not None and bool(guild.channel_permissions(channel, user.id) & VIEW_CHANNEL)

    def all_visible_to(self, user: User) -> list[Message]:
        """Every message `user` could have seen, deleted ones included (they were shown once)."""
        return [m for channel in self.channels.values() for m in channel.messages if self.can_see(user, m)]

    def text_visible_to(self, user: User) -> str:
        """All text ever shown to `user`: every version of every visible message, their modals and
        autocomplete choices. Assert a secret is not `in` this to prove it never leaked."""
        parts = [m.all_text() for m in self.all_visible_to(user)]
        parts.extend(p.text() for p in self.modals if p.user is user)
        for record in self.interactions.values():
            if record.user is user and record.choices:
                parts.extend(str(c.get("name")) for c in record.choices)
        return "\n".join(parts)

    async def wait_for_message(
        self,
        channel: Channel,
        predicate: Callable[[Message], bool] | None = None,
        *,
        after: InteractionRecord | Message | int | None = None,
        timeout: float = 3.0,  # noqa: ASYNC109
        include_ephemeral: bool = False,
    ) -> Message:
        """Wait for a message in `channel` matching `predicate`, posted after `after` (an
        interaction, a message or an id: ids grow with time) or, by default, after this call."""
        if after is None:
            seen = {m.id for m in channel.messages}
            threshold = 0
        else:
            seen = set()
            threshold = after if isinstance(after, int) else after.id

        def found() -> Message | None:
            for message in channel.messages:
                if message.id in seen or message.id <= threshold or message.deleted:
                    continue
                if (message.ephemeral and not include_ephemeral) or message.system:
                    continue
                if predicate is None or predicate(message):
                    return message
            return None

        return await self.wait_until(found, timeout, f"a new message in {channel!r}")

    async def wait_for_dm(
        self,
        user: User,
        predicate: Callable[[Message], bool] | None = None,
        *,
        after: InteractionRecord | Message | int | None = None,
        timeout: float = 3.0,  # noqa: ASYNC109
    ) -> Message:
        return await self.wait_for_message(self.dm_channel(user), predicate, after=after, timeout=timeout)

    # --- driver: acting as users --------------------------------------------------------------

    async def slash(
        self,
        user: User,
        channel: Channel,
        command: str,
        /,
        *,
        bypass_checks: bool = False,
        locale: str | None = None,
        **options: Any,
    ) -> InteractionRecord:
        """Invoke `/command` ("roll", "killteam start") with options, as `user` in `channel` (with the
        user's own locale unless `locale` says otherwise)."""
        schema, sub_path = self._find_command(user, channel, command, bypass_checks=bypass_checks)
        data = build_chat_input_data(
            schema, sub_path, options, self._option_context(user, channel, command), enforce=not bypass_checks
        )
        return await self._send(APPLICATION_COMMAND, user, channel, data, command=command, locale=locale)

    async def autocomplete(
        self,
        user: User,
        channel: Channel,
        command: str,
        /,
        *,
        focused: str,
        locale: str | None = None,
        **options: Any,
    ) -> InteractionRecord:
        """Type into option `focused` of `/command`; the response carries the bot's choices."""
        schema, sub_path = self._find_command(user, channel, command, bypass_checks=False)
        data = build_chat_input_data(
            schema,
            sub_path,
            options,
            self._option_context(user, channel, command),
            focused=focused,
            enforce=False,
        )
        return await self._send(AUTOCOMPLETE, user, channel, data, command=command, locale=locale)

    async def user_command(self, user: User, channel: Channel, name: str, target: User) -> InteractionRecord:
        schema = self._find_context_menu(user, channel, name, 2)
        resolved: JSON = {"users": {str(target.id): target.payload()}}
        member = self._member_payload(channel, target)
        if member is not None:
            resolved["members"] = {str(target.id): member}
        data: JSON = {
            "id": schema["id"],
            "name": name,
            "type": 2,
            "target_id": str(target.id),
            "resolved": resolved,
        }
        if schema.get("guild_id"):
            data["guild_id"] = schema["guild_id"]
        return await self._send(APPLICATION_COMMAND, user, channel, data, command=name)

    async def message_command(self, user: User, name: str, target: Message) -> InteractionRecord:
        channel = target.channel
        schema = self._find_context_menu(user, channel, name, 3)
        self._check_sees(user, target)
        data: JSON = {
            "id": schema["id"],
            "name": name,
            "type": 3,
            "target_id": str(target.id),
            "resolved": {"messages": {str(target.id): target.payload()}},
        }
        if schema.get("guild_id"):
            data["guild_id"] = schema["guild_id"]
        return await self._send(APPLICATION_COMMAND, user, channel, data, command=name)

    async def click(
        self, user: User, message: Message, *, custom_id: str | None = None, label: str | None = None
    ) -> InteractionRecord:
        """Press a button (found by exact label, exact custom_id, or custom_id prefix ending ':')."""
        if custom_id is None and label is None:
            raise ValueError("click() needs custom_id= or label=")
        self._check_sees(user, message)
        button = message.button(label=label, custom_id=custom_id)
        if button.get("disabled"):
            raise NotAllowed(f"button {button.get('label')!r} on message {message.id} is disabled")
        if button.get("style") in (5, 6) or not button.get("custom_id"):
            raise NotAllowed(f"button {button.get('label')!r} opens a link; it sends no interaction")
        await self._react_after(message.changed_at)
        data: JSON = {"custom_id": button["custom_id"], "component_type": 2}
        if button.get("id") is not None:
            data["id"] = button["id"]
        return await self._send(
            MESSAGE_COMPONENT, user, message.channel, data, message=message, custom_id=button["custom_id"]
        )

    async def select(
        self,
        user: User,
        message: Message,
        custom_id: str | None,
        values: Sequence[Any],
        *,
        forged: bool = False,
    ) -> InteractionRecord:
        """Choose `values` in a select menu (option values; or users/roles/channels for those selects).

        `forged=True` sends string values the menu does not offer, as a modified client could (the
        Discord client offers only the menu's options), to test that the bot checks them itself."""
        self._check_sees(user, message)
        component = message.select(custom_id)
        if component.get("disabled"):
            raise NotAllowed(f"select {component.get('custom_id')!r} is disabled")
        kind = int(component.get("type", 3))
        low, high = int(component.get("min_values", 1)), int(component.get("max_values", 1))
        if not low <= len(values) <= high:
            raise OptionError(
                f"select {component.get('custom_id')!r} takes {low}..{high} values, got {len(values)}"
            )
        resolved: dict[str, dict[str, JSON]] = {}
        wire: list[str] = []
        if kind == 3:
            allowed = {o.get("value"): o for o in component.get("options") or []}
            for value in values:
                if value not in allowed and not forged:
                    raise OptionError(
                        f"select {component.get('custom_id')!r} has no option {value!r}; "
                        f"options: {list(allowed)}"
                    )
                wire.append(str(value))
        else:
            for value in values:
                wire.append(self._resolve_entity(value, message.channel, resolved))
        await self._react_after(message.changed_at)
        data: JSON = {"custom_id": component["custom_id"], "component_type": kind, "values": wire}
        if component.get("id") is not None:
            data["id"] = component["id"]
        if resolved:
            data["resolved"] = resolved
        return await self._send(
            MESSAGE_COMPONENT, user, message.channel, data, message=message, custom_id=component["custom_id"]
        )

    async def submit_modal(
        self,
        user: User,
        modal: ModalPrompt | str,
        values: Mapping[str, Any],
        *,
        channel: Channel | None = None,
        bypass_checks: bool = False,
    ) -> InteractionRecord:
        """Submit a modal the bot opened (a `ModalPrompt`, or its custom_id) with field values."""
        prompt = modal if isinstance(modal, ModalPrompt) else self._find_modal(user, modal)
        if prompt is None:
            assert isinstance(modal, str)
            if channel is None:
                raise ValueError(
                    f"no modal {modal!r} was opened for {user.name}; pass channel= to submit blind"
                )
            components: list[JSON] = [
                {"type": 1, "components": [{"type": 4, "custom_id": key, "value": str(value)}]}
                for key, value in values.items()
            ]
            data: JSON = {"custom_id": modal, "components": components}
            return await self._send(MODAL_SUBMIT, user, channel, data, custom_id=modal)
        if prompt.user is not user:
            raise NotAllowed(f"modal {prompt.custom_id!r} was opened for {prompt.user.name}, not {user.name}")
        fields = {f.custom_id: f for f in prompt.fields}
        unknown = [k for k in values if k not in fields]
        if unknown:
            raise OptionError(f"modal {prompt.custom_id!r} has no field {unknown}; fields: {list(fields)}")
        if not bypass_checks:
            for item in fields.values():
                value = values.get(item.custom_id)
                if item.required and (value is None or value == "" or value == []):
                    raise OptionError(f"modal {prompt.custom_id!r}: field {item.custom_id!r} is required")
                if isinstance(value, str):
                    if item.max_length is not None and len(value) > item.max_length:
                        raise OptionError(f"modal field {item.custom_id!r}: longer than {item.max_length}")
                    if value and item.min_length is not None and len(value) < item.min_length:
                        raise OptionError(f"modal field {item.custom_id!r}: shorter than {item.min_length}")
        await self._react_after(prompt.opened_at)
        resolved: dict[str, dict[str, JSON]] = {}
        submitted = [
            self._submitted_component(c, values, prompt.channel, resolved) for c in prompt.components
        ]
        data = {"custom_id": prompt.custom_id, "components": submitted}
        if resolved:
            data["resolved"] = resolved
        return await self._send(
            MODAL_SUBMIT,
            user,
            prompt.channel,
            data,
            message=prompt.source_message,
            custom_id=prompt.custom_id,
        )

    # --- driver internals ---------------------------------------------------------------------

    def _find_command(
        self, user: User, channel: Channel, command: str, *, bypass_checks: bool
    ) -> tuple[JSON, list[str]]:
        tokens = split_command(command)
        guild = self.guild_of(channel)
        schema = self.commands.find(tokens[0], 1, guild.id if guild else None)
        if schema is None:
            known = self.commands.names(guild.id if guild else None)
            where = f"in {guild.name}" if guild else "in DMs"
            raise CommandNotFound(
                f"/{tokens[0]} is not registered {where}; registered: {', '.join(known) or 'none'}"
            )
        self._check_can_use(user, channel, schema, bypass_checks=bypass_checks)
        return schema, tokens[1:]

    def _find_context_menu(self, user: User, channel: Channel, name: str, kind: int) -> JSON:
        guild = self.guild_of(channel)
        schema = self.commands.find(name, kind, guild.id if guild else None)
        if schema is None:
            raise CommandNotFound(f"no {'user' if kind == 2 else 'message'} command {name!r} is registered")
        self._check_can_use(user, channel, schema, bypass_checks=False)
        return schema

    def _check_can_use(self, user: User, channel: Channel, schema: JSON, *, bypass_checks: bool) -> None:
        guild = self.guild_of(channel)
        self._check_in_channel(user, channel)
        if bypass_checks:
            return
        contexts = schema.get("contexts")
        if guild is None:
            if (contexts is not None and 1 not in contexts) or schema.get("dm_permission") is False:
                raise NotAllowed(f"/{schema['name']} is not available in DMs")
            return
        if contexts is not None and 0 not in contexts:
            raise NotAllowed(f"/{schema['name']} is not available in servers")
        perms = guild.channel_permissions(channel, user.id)
        if not perms & USE_APPLICATION_COMMANDS:
            raise NotAllowed(f"{user.name} may not use application commands in {channel!r}")
        required = schema.get("default_member_permissions")
        if required is not None and not perms & ADMINISTRATOR and user.id != guild.owner_id:
            bits = int(required)
            if bits == 0 or perms & bits != bits:
                raise NotAllowed(
                    f"{user.name} cannot see /{schema['name']}: it needs permissions {bits} "
                    f"(Discord hides it; pass bypass_checks=True to send it anyway)"
                )

    def _check_in_channel(self, user: User, channel: Channel) -> None:
        if channel.is_dm:
            if channel.recipient is not user:
                raise NotAllowed(f"{user.name} is not in {channel!r}")
            return
        guild = self.guild_of(channel)
        if guild is None or user.id not in guild.members:
            raise NotAllowed(f"{user.name} is not a member of the guild of {channel!r}")
        if not guild.channel_permissions(channel, user.id) & VIEW_CHANNEL:
            raise NotAllowed(f"{user.name} cannot see {channel!r}")

    def _check_sees(self, user: User, message: Message) -> None:
        if message.deleted:
            raise NotAllowed(f"message {message.id} was deleted")
        self._check_in_channel(user, message.channel)
        if not self.can_see(user, message):
            raise NotAllowed(f"{user.name} cannot see message {message.id} (ephemeral for someone else)")

    def _find_modal(self, user: User, custom_id: str) -> ModalPrompt | None:
        for prompt in reversed(self.modals):
            if prompt.user is user and prompt.custom_id == custom_id:
                return prompt
        return None

    def _member_payload(self, channel: Channel, user: User) -> JSON | None:
        guild = self.guild_of(channel)
        if guild is None or user.id not in guild.members:
            return None
        return guild.members[user.id].payload(
            with_user=False, permissions=guild.channel_permissions(channel, user.id)
        )

    def _resolved_channel(self, channel: Channel, user: User) -> JSON:
        data = channel.payload()
        data["permissions"] = str(self.channel_permissions(channel, user))
        return data

    def _make_attachment(self, raw: Any) -> Attachment:
        if isinstance(raw, Attachment):
            return raw
        if isinstance(raw, Path):
            return self.upload(raw.name, raw.read_bytes())
        if (
            isinstance(raw, tuple)
            and len(raw) in (2, 3)
            and isinstance(raw[0], str)
            and isinstance(raw[1], bytes)
        ):
            return self.upload(raw[0], raw[1], content_type=raw[2] if len(raw) == 3 else None)
        raise OptionError(
            f"an attachment option takes emu.upload(...), a Path or (filename, bytes), not {raw!r}"
        )

    def _option_context(self, user: User, channel: Channel, command: str) -> OptionContext:
        return OptionContext(
            command_label=f"/{command}",
            member_payload=lambda target: self._member_payload(channel, target),
            channel_payload=lambda target: self._resolved_channel(target, user),
            make_attachment=self._make_attachment,
        )

    def _resolve_entity(self, value: Any, channel: Channel, resolved: dict[str, dict[str, JSON]]) -> str:
        if isinstance(value, Member):
            value = value.user
        if isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            member = self._member_payload(channel, value)
            if member is not None:
                resolved.setdefault("members", {})[str(value.id)] = member
            return str(value.id)
        if isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if isinstance(value, Channel):
            resolved.setdefault("channels", {})[str(value.id)] = self._resolved_channel(value, self.bot_user)
            return str(value.id)
        if isinstance(value, Attachment):
            resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
            return str(value.id)
        raise OptionError(f"cannot select {value!r}")

    def _submitted_component(
        self,
        component: JSON,
        values: Mapping[str, Any],
        channel: Channel,
        resolved: dict[str, dict[str, JSON]],
    ) -> JSON:
        kind = int(component.get("type", 0))
        out: JSON = {"type": kind}
        if component.get("id") is not None:
            out["id"] = component["id"]
        if kind == 1:
            out["components"] = [
                self._submitted_component(c, values, channel, resolved)
                for c in component.get("components") or []
            ]
            return out
        if kind == 18:
            out["component"] = self._submitted_component(component["component"], values, channel, resolved)
            return out
        custom_id = component.get("custom_id")
        if custom_id is None:
            return out
        out["custom_id"] = custom_id
        value = values.get(custom_id)
        if kind == 4:
            out["value"] = "" if value is None else str(value)
        elif kind == 3 or kind == 22:
            out["values"] = [str(v) for v in (value or [])]
        elif kind in (5, 6, 7, 8):
            out["values"] = [self._resolve_entity(v, channel, resolved) for v in (value or [])]
        elif kind == 19:
            out["values"] = [
                self._resolve_entity(self._make_attachment(v), channel, resolved) for v in (value or [])
            ]
        elif kind == 23:
            out["value"] = bool(value)
        elif kind == 21:
            out["value"] = value
        return out

    async def _react_after(self, changed_at: float) -> None:
        wait = changed_at + self.min_reaction_time - time.perf_counter()
        if wait > 0:
            await asyncio.sleep(wait)

    async def _send(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: JSON,
        *,
        command: str | None = None,
        custom_id: str | None = None,
        message: Message | None = None,
        locale: str | None = None,
    ) -> InteractionRecord:
        guild = self.guild_of(channel)
        locale = locale or user.locale
        interaction_id = self.ids.next()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(96)
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "locale": locale,
            "app_permissions": str(self.bot_permissions(channel)),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id) if guild else "0"},
            "context": 0 if guild else 1,
            "attachment_size_limit": self.attachment_size_limit,
            "channel_id": str(channel.id),
            "channel": self._resolved_channel(channel, user),
        }
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["guild_locale"] = guild.locale
            payload["member"] = guild.members[user.id].payload(
                permissions=guild.channel_permissions(channel, user.id)
            )
        else:
            payload["user"] = user.payload()
        if message is not None:
            payload["message"] = message.payload()
        record = InteractionRecord(
            id=interaction_id,
            token=token,
            type=kind,
            user=user,
            channel=channel,
            guild=guild,
            payload=payload,
            wait_until=self.wait_until,
            command=command,
            custom_id=custom_id,
            source_message=message,
        )
        session = await self.wait_until(
            lambda: self.gateway.session_for(guild.id if guild else None),
            self.connect_timeout,
            "a live gateway connection to send the interaction on",
        )
        self.interactions[interaction_id] = record
        self.interactions_by_token[token] = record
        record.sent_wall = time.time()
        record.sent_at = time.perf_counter()
        await self.gateway.dispatch_to(session, "INTERACTION_CREATE", payload)
        return record

    # --- message store (used by the REST handlers) --------------------------------------------

    async def post_message(
        self,
        channel: Channel,
        fields: JSON,
        *,
        author: User | None = None,
        record: InteractionRecord | None = None,
        message_type: int = 0,
        mentioned: list[User] | None = None,
    ) -> Message:
        message = Message(
            id=self.ids.next(),
            channel=channel,
            author=author or self.bot_user,
            type=message_type,
            mentioned=list(mentioned or []),
        )
        apply_fields(message, fields)
        self.limiter.note_created(message)
        if record is not None:
            message.interaction_id = record.id
            message.interaction_user = record.user
            message.interaction_type = record.type
            message.interaction_name = record.command
            if record.source_message is not None:
                message.interacted_message_id = record.source_message.id
            message.webhook_id = self.application_id
            message.application_id = self.application_id
        channel.messages.append(message)
        if not message.ephemeral:
            await self.gateway.dispatch_message_event(
                channel.guild_id, "MESSAGE_CREATE", self._message_event(message)
            )
        self.notify()
        return message

    async def edit_message(self, message: Message, fields: JSON) -> Message:
        message.history.append(message.snapshot())
        apply_fields(message, fields, editing=True)
        message.edited_at = utcnow()
        message.changed_at = time.perf_counter()
        if not message.ephemeral:
            await self.gateway.dispatch_message_event(
                message.guild_id, "MESSAGE_UPDATE", self._message_event(message)
            )
        self.notify()
        return message

    async def delete_message(self, message: Message) -> None:
        message.deleted = True
        if not message.ephemeral:
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if message.guild_id is not None:
                data["guild_id"] = str(message.guild_id)
            await self.gateway.dispatch_message_event(message.guild_id, "MESSAGE_DELETE", data)
        self.notify()

    def _message_event(self, message: Message) -> JSON:
        data = message.payload()
        guild = self.guild_of(message.channel)
        if guild is not None:
            data["guild_id"] = str(guild.id)
            member = guild.members.get(message.author.id)
            if member is not None:
                data["member"] = member.payload(with_user=False)
        return data

    def _spawn(self, coro: Any) -> None:
        """Run a gateway notification now if a loop is running (world edits are synchronous)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            coro.close()
            return
        task = loop.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)


def apply_fields(message: Message, fields: JSON, *, editing: bool = False) -> None:
    """Apply content/embeds/components/attachments/flags from a (validated) payload."""
    if "content" in fields:
        message.content = fields["content"] or ""
    if "embeds" in fields:
        message.embeds = [{"type": "rich", **e} for e in copy.deepcopy(fields["embeds"] or [])]
    if "components" in fields:
        message.components = number_components(copy.deepcopy(fields["components"] or []))
    if "attachments" in fields:
        message.attachments = list(fields["attachments"])
    if "flags" in fields:
        flags = int(fields["flags"] or 0)
        keep = message.flags & (FLAG_EPHEMERAL | FLAG_HAS_THREAD) if editing else 0
        message.flags = (flags & ~(FLAG_EPHEMERAL | FLAG_HAS_THREAD)) | keep if editing else flags
    if "poll" in fields:
        message.poll = fields["poll"]
    if "message_reference" in fields:
        message.message_reference = fields["message_reference"]


def number_components(components: list[JSON]) -> list[JSON]:
    """Give every component a numeric `id` as Discord does (unique within the message)."""
    from .model import walk_components

    used = {c["id"] for c in walk_components(components) if isinstance(c.get("id"), int)}
    counter = 1
    for component in walk_components(components):
        if component.get("id") is None:
            while counter in used:
                counter += 1
            component["id"] = counter
            used.add(counter)
    return components


def _make_token(user_id: int) -> str:
    head = base64.urlsafe_b64encode(str(user_id).encode()).decode().rstrip("=")
    return f"{head}.{secrets.token_urlsafe(5)[:6]}.{secrets.token_urlsafe(30)[:38]}"
