"""The emulated gateway: HELLO, IDENTIFY/READY/GUILD_CREATE, heartbeats, RESUME, dispatches.

Frames are plain JSON text (discord.py parses text frames as JSON even when it asked for
zlib-stream). Each IDENTIFY opens a session that outlives its socket, so a dropped connection can
RESUME and receive the events it missed.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections import deque
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .model import (
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MEMBERS,
    INTENT_GUILD_MESSAGES,
    JSON,
    PRIVILEGED_INTENTS,
    VIEW_CHANNEL,
    Guild,
    utcnow,
)

if TYPE_CHECKING:
    from .emulator import Emulator

OP_DISPATCH = 0
OP_HEARTBEAT = 1
OP_IDENTIFY = 2
OP_PRESENCE_UPDATE = 3
OP_VOICE_STATE_UPDATE = 4
OP_RESUME = 6
OP_RECONNECT = 7
OP_REQUEST_GUILD_MEMBERS = 8
OP_INVALID_SESSION = 9
OP_HELLO = 10
OP_HEARTBEAT_ACK = 11

REPLAY_BUFFER = 2000


@dataclass
class GatewayEvent:
    """A gateway event as the emulator logged it (both directions)."""

    at: float
    direction: str  # "send" (emulator -> bot) or "recv"
    op: int
    event: str | None
    shard_id: int | None
    session_id: str | None


@dataclass(eq=False)
class GatewaySession:
    id: str
    shard_id: int
    shard_count: int
    intents: int
    seq: int = 0
    connection: GatewayConnection | None = None
    ready: bool = False
    invalid: bool = False
    presence: JSON | None = None
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=REPLAY_BUFFER))

    def handles_guild(self, guild_id: int) -> bool:
        return (guild_id >> 22) % self.shard_count == self.shard_id

    @property
    def live(self) -> bool:
        return self.connection is not None and self.ready and not self.invalid


@dataclass(eq=False)
class GatewayConnection:
    ws: web.WebSocketResponse
    request: web.Request
    path: str
    session: GatewaySession | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    heartbeats: int = 0
    dropped: bool = False

    async def send_text(self, text: str) -> bool:
        if self.dropped or self.ws.closed:
            return False
        async with self.lock:
            try:
                await self.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return False
        return True


class Gateway:
    def __init__(self, emulator: Emulator) -> None:
        self.emu = emulator
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: list[GatewayConnection] = []
        self.log: list[GatewayEvent] = []
        self.identify_count = 0
        self.resume_count = 0

    # --- queries ------------------------------------------------------------------------------

    def live_sessions(self) -> list[GatewaySession]:
        return [s for s in self.sessions.values() if s.live]

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The newest live session that receives events for this guild (DMs go to shard 0)."""
        candidates = [
            s
            for s in self.live_sessions()
            if (s.handles_guild(guild_id) if guild_id is not None else s.shard_id == 0)
        ]
        return candidates[-1] if candidates else None

    def all_shards_live(self) -> bool:
        live = {s.shard_id for s in self.live_sessions()}
        return all(shard in live for shard in range(self.emu.shard_count))

    def shards_live(self, shard_ids: Iterable[int], *, besides: Collection[str] = ()) -> bool:
        """Whether each of these shards has a live session other than `besides` (sessions that were
        there before a process started: its own are the new ones)."""
        live = {s.shard_id for s in self.live_sessions() if s.id not in besides}
        return all(shard in live for shard in shard_ids)

    # --- websocket handler --------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        conn = GatewayConnection(ws=ws, request=request, path=request.path)
        self.connections.append(conn)
        try:
            await self._send_op(
                conn,
                OP_HELLO,
                {"heartbeat_interval": self.emu.heartbeat_interval_ms, "_trace": ["muster-emulator"]},
            )
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    try:
                        frame = json.loads(msg.data)
                    except ValueError:
                        await ws.close(code=4002, message=b"Error while decoding payload.")
                        break
                    await self._on_frame(conn, frame)
                elif msg.type is WSMsgType.BINARY:
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                elif msg.type is WSMsgType.ERROR:
                    break
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            if conn.session is not None and not conn.dropped and ws.close_code in (1000, 1001):
                # A clean close ends the session on Discord: it cannot be resumed.
                conn.session.invalid = True
            self._detach(conn)
            if conn in self.connections:
                self.connections.remove(conn)
            self.emu.notify()
        return ws

    def _detach(self, conn: GatewayConnection) -> None:
        session = conn.session
        if session is not None and session.connection is conn:
            session.connection = None

    async def _on_frame(self, conn: GatewayConnection, frame: JSON) -> None:
        op = frame.get("op")
        data = frame.get("d")
        session = conn.session
        self.log.append(
            GatewayEvent(
                time.time(),
                "recv",
                int(op or -1),
                None,
                session.shard_id if session else None,
                session.id if session else None,
            )
        )
        if op == OP_HEARTBEAT:
            conn.heartbeats += 1
            await self._send_op(conn, OP_HEARTBEAT_ACK, None)
        elif op == OP_IDENTIFY:
            await self._identify(conn, data or {})
        elif op == OP_RESUME:
            await self._resume(conn, data or {})
        elif op == OP_PRESENCE_UPDATE:
            if session is not None:
                session.presence = data
        elif op == OP_REQUEST_GUILD_MEMBERS:
            await self._request_members(conn, data or {})
        elif op == OP_VOICE_STATE_UPDATE:
            pass
        else:
            await conn.ws.close(code=4001, message=b"Unknown opcode.")

    async def _identify(self, conn: GatewayConnection, data: JSON) -> None:
        if conn.session is not None:
            await conn.ws.close(code=4005, message=b"Already authenticated.")
            return
        if data.get("token") != self.emu.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = data.get("shard") or [0, 1]
        shard_id, shard_count = int(shard[0]), int(shard[1])
        if not 0 <= shard_id < shard_count:
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        intents = int(data.get("intents") or 0)
        if intents & PRIVILEGED_INTENTS & ~self.emu.privileged_intents:
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        self.identify_count += 1
        session = GatewaySession(
            id=secrets.token_hex(16), shard_id=shard_id, shard_count=shard_count, intents=intents
        )
        self.sessions[session.id] = session
        conn.session = session
        session.connection = conn
        guilds = [g for g in self.emu.guilds.values() if session.handles_guild(g.id)]
        ready = {
            "v": 10,
            "user": self.emu.bot_user_payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.emu.resume_gateway_url,
            "shard": [shard_id, shard_count],
            "application": {"id": str(self.emu.application_id), "flags": self.emu.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": ["rotterdam"],
            "guild_join_requests": [],
            "user_settings": {},
            "auth_session_id_hash": secrets.token_hex(8),
            "_trace": ["muster-emulator"],
        }
        await self.dispatch_to(session, "READY", ready)
        for guild in guilds:
            await self.dispatch_to(session, "GUILD_CREATE", self.guild_create(guild, session.intents))
        session.ready = True
        self.emu.notify()

    async def _resume(self, conn: GatewayConnection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or session.invalid or data.get("token") != self.emu.token:
            await self._send_op(conn, OP_INVALID_SESSION, False)
            return
        self.resume_count += 1
        old = session.connection
        if old is not None and old is not conn:
            old.dropped = True
            await old.ws.close(code=4009, message=b"Session superseded.")
        conn.session = session
        session.connection = conn
        client_seq = int(data.get("seq") or 0)
        for seq, text in list(session.buffer):
            if seq > client_seq:
                await conn.send_text(text)
        await self.dispatch_to(session, "RESUMED", {"_trace": ["muster-emulator"]})
        session.ready = True
        self.emu.notify()

    async def _request_members(self, conn: GatewayConnection, data: JSON) -> None:
        session = conn.session
        if session is None:
            return
        guild = self.emu.guilds.get(int(data.get("guild_id") or 0))
        if guild is None:
            return
        members = list(guild.members.values())
        user_ids = data.get("user_ids")
        if user_ids:
            wanted = {int(u) for u in (user_ids if isinstance(user_ids, list) else [user_ids])}
            members = [m for m in members if m.user.id in wanted]
        query = data.get("query") or ""
        if query:
            members = [m for m in members if m.user.name.lower().startswith(query.lower())]
        limit = int(data.get("limit") or 0)
        if limit:
            members = members[:limit]
        chunk: JSON = {
            "guild_id": str(guild.id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        if data.get("presences"):
            chunk["presences"] = []
        await self.dispatch_to(session, "GUILD_MEMBERS_CHUNK", chunk)

    # --- payloads -----------------------------------------------------------------------------

    def guild_create(self, guild: Guild, intents: int) -> JSON:
        bot_id = self.emu.bot_user.id
        if intents & INTENT_GUILD_MEMBERS:
            members = list(guild.members.values())
        else:
            members = [m for m in guild.members.values() if m.user.id == bot_id]
        data = guild.payload()
        bot_member = guild.members.get(bot_id)
        # The active threads the bot can see, so a (re)connected bot knows them.
        threads = [
            self.emu.thread_event(t)
            for t in guild.active_threads()
            if guild.channel_permissions(t, bot_id) & VIEW_CHANNEL
        ]
        data.update(
            {
                "unavailable": False,
                "joined_at": (bot_member.joined_at if bot_member else utcnow()).isoformat(),
                "large": False,
                "lazy": True,
                "member_count": len(guild.members),
                "members": [m.payload() for m in members],
                "channels": [c.payload(with_guild_id=False) for c in guild.channels.values()],
                "threads": threads,
                "presences": [],
                "voice_states": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
                "embedded_activities": [],
                "application_command_counts": {},
            }
        )
        return data

    # --- sending ------------------------------------------------------------------------------

    async def _send_op(self, conn: GatewayConnection, op: int, data: Any) -> None:
        session = conn.session
        self.log.append(
            GatewayEvent(
                time.time(),
                "send",
                op,
                None,
                session.shard_id if session else None,
                session.id if session else None,
            )
        )
        await conn.send_text(json.dumps({"op": op, "d": data, "s": None, "t": None}))

    async def dispatch_to(self, session: GatewaySession, event: str, data: JSON) -> bool:
        """Send (or, while disconnected, buffer for RESUME) one dispatch on a session."""
        session.seq += 1
        text = json.dumps({"op": OP_DISPATCH, "s": session.seq, "t": event, "d": data})
        session.buffer.append((session.seq, text))
        self.log.append(GatewayEvent(time.time(), "send", OP_DISPATCH, event, session.shard_id, session.id))
        conn = session.connection
        if conn is None:
            return False
        return await conn.send_text(text)

    async def dispatch(self, guild_id: int | None, event: str, data: JSON, *, intent: int = 0) -> None:
        """Dispatch to the newest identified session for this guild, if its intents ask for it."""
        candidates = [
            s
            for s in self.sessions.values()
            if s.ready
            and not s.invalid
            and (s.handles_guild(guild_id) if guild_id is not None else s.shard_id == 0)
        ]
        if not candidates:
            return
        session = candidates[-1]
        if intent and not session.intents & intent:
            return
        await self.dispatch_to(session, event, data)

    async def dispatch_message_event(self, guild_id: int | None, event: str, data: JSON) -> None:
        intent = INTENT_GUILD_MESSAGES if guild_id is not None else INTENT_DIRECT_MESSAGES
        await self.dispatch(guild_id, event, data, intent=intent)

    # --- faults -------------------------------------------------------------------------------

    def drop(self, code: int | None = None) -> list[GatewayConnection]:
        """Cut every live connection: no close frame when `code` is None (a network drop)."""
        dropped = []
        for conn in list(self.connections):
            if conn.dropped:
                continue
            conn.dropped = True
            self._detach(conn)
            dropped.append(conn)
        return dropped

    async def close_dropped(self, conns: list[GatewayConnection], code: int | None) -> None:
        for conn in conns:
            if code is None:
                transport = conn.request.transport
                if transport is not None:
                    transport.abort()
            else:
                await conn.ws.close(code=code, message=b"Closed by the emulator.")

    async def invalidate(self, *, resumable: bool) -> None:
        for session in self.live_sessions():
            conn = session.connection
            assert conn is not None
            if not resumable:
                session.invalid = True
            await self._send_op(conn, OP_INVALID_SESSION, resumable)
        self.emu.notify()

    async def request_reconnect(self) -> None:
        for session in self.live_sessions():
            conn = session.connection
            assert conn is not None
            await self._send_op(conn, OP_RECONNECT, None)

    async def close_all(self) -> None:
        for conn in list(self.connections):
            conn.dropped = True
            self._detach(conn)
            if not conn.ws.closed:
                await conn.ws.close(code=1001, message=b"Emulator stopping.")
