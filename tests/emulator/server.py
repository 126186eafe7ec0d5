"""The emulated REST API (under /api/v10) and the attachment CDN.

Every request is recorded on the emulator. Unknown endpoints answer 404 and are listed in
`Emulator.unknown_requests`; requests Discord would refuse as malformed answer 400 / 50035 and are
listed in `Emulator.invalid_requests`, so a test notices either.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .events import ScheduledEvents
from .interactions import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    UPDATE_MESSAGE,
    InteractionRecord,
    ModalPrompt,
)
from .model import (
    ANNOUNCEMENT_THREAD,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    GUILD_ANNOUNCEMENT,
    GUILD_FORUM,
    GUILD_TEXT,
    JSON,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    RECIPIENT_ADD,
    THREAD_CREATED,
    THREAD_STARTER,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Guild,
    Message,
    User,
    permissions,
    utcnow,
)
from .spec import SpecGate
from .validation import (
    FormErrors,
    validate_channel_edit,
    validate_choices,
    validate_commands,
    validate_message,
    validate_modal,
    validate_thread,
)

if TYPE_CHECKING:
    from .emulator import Emulator, RecordedRequest

API_PREFIX = "/api/v10"
SEND_MESSAGES = permissions("send_messages")
SEND_IN_THREADS = permissions("send_messages_in_threads")
CREATE_PUBLIC_THREADS = permissions("create_public_threads")
CREATE_PRIVATE_THREADS = permissions("create_private_threads")
MANAGE_CHANNELS = permissions("manage_channels")
ATTACH_FILES = permissions("attach_files")
READ_HISTORY = permissions("read_message_history")
MANAGE_MESSAGES = permissions("manage_messages")
MESSAGE_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
RESPONSE_FLAGS = MESSAGE_FLAGS | FLAG_EPHEMERAL
NONCE_MAX = 25
# How long Discord remembers an enforced nonce ("the past few minutes").
NONCE_WINDOW = 300.0


class ApiError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: FormErrors | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> JSON:
        data: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors.nested()
        return data


def invalid(errors: FormErrors) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body", errors)


@dataclass
class UploadedFile:
    field: str
    filename: str
    data: bytes
    content_type: str | None

    @property
    def index(self) -> int | None:
        match = re.fullmatch(r"files\[(\d+)\]", self.field)
        if match:
            return int(match.group(1))
        return 0 if self.field == "file" else None


@dataclass
class ApiRequest:
    method: str
    path: str
    query: dict[str, str]
    body: Any
    files: list[UploadedFile]
    params: dict[str, str]
    arrived: float
    record: RecordedRequest
    extra: JSON = field(default_factory=dict)

    def json(self) -> JSON:
        return self.body if isinstance(self.body, dict) else {}

    def flag(self, name: str) -> bool:
        return self.query.get(name, "").lower() in ("1", "true")


Handler = Callable[[ApiRequest], Awaitable[tuple[int, Any]]]


@dataclass
class ApiRoute:
    method: str
    pattern: re.Pattern[str]
    handler: Handler
    auth: bool = True


def _json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> web.Response:
    # Exactly "application/json": discord.py treats "application/json; charset=utf-8" as text.
    all_headers = {"Content-Type": "application/json"}
    if headers:
        all_headers.update(headers)
    if status == 204:
        return web.Response(status=204, headers={k: v for k, v in all_headers.items() if k != "Content-Type"})
    if isinstance(body, str):  # not Discord's answer but the layer before it (a Cloudflare ban)
        return web.Response(status=status, text=body, content_type="text/plain")
    return web.Response(status=status, body=json.dumps(body).encode(), headers=all_headers)


class RestApi:
    def __init__(self, emulator: Emulator) -> None:
        self.emu = emulator
        # (author id, nonce) -> (when, message): posts made with `enforce_nonce`, as Discord keeps them.
        self.nonces: dict[tuple[int, str], tuple[float, Message]] = {}
        self.events = ScheduledEvents(emulator)
        self.spec = SpecGate(emulator)
        snowflake = r"(?P<{}>\d+)"
        app = snowflake.format("app")
        guild = snowflake.format("guild")
        channel = snowflake.format("channel")
        message = snowflake.format("message")
        command = snowflake.format("command")
        thread_user = r"(?P<user>\d+|@me)"
        token = r"(?P<token>[^/]+)"
        table: list[tuple[str, str, Handler, bool]] = [
            ("GET", r"/users/@me", self.get_me, True),
            ("GET", r"/users/(?P<user>\d+)", self.get_user, True),
            ("POST", r"/users/@me/channels", self.create_dm, True),
            ("GET", r"/users/@me/guilds", self.my_guilds, True),
            ("GET", r"/oauth2/applications/@me", self.get_application, True),
            ("GET", r"/applications/@me", self.get_application, True),
            ("GET", r"/gateway", self.get_gateway, False),
            ("GET", r"/gateway/bot", self.get_gateway_bot, True),
            # application commands
            ("GET", rf"/applications/{app}/commands", self.list_commands, True),
            ("PUT", rf"/applications/{app}/commands", self.put_commands, True),
            ("POST", rf"/applications/{app}/commands", self.post_command, True),
            ("GET", rf"/applications/{app}/commands/{command}", self.get_command, True),
            ("PATCH", rf"/applications/{app}/commands/{command}", self.patch_command, True),
            ("DELETE", rf"/applications/{app}/commands/{command}", self.delete_command, True),
            (
                "GET",
                rf"/applications/{app}/guilds/{guild}/commands/permissions",
                self.command_permissions,
                True,
            ),
            ("GET", rf"/applications/{app}/guilds/{guild}/commands", self.list_commands, True),
            ("PUT", rf"/applications/{app}/guilds/{guild}/commands", self.put_commands, True),
            ("POST", rf"/applications/{app}/guilds/{guild}/commands", self.post_command, True),
            ("GET", rf"/applications/{app}/guilds/{guild}/commands/{command}", self.get_command, True),
            ("PATCH", rf"/applications/{app}/guilds/{guild}/commands/{command}", self.patch_command, True),
            ("DELETE", rf"/applications/{app}/guilds/{guild}/commands/{command}", self.delete_command, True),
            # channels and messages
            ("GET", rf"/channels/{channel}", self.get_channel, True),
            ("PATCH", rf"/channels/{channel}", self.edit_channel, True),
            ("POST", rf"/channels/{channel}/typing", self.typing, True),
            ("GET", rf"/channels/{channel}/messages", self.list_messages, True),
            ("POST", rf"/channels/{channel}/messages", self.create_message, True),
            ("GET", rf"/channels/{channel}/messages/{message}", self.get_message, True),
            ("PATCH", rf"/channels/{channel}/messages/{message}", self.edit_message, True),
            ("DELETE", rf"/channels/{channel}/messages/{message}", self.delete_message, True),
            (
                "PUT",
                rf"/channels/{channel}/messages/{message}/reactions/(?P<emoji>[^/]+)/@me",
                self.react,
                True,
            ),
            (
                "DELETE",
                rf"/channels/{channel}/messages/{message}/reactions/(?P<emoji>[^/]+)/@me",
                self.unreact,
                True,
            ),
            # threads
            (
                "POST",
                rf"/channels/{channel}/messages/{message}/threads",
                self.start_thread_from_message,
                True,
            ),
            ("POST", rf"/channels/{channel}/threads", self.start_thread, True),
            ("GET", rf"/channels/{channel}/thread-members", self.list_thread_members, True),
            ("GET", rf"/channels/{channel}/thread-members/{thread_user}", self.get_thread_member, True),
            ("PUT", rf"/channels/{channel}/thread-members/{thread_user}", self.add_thread_member, True),
            ("DELETE", rf"/channels/{channel}/thread-members/{thread_user}", self.remove_thread_member, True),
            ("GET", rf"/guilds/{guild}/threads/active", self.active_threads, True),
            # guilds
            ("GET", rf"/guilds/{guild}", self.get_guild, True),
            ("GET", rf"/guilds/{guild}/channels", self.get_guild_channels, True),
            ("GET", rf"/guilds/{guild}/roles", self.get_roles, True),
            ("GET", rf"/guilds/{guild}/members", self.list_members, True),
            ("GET", rf"/guilds/{guild}/members/(?P<user>\d+)", self.get_member, True),
            *self.events.routes(guild),
            # interactions and their webhooks
            ("POST", r"/interactions/(?P<interaction>\d+)/(?P<token>[^/]+)/callback", self.callback, False),
            ("POST", rf"/webhooks/{app}/{token}", self.followup, False),
            (
                "GET",
                rf"/webhooks/{app}/{token}/messages/(?P<message>@original|\d+)",
                self.get_webhook_message,
                False,
            ),
            (
                "PATCH",
                rf"/webhooks/{app}/{token}/messages/(?P<message>@original|\d+)",
                self.edit_webhook_message,
                False,
            ),
            (
                "DELETE",
                rf"/webhooks/{app}/{token}/messages/(?P<message>@original|\d+)",
                self.delete_webhook_message,
                False,
            ),
        ]
        self.routes = [ApiRoute(m, re.compile(p), h, a) for m, p, h, a in table]

    # --- plumbing -----------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        from .emulator import RecordedRequest

        arrived = time.perf_counter()
        path = request.path
        if path.startswith("/attachments/"):
            return self._cdn(request)
        api_path = path[len(API_PREFIX) :] if path.startswith(API_PREFIX + "/") else path
        query = {k: v for k, v in request.query.items()}
        try:
            body, files = await self._read_body(request)
        except ValueError:
            body, files = None, []
        record = RecordedRequest(
            method=request.method,
            path=api_path,
            query=query,
            json=body,
            files=[(f.field, f.filename, len(f.data)) for f in files],
            at=time.time(),
        )
        self.emu.requests.append(record)
        answer = self.emu.limiter.banned() or self.spec.check(
            request.method, path, request.content_type, query, body, record
        )
        if answer is None:
            answer = await self._dispatch(request, api_path, body, files, query, arrived, record)
        status, response_body, headers = answer
        self.emu.limiter.note_answer(status, headers)
        record.status = status
        record.response = response_body
        record.elapsed = time.perf_counter() - arrived
        if status == 400 and isinstance(response_body, dict) and response_body.get("code") == 50035:
            self.emu.invalid_requests.append(record)
        if status == 429:
            self.emu.rate_limited.append(record)
        self.emu.notify()
        return _json_response(status, response_body, headers)

    async def _dispatch(
        self,
        request: web.Request,
        api_path: str,
        body: Any,
        files: list[UploadedFile],
        query: dict[str, str],
        arrived: float,
        record: RecordedRequest,
    ) -> tuple[int, Any, dict[str, str] | None]:
        method = request.method
        route, match = (
            self._match(method, api_path) if request.path.startswith(API_PREFIX + "/") else (None, None)
        )
        if route is None or match is None:
            self.emu.unknown_requests.append(record)
            return 404, {"message": "404: Not Found", "code": 0}, None
        if route.auth and request.headers.get("Authorization") != f"Bot {self.emu.token}":
            return 401, {"message": "401: Unauthorized", "code": 0}, None
        answer_late = 0.0
        for fault in self.emu.faults:
            if not fault.matches(method, api_path):
                continue
            fault.hits += 1
            if fault.delay:
                await asyncio.sleep(fault.delay)
            if fault.status is None:
                answer_late = fault.delay_after
                break
            record.fault = True
            return self._fault_response(fault, method, api_path)
        admission = self.emu.limiter.admit(method, api_path, body, record)
        if admission.refusal is not None:
            return admission.refusal
        api_request = ApiRequest(
            method=method,
            path=api_path,
            query=query,
            body=body,
            files=files,
            params=match.groupdict(),
            arrived=arrived,
            record=record,
        )
        try:
            status, data = await route.handler(api_request)
        except ApiError as error:
            return error.status, error.body(), admission.headers
        admission.settle(status)
        if answer_late:  # the request took effect; only its answer is late (a client may die meanwhile)
            await asyncio.sleep(answer_late)
        return status, data, admission.headers

    def _match(self, method: str, path: str) -> tuple[ApiRoute | None, re.Match[str] | None]:
        for route in self.routes:
            if route.method != method:
                continue
            match = route.pattern.fullmatch(path)
            if match:
                return route, match
        return None, None

    def _fault_response(self, fault: Any, method: str, path: str) -> tuple[int, Any, dict[str, str]]:
        status = int(fault.status)
        if status == 429:  # with a custom body too (an injected 30046): Via and the bucket headers
            retry_after = float((fault.body or {}).get("retry_after", fault.retry_after))
            headers = self.emu.limiter.fault_headers(method, path, retry_after, fault.scope, fault.is_global)
            body = fault.body or {
                "message": "You are being rate limited.",
                "retry_after": retry_after,
                "global": bool(fault.is_global),
                "code": 0,
            }
            return 429, body, headers
        if fault.body is not None:
            return status, fault.body, {}
        reasons = {
            500: "Internal Server Error",
            502: "Bad Gateway",
            503: "Service Unavailable",
            504: "Gateway Timeout",
        }
        return status, {"message": f"{status}: {reasons.get(status, 'Error')}", "code": 0}, {}

    async def _read_body(self, request: web.Request) -> tuple[Any, list[UploadedFile]]:
        if not request.body_exists:
            return None, []
        content_type = request.content_type
        if content_type.startswith("multipart/"):
            body: Any = None
            files: list[UploadedFile] = []
            reader = await request.multipart()
            while True:
                part = await reader.next()
                if part is None:
                    break
                if not hasattr(part, "read"):
                    continue
                data = await part.read(decode=False)  # type: ignore[union-attr]
                name = part.name or ""  # type: ignore[union-attr]
                if name == "payload_json":
                    body = json.loads(bytes(data))
                else:
                    files.append(
                        UploadedFile(
                            field=name,
                            filename=part.filename or name,  # type: ignore[union-attr]
                            data=bytes(data),
                            content_type=part.headers.get("Content-Type"),
                        )
                    )
            return body, files
        raw = await request.read()
        if not raw:
            return None, []
        try:
            return json.loads(raw), []
        except ValueError:
            return raw.decode(errors="replace"), []

    def _cdn(self, request: web.Request) -> web.Response:
        from .emulator import RecordedRequest

        match = re.fullmatch(r"/attachments/\d+/(\d+)/[^/]+", request.path)
        attachment = self.emu.attachments.get(int(match.group(1))) if match else None
        status = 200 if attachment is not None else 404
        self.emu.requests.append(
            RecordedRequest(
                method=request.method,
                path=request.path,
                query={},
                json=None,
                files=[],
                at=time.time(),
                status=status,
            )
        )
        if attachment is None:
            return web.Response(status=404, text="Not Found")
        return web.Response(
            body=attachment.data,
            headers={"Content-Type": attachment.content_type or "application/octet-stream"},
        )

    # --- lookups ------------------------------------------------------------------------------

    def _channel(self, req: ApiRequest) -> Channel:
        channel = self.emu.channels.get(int(req.params["channel"]))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        if channel.is_dm:
            return channel
        if not self.emu.bot_permissions(channel) & VIEW_CHANNEL:
            raise ApiError(403, 50001, "Missing Access")
        return channel

    def _guild(self, req: ApiRequest) -> Guild:
        guild = self.emu.guilds.get(int(req.params["guild"]))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild")
        if self.emu.bot_user.id not in guild.members:
            raise ApiError(403, 50001, "Missing Access")
        return guild

    def _message(self, channel: Channel, message_id: str) -> Message:
        for message in channel.messages:
            if str(message.id) == message_id and not message.deleted and not message.ephemeral:
                return message
        raise ApiError(404, 10008, "Unknown Message")

    def _check_app(self, req: ApiRequest) -> None:
        if int(req.params["app"]) != self.emu.application_id:
            raise ApiError(403, 20012, "You are not authorized to perform this action on this application")

    # --- users, application, gateway ----------------------------------------------------------

    async def get_me(self, req: ApiRequest) -> tuple[int, Any]:
        return 200, self.emu.bot_user_payload()

    async def get_user(self, req: ApiRequest) -> tuple[int, Any]:
        user = self.emu.users.get(int(req.params["user"]))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return 200, user.payload()

    async def create_dm(self, req: ApiRequest) -> tuple[int, Any]:
        recipient = req.json().get("recipient_id")
        user = self.emu.users.get(int(recipient)) if recipient is not None else None
        if user is None:
            errors = FormErrors()
            errors.add(("recipient_id",), "NUMBER_TYPE_COERCE", f'Value "{recipient}" is not snowflake.')
            raise invalid(errors)
        return 200, self.emu.dm_channel(user).payload()

    async def my_guilds(self, req: ApiRequest) -> tuple[int, Any]:
        """The servers the bot is in, oldest id first, as partial guilds with its own permissions
        there (`before`/`after` page through them, `limit` 1–200, `with_counts` adds the counts)."""
        try:
            limit = int(req.query.get("limit", "200"))
        except ValueError:
            limit = 0
        if not 1 <= limit <= 200:
            errors = FormErrors()
            errors.add(("limit",), "NUMBER_TYPE_MAX", "Int value should be between 1 and 200.")
            raise invalid(errors)
        bot_id = self.emu.bot_user.id
        after = int(req.query.get("after", "0"))
        before = int(req.query["before"]) if "before" in req.query else None
        guilds = sorted(
            (
                g
                for g in self.emu.guilds.values()
                if bot_id in g.members and g.id > after and (before is None or g.id < before)
            ),
            key=lambda g: g.id,
        )
        page = guilds[-limit:] if before is not None and "after" not in req.query else guilds[:limit]
        answer = []
        for guild in page:
            data: JSON = {
                "id": str(guild.id),
                "name": guild.name,
                "icon": None,
                "banner": None,
                "owner": guild.owner_id == bot_id,
                "permissions": str(guild.base_permissions(bot_id)),
                "features": [],
            }
            if req.flag("with_counts"):
                data["approximate_member_count"] = len(guild.members)
                data["approximate_presence_count"] = 0
            answer.append(data)
        return 200, answer

    async def get_application(self, req: ApiRequest) -> tuple[int, Any]:
        emu = self.emu
        return 200, {
            "id": str(emu.application_id),
            "name": emu.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "hook": True,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": hashlib.sha256(str(emu.application_id).encode()).hexdigest(),
            "owner": emu.app_owner.payload(),
            "flags": emu.application_flags,
            "team": None,
            "bot": emu.bot_user.payload(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "tags": [],
            "install_params": {"scopes": ["bot", "applications.commands"], "permissions": "0"},
            "integration_types_config": {"0": {}},
            "approximate_guild_count": len(emu.guilds),
        }

    async def get_gateway(self, req: ApiRequest) -> tuple[int, Any]:
        return 200, {"url": self.emu.gateway_url}

    async def get_gateway_bot(self, req: ApiRequest) -> tuple[int, Any]:
        return 200, {
            "url": self.emu.gateway_url,
            "shards": self.emu.shard_count,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14_400_000,
                "max_concurrency": 1,
            },
        }

    # --- application commands -----------------------------------------------------------------

    def _scope(self, req: ApiRequest) -> int | None:
        self._check_app(req)
        if "guild" in req.params and req.params["guild"] is not None:
            return self._guild(req).id
        return None

    async def list_commands(self, req: ApiRequest) -> tuple[int, Any]:
        return 200, list(self.emu.commands.scope(self._scope(req)).values())

    async def put_commands(self, req: ApiRequest) -> tuple[int, Any]:
        scope = self._scope(req)
        errors = validate_commands(req.body)
        if errors:
            raise invalid(errors)
        stored = self.emu.commands.replace(scope, req.body)
        self.emu.notify()
        return 200, stored

    async def post_command(self, req: ApiRequest) -> tuple[int, Any]:
        scope = self._scope(req)
        errors = FormErrors()
        from .validation import validate_command

        validate_command(errors, (), req.json())
        if errors:
            raise invalid(errors)
        stored, created = self.emu.commands.upsert(scope, req.json())
        self.emu.notify()
        return (201 if created else 200), stored

    async def get_command(self, req: ApiRequest) -> tuple[int, Any]:
        command = self.emu.commands.by_id(self._scope(req), int(req.params["command"]))
        if command is None:
            raise ApiError(404, 10063, "Unknown application command")
        return 200, command

    async def patch_command(self, req: ApiRequest) -> tuple[int, Any]:
        command = self.emu.commands.edit(self._scope(req), int(req.params["command"]), req.json())
        if command is None:
            raise ApiError(404, 10063, "Unknown application command")
        self.emu.notify()
        return 200, command

    async def delete_command(self, req: ApiRequest) -> tuple[int, Any]:
        if not self.emu.commands.delete(self._scope(req), int(req.params["command"])):
            raise ApiError(404, 10063, "Unknown application command")
        self.emu.notify()
        return 204, None

    async def command_permissions(self, req: ApiRequest) -> tuple[int, Any]:
        self._scope(req)
        return 200, []

    # --- guilds -------------------------------------------------------------------------------

    async def get_guild(self, req: ApiRequest) -> tuple[int, Any]:
        guild = self._guild(req)
        data = guild.payload()
        if req.flag("with_counts"):
            data["approximate_member_count"] = len(guild.members)
            data["approximate_presence_count"] = 0
        return 200, data

    async def get_guild_channels(self, req: ApiRequest) -> tuple[int, Any]:
        return 200, [c.payload() for c in self._guild(req).channels.values()]

    async def get_roles(self, req: ApiRequest) -> tuple[int, Any]:
        return 200, [r.payload() for r in self._guild(req).roles.values()]

    async def get_member(self, req: ApiRequest) -> tuple[int, Any]:
        member = self._guild(req).members.get(int(req.params["user"]))
        if member is None:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, member.payload()

    async def list_members(self, req: ApiRequest) -> tuple[int, Any]:
        guild = self._guild(req)
        limit = max(1, min(1000, int(req.query.get("limit", "1"))))
        after = int(req.query.get("after", "0"))
        members = sorted((m for m in guild.members.values() if m.user.id > after), key=lambda m: m.user.id)
        return 200, [m.payload() for m in members[:limit]]

    # --- channels and messages ----------------------------------------------------------------

    async def get_channel(self, req: ApiRequest) -> tuple[int, Any]:
        return 200, self._channel(req).payload()

    async def typing(self, req: ApiRequest) -> tuple[int, Any]:
        self._channel(req)
        return 204, None

    async def list_messages(self, req: ApiRequest) -> tuple[int, Any]:
        channel = self._channel(req)
        if not channel.is_dm and not self.emu.bot_permissions(channel) & READ_HISTORY:
            return 200, []
        limit = max(1, min(100, int(req.query.get("limit", "50"))))
        messages = [m for m in channel.messages if not m.deleted and not m.ephemeral]
        if "before" in req.query:
            messages = [m for m in messages if m.id < int(req.query["before"])]
        if "after" in req.query:
            after = int(req.query["after"])
            messages = [m for m in messages if m.id > after][:limit]
        if "around" in req.query:
            around = int(req.query["around"])
            older = [m for m in messages if m.id <= around][-(limit // 2 + 1) :]
            newer = [m for m in messages if m.id > around][: limit - len(older)]
            messages = older + newer
        messages = messages[-limit:]
        return 200, [m.payload() for m in reversed(messages)]

    async def get_message(self, req: ApiRequest) -> tuple[int, Any]:
        channel = self._channel(req)
        return 200, self._message(channel, req.params["message"]).payload()

    async def create_message(self, req: ApiRequest) -> tuple[int, Any]:
        channel = self._channel(req)
        if channel.is_dm:
            self._check_can_dm(channel)
        else:
            if channel.type == GUILD_FORUM:
                raise ApiError(400, 50008, "Cannot send messages in a non-text channel")
            perms = self.emu.bot_permissions(channel)
            # In a thread it is the parent's "Send Messages in Threads" that counts.
            send = SEND_IN_THREADS if channel.is_thread else SEND_MESSAGES
            needed = send | (ATTACH_FILES if req.files else 0)
            if perms & needed != needed:
                raise ApiError(403, 50013, "Missing Permissions")
            if channel.is_thread and channel.locked and not perms & MANAGE_THREADS:
                if channel.archived:
                    raise ApiError(400, 50083, "Thread is archived")
                raise ApiError(400, 160005, "Thread is locked")
        payload = req.json()
        fields = self._message_fields(payload, req.files, channel, None)
        errors = validate_message(payload, file_count=len(fields.get("attachments", [])))
        nonce = payload.get("nonce")
        if nonce is not None and len(str(nonce)) > NONCE_MAX:
            errors.add(("nonce",), "BASE_TYPE_MAX_LENGTH", f"Must be {NONCE_MAX} or fewer in length.")
        if errors:
            raise invalid(errors)
        key = (self.emu.bot_user.id, str(nonce))
        enforced = nonce is not None and bool(payload.get("enforce_nonce"))
        if enforced:
            earlier = self._nonced(key)
            if earlier is not None:  # Discord answers a repeat with the message it already made
                return 200, earlier.payload()
        fields["flags"] = int(payload.get("flags") or 0) & MESSAGE_FLAGS
        if channel.is_thread:
            await self._enter_thread(channel)
        message = await self.emu.post_message(channel, fields)
        if enforced:
            self.nonces[key] = (time.monotonic(), message)
        return 200, message.payload()

    def _nonced(self, key: tuple[int, str]) -> Message | None:
        """The message posted with this author and enforced nonce within the window, if any."""
        now = time.monotonic()
        while self.nonces:  # oldest first: a dict keeps insertion order
            oldest = next(iter(self.nonces))
            if now - self.nonces[oldest][0] <= NONCE_WINDOW:
                break
            del self.nonces[oldest]
        found = self.nonces.get(key)
        return found[1] if found is not None else None

    def _check_can_dm(self, channel: Channel) -> None:
        user = channel.recipient
        assert user is not None
        shares_guild = any(
            user.id in g.members and self.emu.bot_user.id in g.members for g in self.emu.guilds.values()
        )
        if not user.dms_open or user.bot or not shares_guild:
            raise ApiError(403, 50007, "Cannot send messages to this user")

    async def _enter_thread(self, thread: Channel) -> None:
        """A post unarchives an (unlocked) archived thread and makes the poster a member."""
        emu = self.emu
        if thread.archived:
            thread.archived = False
            thread.archive_timestamp = utcnow()
            await emu.announce_thread_update(thread)
        if emu.bot_user.id not in thread.thread_members:
            thread.thread_members[emu.bot_user.id] = utcnow()
            await emu.announce_thread_members(thread, added=[emu.bot_user])

    def _check_not_archived(self, channel: Channel) -> None:
        if channel.is_thread and channel.archived:
            raise ApiError(400, 50083, "Thread is archived")

    async def edit_message(self, req: ApiRequest) -> tuple[int, Any]:
        channel = self._channel(req)
        message = self._message(channel, req.params["message"])
        self._check_not_archived(channel)
        if message.author is not self.emu.bot_user:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        payload = req.json()
        fields = self._message_fields(payload, req.files, channel, message)
        self._validate_edit(message, payload, fields)
        if "flags" in fields:
            fields["flags"] = int(fields["flags"] or 0) & MESSAGE_FLAGS
        await self.emu.edit_message(message, fields)
        return 200, message.payload()

    async def delete_message(self, req: ApiRequest) -> tuple[int, Any]:
        channel = self._channel(req)
        message = self._message(channel, req.params["message"])
        self._check_not_archived(channel)
        if message.author is not self.emu.bot_user and not (
            not channel.is_dm and self.emu.bot_permissions(channel) & MANAGE_MESSAGES
        ):
            raise ApiError(403, 50013, "Missing Permissions")
        await self.emu.delete_message(message)
        return 204, None

    async def react(self, req: ApiRequest) -> tuple[int, Any]:
        channel = self._channel(req)
        message = self._message(channel, req.params["message"])
        message.reactions.setdefault(req.params["emoji"], set()).add(self.emu.bot_user.id)
        return 204, None

    async def unreact(self, req: ApiRequest) -> tuple[int, Any]:
        channel = self._channel(req)
        message = self._message(channel, req.params["message"])
        message.reactions.get(req.params["emoji"], set()).discard(self.emu.bot_user.id)
        return 204, None

    def _message_fields(
        self, payload: JSON, files: list[UploadedFile], channel: Channel, existing: Message | None
    ) -> JSON:
        """content/embeds/components/flags/attachments from a JSON (or payload_json) body + files."""
        fields: JSON = {
            k: payload[k]
            for k in ("content", "embeds", "components", "flags", "poll", "message_reference")
            if k in payload
        }
        by_index = {f.index: f for f in files if f.index is not None}
        too_big = [f for f in files if len(f.data) > self.emu.attachment_size_limit]
        if too_big:
            raise ApiError(413, 40005, "Request entity too large")
        if "attachments" in payload:
            kept: list[Attachment] = []
            used: set[int] = set()
            for entry in payload.get("attachments") or []:
                old = None
                if existing is not None:
                    old = next((a for a in existing.attachments if str(a.id) == str(entry.get("id"))), None)
                if old is not None:
                    kept.append(old)
                    continue
                try:
                    index = int(entry.get("id"))
                except (TypeError, ValueError):
                    index = -1
                upload = by_index.get(index)
                if upload is None:
                    errors = FormErrors()
                    errors.add(
                        ("attachments", str(index)), "ATTACHMENT_NOT_FOUND", "Attachment data not found"
                    )
                    raise invalid(errors)
                used.add(index)
                kept.append(self._store(upload, channel, entry.get("filename"), entry.get("description")))
            for index, upload in by_index.items():
                if index not in used:
                    kept.append(self._store(upload, channel, None, None))
            fields["attachments"] = kept
        elif files:
            old_files = list(existing.attachments) if existing is not None else []
            fields["attachments"] = old_files + [self._store(f, channel, None, None) for f in files]
        return fields

    def _store(
        self, upload: UploadedFile, channel: Channel, filename: str | None, description: str | None
    ) -> Attachment:
        attachment = Attachment.create(
            id=self.emu.ids.next(),
            filename=filename or upload.filename,
            data=upload.data,
            cdn_base=self.emu.base_url,
            channel_id=channel.id,
            content_type=upload.content_type,
            description=description,
        )
        self.emu.attachments[attachment.id] = attachment
        return attachment

    def _validate_edit(self, message: Message, payload: JSON, fields: JSON) -> None:
        merged: JSON = {
            "content": fields.get("content", message.content),
            "embeds": fields.get("embeds", message.embeds),
            "components": fields.get("components", message.components),
            "flags": fields.get("flags", message.flags),
        }
        attachments = fields.get("attachments", message.attachments)
        errors = validate_message(merged, file_count=len(attachments), editing=True)
        if errors:
            raise invalid(errors)

    # --- threads ------------------------------------------------------------------------------

    def _check_can_hold_threads(self, channel: Channel) -> None:
        if channel.is_dm:
            raise ApiError(403, 50003, "Cannot execute action on a DM channel")
        if channel.type not in (GUILD_TEXT, GUILD_ANNOUNCEMENT):
            raise ApiError(400, 50024, "Cannot execute action on this channel type")

    def _thread(self, req: ApiRequest) -> Channel:
        channel = self._channel(req)
        if channel.is_dm:
            raise ApiError(403, 50003, "Cannot execute action on a DM channel")
        if not channel.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        return channel

    def _thread_user(self, req: ApiRequest, thread: Channel) -> User:
        raw = req.params["user"]
        user = self.emu.bot_user if raw == "@me" else self.emu.users.get(int(raw))
        guild = self.emu.guild_of(thread)
        if user is None or guild is None or user.id not in guild.members:
            raise ApiError(404, 10007, "Unknown Member")
        return user

    async def start_thread_from_message(self, req: ApiRequest) -> tuple[int, Any]:
        channel = self._channel(req)
        self._check_can_hold_threads(channel)
        if not self.emu.bot_permissions(channel) & CREATE_PUBLIC_THREADS:
            raise ApiError(403, 50013, "Missing Permissions")
        message = self._message(channel, req.params["message"])
        payload = req.json()
        errors = validate_thread(payload, creating=True)
        if errors:
            raise invalid(errors)
        if message.thread is not None:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        thread = self.emu.make_thread(
            channel,
            payload["name"],
            owner=self.emu.bot_user,
            message=message,
            auto_archive_duration=payload.get("auto_archive_duration") or 1440,
            rate_limit_per_user=payload.get("rate_limit_per_user") or 0,
        )
        await self.emu.announce_thread(thread)
        # Discord opens such a thread with a THREAD_STARTER_MESSAGE (type 21) that only points back
        # at the message it was started from.
        reference = {
            "channel_id": str(channel.id),
            "guild_id": str(thread.guild_id),
            "message_id": str(message.id),
        }
        await self.emu.post_message(thread, {"message_reference": reference}, message_type=THREAD_STARTER)
        return 201, self.emu.thread_event(thread)

    async def start_thread(self, req: ApiRequest) -> tuple[int, Any]:
        channel = self._channel(req)
        payload = req.json()
        if channel.type == GUILD_FORUM:
            if payload.get("message") is None:
                errors = FormErrors()
                errors.add(("message",), "BASE_TYPE_REQUIRED", "This field is required")
                raise invalid(errors)
            # A forum post (a thread with its first message) is not emulated: say so loudly.
            self.emu.unknown_requests.append(req.record)
            return 404, {"message": "404: Not Found", "code": 0}
        self._check_can_hold_threads(channel)
        errors = validate_thread(payload, creating=True, with_type=True)
        if errors:
            raise invalid(errors)
        # Without a type Discord makes a private thread (API v10).
        kind = int(payload.get("type") or PRIVATE_THREAD)
        if channel.type == GUILD_ANNOUNCEMENT:
            kind = ANNOUNCEMENT_THREAD
        needed = CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD else CREATE_PUBLIC_THREADS
        if not self.emu.bot_permissions(channel) & needed:
            raise ApiError(403, 50013, "Missing Permissions")
        invitable = payload.get("invitable")
        thread = self.emu.make_thread(
            channel,
            payload["name"],
            owner=self.emu.bot_user,
            type=kind,
            auto_archive_duration=payload.get("auto_archive_duration") or 1440,
            rate_limit_per_user=payload.get("rate_limit_per_user") or 0,
            invitable=True if invitable is None else bool(invitable),
        )
        await self.emu.announce_thread(thread)
        if kind != PRIVATE_THREAD:
            # Discord notes a public thread started without a message in its parent (type 18).
            reference = {"channel_id": str(thread.id), "guild_id": str(thread.guild_id)}
            await self.emu.post_message(
                channel, {"content": thread.name, "message_reference": reference}, message_type=THREAD_CREATED
            )
        return 201, self.emu.thread_event(thread)

    async def edit_channel(self, req: ApiRequest) -> tuple[int, Any]:
        channel = self._channel(req)
        if channel.is_dm:
            raise ApiError(403, 50003, "Cannot execute action on a DM channel")
        payload = req.json()
        if channel.is_thread:
            return 200, await self._edit_thread(channel, payload)
        if not self.emu.bot_permissions(channel) & MANAGE_CHANNELS:
            raise ApiError(403, 50013, "Missing Permissions")
        errors = validate_channel_edit(payload)
        if errors:
            raise invalid(errors)
        if payload.get("name") is not None:
            channel.name = payload["name"]
        if "topic" in payload:
            channel.topic = payload["topic"]
        assert channel.guild_id is not None
        await self.emu.gateway.dispatch(channel.guild_id, "CHANNEL_UPDATE", channel.payload())
        return 200, channel.payload()

    async def _edit_thread(self, thread: Channel, payload: JSON) -> JSON:
        """Discord's rules: an archived thread changes only by being unarchived; locking and
        slowmode need Manage Threads; renaming and archiving need it unless the bot owns the thread;
        unarchiving an unlocked thread needs only the right to post in it."""
        emu = self.emu
        errors = validate_thread(payload, creating=False)
        if errors:
            raise invalid(errors)
        perms = emu.bot_permissions(thread)
        manage = bool(perms & MANAGE_THREADS)
        owner = thread.owner_id == emu.bot_user.id
        current = {
            "name": thread.name,
            "archived": thread.archived,
            "locked": thread.locked,
            "auto_archive_duration": thread.auto_archive_duration,
            "rate_limit_per_user": thread.rate_limit_per_user,
            "invitable": thread.invitable,
        }
        changes = {k: v for k, v in payload.items() if k in current and v is not None and v != current[k]}
        if thread.archived and changes.get("archived") is not False:
            raise ApiError(400, 50083, "Thread is archived")
        needs_manage = {"locked", "rate_limit_per_user"} & changes.keys() or (
            thread.archived and thread.locked
        )
        owner_may = {"name", "auto_archive_duration", "invitable"} & changes.keys() or changes.get("archived")
        if (needs_manage and not manage) or (owner_may and not (manage or owner)):
            raise ApiError(403, 50013, "Missing Permissions")
        if changes.get("archived") is False and not perms & SEND_IN_THREADS:
            raise ApiError(403, 50013, "Missing Permissions")
        if "invitable" in changes and thread.type != PRIVATE_THREAD:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        thread.name = changes.get("name", thread.name)
        thread.locked = changes.get("locked", thread.locked)
        thread.auto_archive_duration = changes.get("auto_archive_duration", thread.auto_archive_duration)
        thread.rate_limit_per_user = changes.get("rate_limit_per_user", thread.rate_limit_per_user)
        thread.invitable = changes.get("invitable", thread.invitable)
        if "archived" in changes:
            thread.archived = bool(changes["archived"])
            thread.archive_timestamp = utcnow()
        if changes:
            await emu.announce_thread_update(thread)
        emu.notify()
        return emu.thread_event(thread)

    async def list_thread_members(self, req: ApiRequest) -> tuple[int, Any]:
        thread = self._thread(req)
        guild = self.emu.guild_of(thread)
        assert guild is not None
        with_member = req.flag("with_member")
        return 200, [
            thread.thread_member_payload(
                user_id,
                member=guild.members[user_id].payload() if with_member and user_id in guild.members else None,
            )
            for user_id in thread.thread_members
        ]

    async def get_thread_member(self, req: ApiRequest) -> tuple[int, Any]:
        thread = self._thread(req)
        user = self._thread_user(req, thread)
        if user.id not in thread.thread_members:
            raise ApiError(404, 10007, "Unknown Member")
        return 200, thread.thread_member_payload(user.id)

    async def add_thread_member(self, req: ApiRequest) -> tuple[int, Any]:
        emu = self.emu
        thread = self._thread(req)
        user = self._thread_user(req, thread)
        self._check_not_archived(thread)
        perms = emu.bot_permissions(thread)
        if user is not emu.bot_user:
            if not perms & SEND_IN_THREADS:
                raise ApiError(403, 50013, "Missing Permissions")
            closed = thread.type == PRIVATE_THREAD and not thread.invitable
            if closed and not perms & MANAGE_THREADS and thread.owner_id != emu.bot_user.id:
                raise ApiError(403, 50013, "Missing Permissions")
        if user.id not in thread.thread_members:  # adding a member twice changes nothing
            thread.thread_members[user.id] = utcnow()
            await emu.announce_thread_members(thread, added=[user])
            if user is not emu.bot_user:
                # Someone added by another is told in the thread: a RECIPIENT_ADD (type 7) message
                # by the one who added them, mentioning them (it notifies nobody).
                await emu.post_message(thread, {}, message_type=RECIPIENT_ADD, mentioned=[user])
        return 204, None

    async def remove_thread_member(self, req: ApiRequest) -> tuple[int, Any]:
        emu = self.emu
        thread = self._thread(req)
        user = self._thread_user(req, thread)
        self._check_not_archived(thread)
        if user is not emu.bot_user:
            owns_private = thread.type == PRIVATE_THREAD and thread.owner_id == emu.bot_user.id
            if not (emu.bot_permissions(thread) & MANAGE_THREADS or owns_private):
                raise ApiError(403, 50013, "Missing Permissions")
        if thread.thread_members.pop(user.id, None) is not None:
            await emu.announce_thread_members(thread, removed=[user])
        return 204, None

    async def active_threads(self, req: ApiRequest) -> tuple[int, Any]:
        guild = self._guild(req)
        bot_id = self.emu.bot_user.id
        threads = [t for t in guild.active_threads() if guild.channel_permissions(t, bot_id) & VIEW_CHANNEL]
        return 200, {
            "threads": [t.payload() for t in threads],
            "members": [t.thread_member_payload(bot_id) for t in threads if bot_id in t.thread_members],
            "has_more": False,
        }

    # --- interaction callbacks ----------------------------------------------------------------

    async def callback(self, req: ApiRequest) -> tuple[int, Any]:
        emu = self.emu
        record = emu.interactions.get(int(req.params["interaction"]))
        if record is None or record.token != req.params["token"]:
            raise ApiError(404, 10062, "Unknown interaction")
        if record.responded:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        assert record.sent_at is not None
        age = req.arrived - record.sent_at
        if emu.response_deadline is not None and age > emu.response_deadline:
            record.rejections.append(
                f"the response arrived {age:.2f} s after the interaction "
                f"(Discord allows {emu.response_deadline:.1f} s): 10062 Unknown interaction"
            )
            raise ApiError(404, 10062, "Unknown interaction")
        body = req.json()
        kind = int(body.get("type") or 0)
        data: JSON = body.get("data") or {}
        allowed = {
            APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
            AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
            MESSAGE_COMPONENT: {
                CHANNEL_MESSAGE,
                DEFERRED_CHANNEL_MESSAGE,
                DEFERRED_UPDATE_MESSAGE,
                UPDATE_MESSAGE,
                MODAL,
            },
            MODAL_SUBMIT: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE}
            | ({DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE} if record.source_message is not None else set()),
        }[record.type]
        if kind not in allowed:
            errors = FormErrors()
            errors.add(
                ("type",),
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Response type {kind} is not valid for interaction type {record.type}",
            )
            record.rejections.append(f"response type {kind} is not valid here")
            raise invalid(errors)

        message: Message | None = None
        if kind == CHANNEL_MESSAGE:
            fields = self._message_fields(data, req.files, record.channel, None)
            errors = validate_message(data, file_count=len(fields.get("attachments", [])))
            if errors:
                record.rejections.append(errors.summary())
                raise invalid(errors)
            fields["flags"] = int(data.get("flags") or 0) & RESPONSE_FLAGS
            message = await emu.post_message(
                record.channel,
                fields,
                record=record,
                message_type=20 if record.type == APPLICATION_COMMAND else 0,
            )
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            flags = (int(data.get("flags") or 0) & FLAG_EPHEMERAL) | FLAG_LOADING
            message = await emu.post_message(
                record.channel,
                {"content": "", "flags": flags},
                record=record,
                message_type=20 if record.type == APPLICATION_COMMAND else 0,
            )
        elif kind == DEFERRED_UPDATE_MESSAGE:
            message = record.source_message
        elif kind == UPDATE_MESSAGE:
            message = record.source_message
            assert message is not None
            fields = self._message_fields(data, req.files, record.channel, message)
            self._validate_edit(message, data, fields)
            if "flags" in fields:
                fields["flags"] = int(fields["flags"] or 0) & MESSAGE_FLAGS
            await emu.edit_message(message, fields)
        elif kind == AUTOCOMPLETE_RESULT:
            errors = validate_choices(data)
            if errors:
                record.rejections.append(errors.summary())
                raise invalid(errors)
            record.choices = list(data.get("choices") or [])
        elif kind == MODAL:
            errors = validate_modal(data)
            if errors:
                record.rejections.append(errors.summary())
                raise invalid(errors)
            from .emulator import number_components

            prompt = ModalPrompt(
                custom_id=data["custom_id"],
                title=data["title"],
                components=number_components(list(data.get("components") or [])),
                user=record.user,
                channel=record.channel,
                source_message=record.source_message,
                opened_by=record,
            )
            emu.modals.append(prompt)
            record.modal = prompt

        record.original = message
        record.response_type = kind
        record.response_data = data
        record.responded_at = req.arrived
        emu.notify()
        if not req.flag("with_response"):
            return 204, None
        return 200, self._callback_response(record, kind, message)

    def _callback_response(self, record: InteractionRecord, kind: int, message: Message | None) -> JSON:
        interaction: JSON = {"id": str(record.id), "type": record.type}
        resource: JSON = {"type": kind}
        if message is not None and kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, UPDATE_MESSAGE):
            interaction["response_message_id"] = str(message.id)
            interaction["response_message_loading"] = kind == DEFERRED_CHANNEL_MESSAGE
            interaction["response_message_ephemeral"] = message.ephemeral
            resource["message"] = message.payload()
        return {"interaction": interaction, "resource": resource}

    # --- followups and @original ----------------------------------------------------------------

    def _webhook_record(self, req: ApiRequest) -> InteractionRecord:
        if int(req.params["app"]) != self.emu.application_id:
            raise ApiError(404, 10015, "Unknown Webhook")
        record = self.emu.interactions_by_token.get(req.params["token"])
        if record is None:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if record.age > self.emu.token_lifetime:
            raise ApiError(401, 50027, "Invalid Webhook Token")
        if not record.responded:
            raise ApiError(404, 10015, "Unknown Webhook")
        return record

    def _webhook_target(self, record: InteractionRecord, message_id: str) -> Message:
        if message_id == "@original":
            target = record.original
        else:
            candidates = [record.original, *record.followups]
            target = next((m for m in candidates if m is not None and str(m.id) == message_id), None)
        if target is None or target.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return target

    async def followup(self, req: ApiRequest) -> tuple[int, Any]:
        record = self._webhook_record(req)
        payload = req.json()
        fields = self._message_fields(payload, req.files, record.channel, None)
        errors = validate_message(payload, file_count=len(fields.get("attachments", [])))
        if errors:
            raise invalid(errors)
        original = record.original
        if (
            record.response_type == DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
            and not record.followups
        ):
            # Discord fills the deferred "thinking" message with the first followup; it keeps the
            # deferral's ephemeral flag whatever the followup asks.
            fields["flags"] = (int(payload.get("flags") or 0) & MESSAGE_FLAGS) | (
                original.flags & FLAG_EPHEMERAL
            )
            await self.emu.edit_message(original, fields)
            message = original
        else:
            fields["flags"] = int(payload.get("flags") or 0) & RESPONSE_FLAGS
            message = await self.emu.post_message(record.channel, fields, record=record)
            if original is not None and original is not record.source_message:
                message.original_response_id = original.id
        record.followups.append(message)
        self.emu.notify()
        if not req.flag("wait"):
            return 204, None
        return 200, message.payload()

    async def get_webhook_message(self, req: ApiRequest) -> tuple[int, Any]:
        record = self._webhook_record(req)
        return 200, self._webhook_target(record, req.params["message"]).payload()

    async def edit_webhook_message(self, req: ApiRequest) -> tuple[int, Any]:
        record = self._webhook_record(req)
        target = self._webhook_target(record, req.params["message"])
        payload = req.json()
        fields = self._message_fields(payload, req.files, record.channel, target)
        self._validate_edit(target, payload, fields)
        flags = int(fields.get("flags", target.flags) or 0) & MESSAGE_FLAGS
        fields["flags"] = flags | (target.flags & FLAG_EPHEMERAL)
        await self.emu.edit_message(target, fields)
        return 200, target.payload()

    async def delete_webhook_message(self, req: ApiRequest) -> tuple[int, Any]:
        record = self._webhook_record(req)
        target = self._webhook_target(record, req.params["message"])
        await self.emu.delete_message(target)
        return 204, None
