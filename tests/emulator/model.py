"""The emulated Discord world: users, guilds, roles, channels, members, messages, attachments.

Objects here are plain mutable records owned by one `Emulator`; they know how to render
themselves as Discord API payloads (the shapes discord.py 2.7 parses).
"""

from __future__ import annotations

import datetime as dt
import mimetypes
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_HAS_THREAD = 1 << 5
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# Message types Discord posts itself (besides 0, a plain message, and 20, a command's answer).
RECIPIENT_ADD = 7  # someone was added to a thread by another
THREAD_CREATED = 18  # a public thread was started without a message (in its parent)
THREAD_STARTER = 21  # the first message of a thread started from a message: points back at it
SYSTEM_TYPES = (RECIPIENT_ADD, THREAD_CREATED, THREAD_STARTER)

# Channel types.
GUILD_TEXT = 0
DM = 1
GUILD_VOICE = 2
GUILD_ANNOUNCEMENT = 5
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
GUILD_FORUM = 15
THREAD_TYPES = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
# The only auto-archive durations (minutes) Discord accepts for a thread.
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
# A thread's member_count stops at 50, as Discord's does.
THREAD_MEMBER_COUNT_CAP = 50

# Gateway intents the emulator looks at.
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT

ALL_PERMISSIONS = discord.Permissions.all().value
ADMINISTRATOR = discord.Permissions(administrator=True).value
VIEW_CHANNEL = discord.Permissions(view_channel=True).value
MANAGE_THREADS = discord.Permissions(manage_threads=True).value


def permissions(*names: str, **flags: bool) -> int:
    """Permission bits from discord.py's flag names ("manage_guild", "send_messages", ...)."""
    value = discord.Permissions(**{name: True for name in names}, **flags).value
    return int(value)


EVERYONE_PERMISSIONS = permissions(
    "view_channel",
    "send_messages",
    "send_messages_in_threads",
    "create_public_threads",
    "create_private_threads",
    "read_message_history",
    "embed_links",
    "attach_files",
    "add_reactions",
    "use_external_emojis",
    "use_application_commands",
    "create_instant_invite",
    "change_nickname",
)
BOT_PERMISSIONS = permissions(
    "view_channel",
    "create_events",
    "send_messages",
    "send_messages_in_threads",
    "create_public_threads",
    "create_private_threads",
    "read_message_history",
    "embed_links",
    "attach_files",
    "add_reactions",
    "use_external_emojis",
    "use_application_commands",
)
DM_APP_PERMISSIONS = permissions(
    "view_channel",
    "send_messages",
    "read_message_history",
    "embed_links",
    "attach_files",
    "add_reactions",
    "use_external_emojis",
    "use_application_commands",
)


class Snowflakes:
    """Time-based, strictly increasing snowflake ids (19 digits today, like Discord's)."""

    def __init__(self, worker: int = 1) -> None:
        self._worker = worker & 0x1F
        self._last_ms = 0
        self._increment = 0

    def next(self) -> int:
        now_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        if now_ms <= self._last_ms:
            now_ms = self._last_ms
            self._increment += 1
            if self._increment >= 4096:
                now_ms += 1
                self._increment = 0
        else:
            self._increment = 0
        self._last_ms = now_ms
        return (now_ms << 22) | (self._worker << 17) | self._increment

    def next_in_new_millisecond(self) -> int:
        """An id in a fresh millisecond: guild ids minted together then spread over shards
        ((id >> 22) % shard_count), as real guilds created at different times do."""
        self._last_ms = max(self._last_ms + 1, int(time.time() * 1000) - DISCORD_EPOCH_MS)
        self._increment = 0
        return (self._last_ms << 22) | (self._worker << 17)


def snowflake_time(snowflake: int) -> dt.datetime:
    return dt.datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=dt.UTC)


def iso(moment: dt.datetime) -> str:
    return moment.isoformat()


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    global_name: str | None = None
    dms_open: bool = True
    locale: str = "en-US"  # the Discord language the user's client is set to; their interactions carry it

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.global_name or self.name

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name,
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
            "primary_guild": None,
            "collectibles": None,
            "display_name_styles": None,
        }
        if self.bot:
            data["bot"] = True
        return data

    def __repr__(self) -> str:
        return f"<User {self.name} {self.id}{' bot' if self.bot else ''}>"


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "description": None,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data

    def __repr__(self) -> str:
        return f"<Role {self.name} {self.id}>"


