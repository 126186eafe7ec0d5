"""A small JSON control API (under /_emulator/) for driving a standalone emulator from outside.

Not part of Discord's API and not recorded in `Emulator.requests`: it lets a sandbox or a
benchmark in another process act as users, e.g.

    curl -s localhost:8123/_emulator/slash -d '{"user": "alice", "channel": "games",
         "command": "roll", "options": {"dice": "3d6+2"}}'

Option values that name a user, channel or role are written {"user": "bob"}, {"channel": "games"},
{"role": "Organiser"}.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .interactions import EmulatorError, InteractionRecord, InteractionResponse
from .model import JSON, Channel, Message, User

if TYPE_CHECKING:
    from .emulator import Emulator


def message_json(message: Message | None) -> JSON | None:
    if message is None:
        return None
    return {
        "id": str(message.id),
        "channel": message.channel.name,
        "content": message.content,
        "embeds": message.embeds,
        "components": message.components,
        "attachments": [{"filename": a.filename, "url": a.url, "size": a.size} for a in message.attachments],
        "ephemeral": message.ephemeral,
        "deleted": message.deleted,
        "edited": message.edited_at is not None,
    }


class ControlApi:
    def __init__(self, emulator: Emulator) -> None:
        self.emu = emulator

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/_emulator/state", self.state)
        app.router.add_get("/_emulator/messages", self.messages)
        app.router.add_post("/_emulator/slash", self.slash)
        app.router.add_post("/_emulator/click", self.click)
        app.router.add_post("/_emulator/modal", self.modal)

    # --- lookups ------------------------------------------------------------------------------

    def _user(self, name: Any) -> User:
        try:
            return self.emu.user(str(name))
        except KeyError as error:
            raise web.HTTPNotFound(text=str(error)) from None

    def _channel(self, body: JSON) -> Channel:
        if "dm" in body:
            return self.emu.dm_channel(self._user(body["dm"]))
        name = str(body.get("channel", "")).lstrip("#")
        for channel in self.emu.channels.values():
            if not channel.is_dm and channel.name == name:
                return channel
        raise web.HTTPNotFound(text=f"no channel #{name}")

    def _value(self, raw: Any, channel: Channel) -> Any:
        if isinstance(raw, dict) and len(raw) == 1:
            ((kind, name),) = raw.items()
            if kind == "user":
                return self._user(name)
            if kind == "channel":
                return self._channel({"channel": name})
            if kind == "role":
                guild = self.emu.guild_of(channel)
                if guild is None:
                    raise web.HTTPBadRequest(text="roles need a guild channel")
                return guild.role(str(name))
        return raw

    async def _respond(self, record: InteractionRecord, body: JSON) -> web.Response:
        timeout = float(body.get("timeout", 3.0))
        try:
            response: InteractionResponse = await record.response(timeout)
            if body.get("settle", True) and response.deferred:
                await record.settled(timeout)
        except EmulatorError as error:
            return web.json_response({"error": str(error)}, status=504)
        return web.json_response(
            {
                "type": response.type,
                "type_name": response.type_name,
                "latency": record.latency,
                "message": message_json(record.original),
                "followups": [message_json(m) for m in record.followups],
                "modal": None
                if response.modal is None
                else {
                    "custom_id": response.modal.custom_id,
                    "title": response.modal.title,
                    "fields": [f.custom_id for f in response.modal.fields],
                },
                "choices": response.choices,
            }
        )

    async def _body(self, request: web.Request) -> JSON:
        try:
            data = json.loads(await request.read() or b"{}")
        except ValueError:
            raise web.HTTPBadRequest(text="body must be JSON") from None
        if not isinstance(data, dict):
            raise web.HTTPBadRequest(text="body must be a JSON object")
        return data

    # --- handlers -----------------------------------------------------------------------------

    async def state(self, request: web.Request) -> web.Response:
        emu = self.emu
        return web.json_response(
            {
                "api_base": emu.api_base,
                "token": emu.token,
                "connected": emu.gateway.all_shards_live(),
                "guilds": [
                    {
                        "id": str(g.id),
                        "name": g.name,
                        "channels": {c.name: str(c.id) for c in g.channels.values()},
                        "threads": {t.name: str(t.id) for t in g.threads.values()},
                        "members": {m.user.name: str(m.user.id) for m in g.members.values()},
                    }
                    for g in emu.guilds.values()
                ],
                "commands": sorted(c["name"] for c in emu.commands.all()),
            }
        )

    async def messages(self, request: web.Request) -> web.Response:
        query = dict(request.query)
        channel = self._channel(query)
        return web.json_response([message_json(m) for m in self.emu.messages(channel)])

    async def slash(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user = self._user(body.get("user"))
        channel = self._channel(body)
        options = {k: self._value(v, channel) for k, v in (body.get("options") or {}).items()}
        try:
            if body.get("focused"):
                record = await self.emu.autocomplete(
                    user, channel, str(body["command"]), focused=str(body["focused"]), **options
                )
            else:
                record = await self.emu.slash(user, channel, str(body["command"]), **options)
        except EmulatorError as error:
            return web.json_response({"error": str(error)}, status=400)
        return await self._respond(record, body)

    async def click(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user = self._user(body.get("user"))
        try:
            message = self.emu.message(int(body["message_id"]))
            if "values" in body:
                values = [self._value(v, message.channel) for v in body["values"]]
                record = await self.emu.select(user, message, body.get("custom_id"), values)
            else:
                record = await self.emu.click(
                    user, message, custom_id=body.get("custom_id"), label=body.get("label")
                )
        except (EmulatorError, KeyError, LookupError, ValueError) as error:
            return web.json_response({"error": str(error)}, status=400)
        return await self._respond(record, body)

    async def modal(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        user = self._user(body.get("user"))
        try:
            record = await self.emu.submit_modal(user, str(body["custom_id"]), body.get("values") or {})
        except (EmulatorError, KeyError, ValueError) as error:
            return web.json_response({"error": str(error)}, status=400)
        return await self._respond(record, body)
