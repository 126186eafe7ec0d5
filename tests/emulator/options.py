"""Build an application command's interaction `data` from the schema the bot registered.

The driver only accepts what Discord's client would let a user send: a command and options that
exist in the registered schema, values of the declared type, within declared choices and ranges.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .commands import OPTION_TYPE_NAMES
from .interactions import CommandNotFound, OptionError
from .model import JSON, Attachment, Channel, Member, Role, User


@dataclass
class OptionContext:
    """What the builder needs from the emulator to resolve users, channels and files."""

    command_label: str
    member_payload: Callable[[User], JSON | None]
    channel_payload: Callable[[Channel], JSON]
    make_attachment: Callable[[Any], Attachment]


def split_command(path: str) -> list[str]:
    tokens = path.strip().lstrip("/").split()
    if not tokens:
        raise CommandNotFound("empty command name")
    return tokens


def build_chat_input_data(
    command: JSON,
    sub_path: list[str],
    given: Mapping[str, Any],
    ctx: OptionContext,
    *,
    focused: str | None = None,
    enforce: bool = True,
) -> JSON:
    chain: list[JSON] = []
    current: list[JSON] = list(command.get("options") or [])
    walked = [command["name"]]
    for token in sub_path:
        match = next((o for o in current if o.get("name") == token and o.get("type") in (1, 2)), None)
        if match is None:
            subs = [o["name"] for o in current if o.get("type") in (1, 2)]
            raise CommandNotFound(
                f"/{' '.join(walked)} has no sub-command {token!r}"
                + (f"; it has: {', '.join(subs)}" if subs else "; it takes no sub-commands")
            )
        chain.append(match)
        walked.append(token)
        current = list(match.get("options") or [])
    if any(o.get("type") in (1, 2) for o in current):
        subs = [o["name"] for o in current if o.get("type") in (1, 2)]
        raise CommandNotFound(f"/{' '.join(walked)} needs a sub-command: {', '.join(subs)}")

    options, resolved = _build_leaf(current, given, ctx, focused=focused, enforce=enforce)
    nested: list[JSON] = options
    for sub in reversed(chain):
        nested = [{"type": sub["type"], "name": sub["name"], "options": nested}]
    data: JSON = {"id": command["id"], "name": command["name"], "type": 1, "options": nested}
    if any(resolved.values()):
        data["resolved"] = {k: v for k, v in resolved.items() if v}
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    return data


def _build_leaf(
    schema: list[JSON],
    given: Mapping[str, Any],
    ctx: OptionContext,
    *,
    focused: str | None,
    enforce: bool,
) -> tuple[list[JSON], dict[str, dict[str, JSON]]]:
    by_name = {o["name"]: o for o in schema}
    unknown = [name for name in given if name not in by_name]
    if unknown:
        raise OptionError(
            f"{ctx.command_label} has no option {', '.join(map(repr, unknown))}; "
            f"its options: {', '.join(by_name) or '(none)'}"
        )
    if focused is not None:
        spec = by_name.get(focused)
        if spec is None:
            raise OptionError(f"{ctx.command_label} has no option {focused!r} to autocomplete")
        if not spec.get("autocomplete"):
            raise OptionError(f"{ctx.command_label}: option {focused!r} does not use autocomplete")
    elif enforce:
        missing = [o["name"] for o in schema if o.get("required") and o["name"] not in given]
        if missing:
            raise OptionError(f"{ctx.command_label} requires {', '.join(missing)}")

    resolved: dict[str, dict[str, JSON]] = {
        "users": {},
        "members": {},
        "roles": {},
        "channels": {},
        "attachments": {},
    }
    options: list[JSON] = []
    for spec in schema:
        name = spec["name"]
        if name not in given and name != focused:
            continue
        kind = int(spec["type"])
        if name == focused:
            value = given.get(name, "")
            options.append({"type": kind, "name": name, "value": str(value), "focused": True})
            continue
        value = _convert(spec, given[name], ctx, resolved, enforce=enforce)
        options.append({"type": kind, "name": name, "value": value})
    return options, resolved


def _convert(
    spec: JSON, raw: Any, ctx: OptionContext, resolved: dict[str, dict[str, JSON]], *, enforce: bool
) -> Any:
    kind = int(spec["type"])
    name = spec["name"]
    label = f"{ctx.command_label} option {name!r} ({OPTION_TYPE_NAMES.get(kind, kind)})"
    choices = spec.get("choices") or []

    if kind in (3, 4, 10) and choices:
        for choice in choices:
            if raw == choice.get("value") or (isinstance(raw, str) and raw == choice.get("name")):
                return choice["value"]
        if enforce:
            allowed = ", ".join(f"{c.get('name')!r}={c.get('value')!r}" for c in choices)
            raise OptionError(f"{label}: {raw!r} is not one of the choices {allowed}")

    if kind == 3:
        if not isinstance(raw, str):
            raise OptionError(f"{label}: expected a str, got {type(raw).__name__}")
        if enforce:
            low, high = spec.get("min_length"), spec.get("max_length")
            if (low is not None and len(raw) < low) or (high is not None and len(raw) > high):
                raise OptionError(f"{label}: length {len(raw)} outside {low}..{high}")
        return raw
    if kind in (4, 10):
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise OptionError(f"{label}: expected a number, got {type(raw).__name__}")
        if kind == 4 and isinstance(raw, float):
            if not raw.is_integer():
                raise OptionError(f"{label}: expected a whole number, got {raw}")
            raw = int(raw)
        if kind == 10 and not math.isfinite(float(raw)):
            raise OptionError(f"{label}: {raw} is not a finite number")
        if kind == 4 and enforce and not -(2**53) <= raw <= 2**53:
            raise OptionError(f"{label}: {raw} is outside Discord's integer range")
        if enforce:
            low, high = spec.get("min_value"), spec.get("max_value")
            if (low is not None and raw < low) or (high is not None and raw > high):
                raise OptionError(f"{label}: {raw} outside {low}..{high}")
        return raw
    if kind == 5:
        if not isinstance(raw, bool):
            raise OptionError(f"{label}: expected a bool, got {type(raw).__name__}")
        return raw
    if kind in (6, 9) and isinstance(raw, User | Member):
        user = raw.user if isinstance(raw, Member) else raw
        resolved["users"][str(user.id)] = user.payload()
        member = ctx.member_payload(user)
        if member is not None:
            resolved["members"][str(user.id)] = member
        return str(user.id)
    if kind in (8, 9) and isinstance(raw, Role):
        resolved["roles"][str(raw.id)] = raw.payload()
        return str(raw.id)
    if kind == 7 and isinstance(raw, Channel):
        allowed_types = spec.get("channel_types")
        if enforce and allowed_types and raw.type not in allowed_types:
            raise OptionError(f"{label}: channel type {raw.type} not in {allowed_types}")
        resolved["channels"][str(raw.id)] = ctx.channel_payload(raw)
        return str(raw.id)
    if kind == 11:
        attachment = ctx.make_attachment(raw)
        resolved["attachments"][str(attachment.id)] = attachment.payload()
        return str(attachment.id)
    raise OptionError(f"{label}: cannot use a {type(raw).__name__} here")