@dataclass
class Overwrite:
    """A channel permission overwrite; type 0 targets a role, type 1 a member."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> JSON:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass(eq=False)
class Channel:
    """A guild channel, a DM, or a thread (type 10/11/12: it lives in its parent's guild, its
    permissions are the parent's, and one started from a message has that message's id)."""

    id: int
    name: str
    type: int = GUILD_TEXT
    guild_id: int | None = None
    position: int = 0
    topic: str | None = None
    recipient: User | None = None
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    messages: list[Message] = field(default_factory=list)
    # Threads only.
    parent_id: int | None = None
    owner_id: int | None = None
    thread_members: dict[int, dt.datetime] = field(default_factory=dict)  # user id -> joined
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    archive_timestamp: dt.datetime = field(default_factory=utcnow)
    rate_limit_per_user: int = 0
    created_at: dt.datetime = field(default_factory=utcnow)

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def member_ids(self) -> list[int]:
        """The users who joined this thread, in the order they joined."""
        return list(self.thread_members)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def last_message_id(self) -> int | None:
        return self.messages[-1].id if self.messages else None

    def payload(self, *, with_guild_id: bool = True) -> JSON:
        if self.is_dm:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": _opt_str(self.last_message_id),
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        if self.is_thread:
            return self._thread_payload()
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "position": self.position,
            "parent_id": None,
            "topic": self.topic,
            "nsfw": False,
            "last_message_id": _opt_str(self.last_message_id),
            "rate_limit_per_user": 0,
            "permission_overwrites": [ow.payload() for ow in self.overwrites.values()],
            "flags": 0,
        }
        if self.type == GUILD_VOICE:
            data.update({"bitrate": 64000, "user_limit": 0, "rtc_region": None})
        elif self.type == GUILD_FORUM:
            data.update(
                {
                    "available_tags": [],
                    "default_reaction_emoji": None,
                    "default_sort_order": None,
                    "default_forum_layout": 0,
                    "default_thread_rate_limit_per_user": 0,
                }
            )
        if with_guild_id:
            data["guild_id"] = str(self.guild_id)
        return data

    def _thread_payload(self) -> JSON:
        shown = [m for m in self.messages if not m.ephemeral]
        metadata: JSON = {
            "archived": self.archived,
            "auto_archive_duration": self.auto_archive_duration,
            "archive_timestamp": iso(self.archive_timestamp),
            "locked": self.locked,
            "create_timestamp": iso(self.created_at),
        }
        if self.type == PRIVATE_THREAD:
            metadata["invitable"] = self.invitable
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "parent_id": _opt_str(self.parent_id),
            "owner_id": _opt_str(self.owner_id),
            "name": self.name,
            "last_message_id": _opt_str(shown[-1].id if shown else None),
            "rate_limit_per_user": self.rate_limit_per_user,
            "flags": 0,
            # Discord counts neither the starter note (THREAD_STARTER) nor, in message_count, deletions.
            "message_count": sum(1 for m in shown if not m.deleted and m.type != THREAD_STARTER),
            "total_message_sent": sum(1 for m in shown if m.type != THREAD_STARTER),
            "member_count": min(len(self.thread_members), THREAD_MEMBER_COUNT_CAP),
            "thread_metadata": metadata,
        }

    def thread_member_payload(self, user_id: int, *, member: JSON | None = None) -> JSON:
        """A thread member object (`member` is the guild member payload, where Discord adds it)."""
        data: JSON = {
            "id": str(self.id),
            "user_id": str(user_id),
            "join_timestamp": iso(self.thread_members[user_id]),
            "flags": 0,
        }
        if member is not None:
            data["member"] = member
        return data

    def __repr__(self) -> str:
        if self.is_dm and self.recipient is not None:
            return f"<DM with {self.recipient.name} {self.id}>"
        if self.is_thread:
            return f"<Thread {self.name!r} {self.id} in {self.parent_id}>"
        return f"<Channel #{self.name} {self.id}>"


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    joined_at: dt.datetime = field(default_factory=utcnow)
    nick: str | None = None

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> JSON:
        data: JSON = {
            "roles": [str(r) for r in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
            "avatar_decoration_data": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    threads: dict[int, Channel] = field(default_factory=dict)  # kept apart, as Discord lists them
    members: dict[int, Member] = field(default_factory=dict)
    joined_at: dt.datetime = field(default_factory=utcnow)
    locale: str = (
        "en-US"  # the server's preferred locale (Community settings); GUILD_CREATE and interactions carry it
    )

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]

    def text_channels(self) -> list[Channel]:
        return list(self.channels.values())

    def active_threads(self) -> list[Channel]:
        return [t for t in self.threads.values() if not t.archived]

    def channel(self, name: str) -> Channel:
        name = name.lstrip("#")
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise KeyError(f"guild {self.name!r} has no channel #{name}")

    def role(self, name: str) -> Role:
        for role in self.roles.values():
            if role.name == name:
                return role
        raise KeyError(f"guild {self.name!r} has no role {name!r}")

    def base_permissions(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        if member is None:
            return 0
        value = self.everyone.permissions
        for role_id in member.role_ids:
            role = self.roles.get(role_id)
            if role is not None:
                value |= role.permissions
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value

    def channel_permissions(self, channel: Channel, user_id: int) -> int:
        """Discord's permission algorithm: base, then @everyone, role and member overwrites.

        A thread has its parent's permissions; a private thread is seen only by its members and
        by those who may manage threads."""
        if channel.is_thread:
            parent = self.channels.get(channel.parent_id or 0)
            if parent is None:
                return 0
            value = self.channel_permissions(parent, user_id)
            if (
                channel.type == PRIVATE_THREAD
                and user_id not in channel.thread_members
                and not value & MANAGE_THREADS
            ):
                return 0
            return value
        value = self.base_permissions(user_id)
        if value == ALL_PERMISSIONS or user_id not in self.members:
            return value
        everyone = channel.overwrites.get(self.id)
        if everyone is not None:
            value = (value & ~everyone.deny) | everyone.allow
        member = self.members[user_id]
        allow = deny = 0
        for role_id in member.role_ids:
            overwrite = channel.overwrites.get(role_id)
            if overwrite is not None and overwrite.type == 0:
                allow |= overwrite.allow
                deny |= overwrite.deny
        value = (value & ~deny) | allow
        own = channel.overwrites.get(user_id)
        if own is not None and own.type == 1:
            value = (value & ~own.deny) | own.allow
        if not value & VIEW_CHANNEL:
            return 0
        return value

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [role.payload() for role in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "incidents_data": None,
        }

    def __repr__(self) -> str:
        return f"<Guild {self.name} {self.id}>"


@dataclass(eq=False)
class Attachment:
    """A file held by the emulator (sent by the bot, or uploaded by a user for an option)."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None
    width: int | None = None
    height: int | None = None
    ephemeral: bool = False

    @classmethod
    def create(
        cls,
        *,
        id: int,
        filename: str,
        data: bytes,
        cdn_base: str,
        channel_id: int,
        content_type: str | None = None,
        description: str | None = None,
    ) -> Attachment:
        if content_type is None or content_type == "application/octet-stream":
            guessed, _ = mimetypes.guess_type(filename)
            content_type = guessed or content_type
            if content_type is not None and content_type.startswith("text/"):
                content_type += "; charset=utf-8"
        width = height = None
        if content_type is not None and content_type.startswith("image/"):
            width, height = _image_size(data)
        url = f"{cdn_base}/attachments/{channel_id}/{id}/{filename}"
        return cls(
            id=id,
            filename=filename,
            data=data,
            url=url,
            content_type=content_type,
            description=description,
            width=width,
            height=height,
        )

    @property
    def size(self) -> int:
        return len(self.data)

    def text(self, encoding: str = "utf-8") -> str:
        return self.data.decode(encoding)

    def is_text(self) -> bool:
        if self.content_type is not None and (
            self.content_type.startswith("text/") or "json" in self.content_type or "csv" in self.content_type
        ):
            return True
        return self.filename.lower().endswith((".txt", ".csv", ".json", ".yaml", ".yml", ".toml", ".md"))

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "description": self.description,
            "ephemeral": self.ephemeral,
            "flags": 0,
        }
        if self.width is not None:
            data["width"] = self.width
            data["height"] = self.height
        return data

    def __repr__(self) -> str:
        return f"<Attachment {self.filename} {self.size} bytes>"


def _image_size(data: bytes) -> tuple[int | None, int | None]:
    try:
        import io

        from PIL import Image

        with Image.open(io.BytesIO(data)) as image:
            return image.width, image.height
    except Exception:
        return None, None


@dataclass
class MessageVersion:
    """One state of a message, kept so tests can read everything a user ever saw."""

    content: str
    embeds: list[JSON]
    components: list[JSON]
    attachments: list[Attachment]
    flags: int
    at: dt.datetime


@dataclass(eq=False)
class Message:
    id: int
    channel: Channel
    author: User
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: dt.datetime = field(default_factory=utcnow)
    edited_at: dt.datetime | None = None
    deleted: bool = False
    # Set when the message answers an interaction: the interaction's id and its user (who alone
    # sees it when ephemeral), the interaction kind and command name for interaction_metadata.
    interaction_id: int | None = None
    interaction_user: User | None = None
    interaction_type: int | None = None
    interaction_name: str | None = None
    interacted_message_id: int | None = None
    original_response_id: int | None = None  # on followups: the interaction's first response
    webhook_id: int | None = None
    application_id: int | None = None
    message_reference: JSON | None = None
    poll: JSON | None = None
    thread: Channel | None = None  # the thread started from this message
    mentioned: list[User] = field(default_factory=list)  # a system message's subject (RECIPIENT_ADD)
    reactions: dict[str, set[int]] = field(default_factory=dict)
    history: list[MessageVersion] = field(default_factory=list)
    changed_at: float = field(default_factory=time.perf_counter)  # perf_counter of the last change

    @property
    def guild_id(self) -> int | None:
        return self.channel.guild_id

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def system(self) -> bool:
        """Posted by Discord itself to note something (a thread started, someone added to it)."""
        return self.type in SYSTEM_TYPES

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def jump_url(self) -> str:
        return f"https://discord.com/channels/{self.guild_id or '@me'}/{self.channel.id}/{self.id}"

    def snapshot(self) -> MessageVersion:
        return MessageVersion(
            content=self.content,
            embeds=list(self.embeds),
            components=list(self.components),
            attachments=list(self.attachments),
            flags=self.flags,
            at=self.edited_at or self.created_at,
        )

    # --- reading components -------------------------------------------------------------------

    def walk_components(self) -> Iterator[JSON]:
        yield from walk_components(self.components)

    def buttons(self) -> list[JSON]:
        return [c for c in self.walk_components() if c.get("type") == 2]

    def selects(self) -> list[JSON]:
        return [c for c in self.walk_components() if c.get("type") in (3, 5, 6, 7, 8)]

    def button(self, *, label: str | None = None, custom_id: str | None = None) -> JSON:
        """The one button matching `label` (exact) or `custom_id` (exact, or a prefix ending in ':')."""
        matches = [b for b in self.buttons() if _component_matches(b, label=label, custom_id=custom_id)]
        if not matches:
            available = [(b.get("label"), b.get("custom_id")) for b in self.buttons()]
            raise LookupError(
                f"message {self.id} has no button with label={label!r} custom_id={custom_id!r}; "
                f"buttons: {available}"
            )
        if len(matches) > 1:
            raise LookupError(f"message {self.id} has {len(matches)} buttons matching label={label!r}")
        return matches[0]

    def select(self, custom_id: str | None = None) -> JSON:
        selects = self.selects()
        matches = [s for s in selects if custom_id is None or _component_matches(s, custom_id=custom_id)]
        if len(matches) != 1:
            available = [s.get("custom_id") for s in selects]
            raise LookupError(
                f"message {self.id}: {len(matches)} selects match custom_id={custom_id!r}; "
                f"selects: {available}"
            )
        return matches[0]

    # --- text, for assertions and leak checks --------------------------------------------------

    def text(self) -> str:
        """Everything a reader sees in the current version: content, embeds, components, text files."""
        return _version_text(self.snapshot())

    def all_text(self) -> str:
        """Every version's text, so an edit cannot hide what was once shown."""
        versions = [*self.history, self.snapshot()]
        return "\n".join(_version_text(v) for v in versions)

    def embed_text(self) -> str:
        return "\n".join(_embed_text(e) for e in self.embeds)

    # --- payload ------------------------------------------------------------------------------

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.type,
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": iso(self.edited_at) if self.edited_at else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [user.payload() for user in self.mentioned],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            metadata: JSON = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user.payload(),
                "authorizing_integration_owners": (
                    {"0": str(self.guild_id)} if self.guild_id is not None else {"0": "0"}
                ),
            }
            if self.interacted_message_id is not None:
                metadata["interacted_message_id"] = str(self.interacted_message_id)
            if self.original_response_id is not None:
                metadata["original_response_message_id"] = str(self.original_response_id)
            data["interaction_metadata"] = metadata
            if self.interaction_name is not None and self.interaction_type == 2:
                # The deprecated field, still sent for application command responses.
                data["interaction"] = {
                    "id": str(self.interaction_id),
                    "type": 2,
                    "name": self.interaction_name,
                    "user": self.interaction_user.payload(),
                }
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        if self.poll is not None:
            data["poll"] = self.poll
        if self.thread is not None:
            data["thread"] = self.thread.payload()
            data["flags"] = self.flags | FLAG_HAS_THREAD
        if self.reactions:
            data["reactions"] = [
                {"emoji": {"id": None, "name": emoji}, "count": len(users), "me": self.author.id in users}
                for emoji, users in self.reactions.items()
            ]
        return data

    def __repr__(self) -> str:
        flags = " ephemeral" if self.ephemeral else ""
        preview = self.content[:40] or (self.embeds[0].get("title", "") if self.embeds else "")
        return f"<Message {self.id} in {self.channel!r}{flags} {preview!r}>"


def walk_components(components: list[JSON]) -> Iterator[JSON]:
    for component in components:
        yield component
        children = component.get("components")
        if isinstance(children, list):
            yield from walk_components(children)
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


def _component_matches(component: JSON, *, label: str | None = None, custom_id: str | None = None) -> bool:
    if label is not None and component.get("label") != label:
        return False
    if custom_id is not None:
        actual = component.get("custom_id") or ""
        if custom_id.endswith(":"):
            return bool(actual.startswith(custom_id))
        return bool(actual == custom_id)
    return True


def _embed_text(embed: JSON) -> str:
    parts: list[str] = []
    for key in ("title", "description", "url"):
        if embed.get(key):
            parts.append(str(embed[key]))
    for sub, key in (("author", "name"), ("footer", "text")):
        value = (embed.get(sub) or {}).get(key)
        if value:
            parts.append(str(value))
    for embed_field in embed.get("fields") or []:
        parts.append(str(embed_field.get("name", "")))
        parts.append(str(embed_field.get("value", "")))
    return "\n".join(parts)


def component_text(components: list[JSON]) -> str:
    parts: list[str] = []
    for component in walk_components(components):
        for key in ("label", "placeholder", "content", "value", "description", "title"):
            value = component.get(key)
            if isinstance(value, str) and value:
                parts.append(value)
        for option in component.get("options") or []:
            parts.append(str(option.get("label", "")))
            if option.get("description"):
                parts.append(str(option["description"]))
    return "\n".join(parts)


def _version_text(version: MessageVersion) -> str:
    parts = [version.content]
    parts.extend(_embed_text(e) for e in version.embeds)
    parts.append(component_text(version.components))
    for attachment in version.attachments:
        parts.append(attachment.filename)
        if attachment.is_text():
            try:
                parts.append(attachment.text())
            except UnicodeDecodeError:
                pass
    return "\n".join(p for p in parts if p)


def _opt_str(value: int | None) -> str | None:
    return None if value is None else str(value)
