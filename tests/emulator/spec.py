"""Every request the emulator receives is checked against Discord's own OpenAPI description.

The emulator's hand-written rules (validation.py) know limits the spec cannot express (content
over 2000 characters for a bot, duplicate custom_ids, a button with neither custom_id nor url); the
spec knows the shape of every body Discord accepts. Checking both means a request that passes the
tests passes Discord.

The spec is `<repo>/../shared/discord-api-spec/openapi.json` (or `$MUSTER_DISCORD_SPEC`), loaded
once per process on first use. Its schemas are JSON Schema 2020-12, each checked by two validators
(`Schema`): `jsonschema-rs` says at once whether a request is valid, as nearly every one is, and
only a request it refuses is walked by `jsonschema` (`$ref`s resolved by `referencing` against the
whole document) for the errors the emulator answers with, each with its path and message, and a
sample of the valid ones, to keep checking that the two agree (`CROSS_CHECKED_EVERY`). Checked by
`jsonschema` alone, a suite's requests spent a tenth of its end-to-end tests' time here.

A request to a path the spec lacks, or whose body, query or path parameters the spec refuses, is
a `SpecViolation`: it is recorded in `Emulator.spec_violations`, answered as Discord would (404
for an unknown route, 400/50035 otherwise), and `Emulator.stop()` fails on it unless the test
said it expects some (`Emulator(spec_check=False)`, `emu.expect_spec_violations()`).
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote

import jsonschema_rs

# jsonschema ships no type hints (types-jsonschema is not in the test extra): its names are Any here.
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match, relevance
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .validation import FormErrors

if TYPE_CHECKING:
    from .emulator import Emulator, RecordedRequest

log = logging.getLogger(__name__)

SPEC_ENV = "MUSTER_DISCORD_SPEC"
"""Environment variable naming the spec file, instead of the default below."""
DEFAULT_SPEC = Path(__file__).resolve().parents[2].parent / "shared" / "discord-api-spec" / "openapi.json"
"""`<repo>/../shared/discord-api-spec/openapi.json`: where the project's checkouts keep it."""
SPEC_URI = "https://discord.com/api/v10/openapi.json"
"""The base URI the document is registered under, so `#/components/...` refs resolve against it."""
API_PREFIX = "/api/v10"
METHODS = ("get", "put", "post", "patch", "delete")

Answer = tuple[int, Any, dict[str, str] | None]
Where = Literal["route", "path", "query", "body"]


# --- tolerances ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tolerance:
    """One encoding discord.py sends that the spec types differently and Discord accepts.

    It applies only at its `fields` (body paths, `*` for every item of a list, or a query
    parameter's name) of the named operations: the same value anywhere else is still refused.
    """

    name: str
    operations: tuple[tuple[str, str], ...]  # (METHOD, spec path template)
    where: Literal["body", "query"]
    fields: tuple[tuple[str, ...], ...]
    accepts: Literal["integer snowflake", "boolean 1/0"]
    reason: str


QUERY_BOOLEANS = "Discord documents True/true/1 and False/false/0 for boolean query strings."
QUERY_BOOLEAN_WORDS = {"1": "true", "0": "false"}

TOLERANCES: tuple[Tolerance, ...] = (
    Tolerance(
        name="dm-recipient-integer",
        operations=(("POST", "/users/@me/channels"),),
        where="body",
        fields=(("recipient_id",),),
        accepts="integer snowflake",
        reason="discord.py's start_private_message sends the user id as a JSON number; Discord "
        "parses snowflakes from numbers as well as strings.",
    ),
    Tolerance(
        name="attachment-id-integer",
        operations=(
            ("POST", "/channels/{channel_id}/messages"),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
        ),
        where="body",
        fields=(("attachments", "*", "id"),),
        accepts="integer snowflake",
        reason="discord.py numbers a message's uploads `attachments[i].id = i` (an int) when it "
        "posts files (channel.send, followup.send); Discord accepts numeric snowflakes.",
    ),
    Tolerance(
        name="message-reference-integers",
        operations=(("POST", "/channels/{channel_id}/messages"),),
        where="body",
        fields=(
            ("message_reference", "message_id"),
            ("message_reference", "channel_id"),
            ("message_reference", "guild_id"),
        ),
        accepts="integer snowflake",
        reason="discord.py's Message.reply (and `reference=`) sends the referenced message's, "
        "channel's and guild's ids as numbers; Discord accepts numeric snowflakes.",
    ),
    Tolerance(
        name="allowed-mentions-integers",
        operations=(
            ("POST", "/channels/{channel_id}/messages"),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
        ),
        where="body",
        fields=(("allowed_mentions", "users", "*"), ("allowed_mentions", "roles", "*")),
        accepts="integer snowflake",
        reason="discord.py's AllowedMentions.to_dict lists the users and roles a message may ping "
        "by their ids as numbers; Discord accepts numeric snowflakes.",
    ),
    Tolerance(
        name="callback-attachment-id-integer",
        operations=(("POST", "/interactions/{interaction_id}/{interaction_token}/callback"),),
        where="body",
        fields=(("data", "attachments", "*", "id"),),
        accepts="integer snowflake",
        reason="the same attachment numbering inside an interaction response's `data`.",
    ),
    Tolerance(
        name="callback-with-response-int",
        operations=(("POST", "/interactions/{interaction_id}/{interaction_token}/callback"),),
        where="query",
        fields=(("with_response",),),
        accepts="boolean 1/0",
        reason="discord.py sends `with_response=1`. " + QUERY_BOOLEANS,
    ),
    Tolerance(
        name="webhook-wait-int",
        operations=(("POST", "/webhooks/{webhook_id}/{webhook_token}"),),
        where="query",
        fields=(("wait",),),
        accepts="boolean 1/0",
        reason="discord.py sends `wait=int(wait)` with every followup. " + QUERY_BOOLEANS,
    ),
    Tolerance(
        name="webhook-with-components-int",
        operations=(("POST", "/webhooks/{webhook_id}/{webhook_token}"),),
        where="query",
        fields=(("with_components",),),
        accepts="boolean 1/0",
        reason="discord.py sends `with_components=int(...)` with every followup. " + QUERY_BOOLEANS,
    ),
    Tolerance(
        name="my-guilds-with-counts-int",
        operations=(("GET", "/users/@me/guilds"),),
        where="query",
        fields=(("with_counts",),),
        accepts="boolean 1/0",
        reason="discord.py's fetch_guilds sends `with_counts=int(with_counts)`. " + QUERY_BOOLEANS,
    ),
    Tolerance(
        name="scheduled-events-with-user-count-int",
        operations=(
            ("GET", "/guilds/{guild_id}/scheduled-events"),
            ("GET", "/guilds/{guild_id}/scheduled-events/{guild_scheduled_event_id}"),
        ),
        where="query",
        fields=(("with_user_count",),),
        accepts="boolean 1/0",
        reason="discord.py sends `with_user_count=int(with_user_count)`. " + QUERY_BOOLEANS,
    ),
)
"""Every departure from the spec the emulator lets through, and nothing else."""


def _tolerated(where: str, method: str, template: str) -> Iterator[Tolerance]:
    for tolerance in TOLERANCES:
        if tolerance.where == where and (method, template) in tolerance.operations:
            yield tolerance


def _apply_query_tolerances(method: str, template: str, query: Mapping[str, str]) -> dict[str, str]:
    """`query` with 1/0 written true/false where a tolerance names the parameter."""
    named = {field[0] for t in _tolerated("query", method, template) for field in t.fields}
    out = {
        name: QUERY_BOOLEAN_WORDS.get(value, value) if name in named else value
        for name, value in query.items()
    }
    return out


def _apply_body_tolerance(value: Any, path: tuple[str, ...]) -> Any:
    """`value` with integer snowflakes at `path` written as strings (a copy where it changes)."""
    if not path:
        return str(value) if type(value) is int and value >= 0 else value
    head, rest = path[0], path[1:]
    if head == "*":
        return [_apply_body_tolerance(item, rest) for item in value] if isinstance(value, list) else value
    if isinstance(value, dict) and head in value:
        return {**value, head: _apply_body_tolerance(value[head], rest)}
    return value


# --- violations ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpecViolation:
    """A request Discord's spec refuses: where, and what jsonschema said."""

    method: str
    path: str  # relative to the API base, as in RecordedRequest
    template: str | None  # the spec's path template, None for an unknown route
    where: Where
    json_path: str  # "$.embeds[0].fields[0].name"; "$" for the whole body or for the route
    message: str
    keyword: str = ""  # the failing JSON Schema keyword ("maxLength", "required", ...)
    form_path: tuple[str | int, ...] = field(default=(), repr=False, compare=False)

    def __str__(self) -> str:
        route = self.template or "(no such route)"
        return f"{self.method} {self.path} [{route}] {self.where} {self.json_path}: {self.message}"


FORM_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "required": "BASE_TYPE_REQUIRED",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
    "type": "BASE_TYPE_BAD_TYPE",
}
"""Discord's form error codes for the JSON Schema keywords that fail most."""


def _error_path(error: ValidationError) -> tuple[str | int, ...]:
    """Where the error is; for a missing property, the property itself (as Discord reports it)."""
    path = tuple(error.absolute_path)
    wanted = error.validator_value
    if error.validator == "required" and isinstance(error.instance, dict) and isinstance(wanted, list):
        missing = [name for name in wanted if name not in error.instance]
        return (*path, *missing[:1])
    return path


def _json_path(path: tuple[str | int, ...]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def form_errors(violations: list[SpecViolation]) -> FormErrors:
    """The violations as Discord's nested 50035 `errors`."""
    errors = FormErrors()
    for violation in violations:
        code = FORM_CODES.get(violation.keyword, "BASE_TYPE_INVALID")
        errors.add(violation.form_path, code, violation.message)
    return errors


# --- the spec -----------------------------------------------------------------------------------


def _pointer(*parts: str) -> str:
    return "#/" + "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


def _template_regex(template: str) -> re.Pattern[str]:
    parts = re.split(r"(\{[^}]+\})", template)
    pattern = "".join(f"(?P<{p[1:-1]}>[^/]+)" if p.startswith("{") else re.escape(p) for p in parts)
    return re.compile(pattern)


@dataclass(frozen=True)
class Schema:
    """One schema of the spec: `quick` tells whether an instance is valid, `full` what is wrong
    with one that is not. Both read the same schema, so they agree on which instances are valid
    (tests/emulator/test_spec.py); every violation the emulator reports comes from `full`."""

    quick: jsonschema_rs.Validator
    full: Any  # jsonschema's Draft202012Validator


def _uri_safe(schema: Any) -> Any:
    """`schema` with each `$ref` into the document percent-encoded as a URI needs (jsonschema-rs
    refuses the "{" and "}" of a path template in a fragment; jsonschema takes them as they are)."""
    if isinstance(schema, list):
        return [_uri_safe(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        key: SPEC_URI + quote(value.removeprefix(SPEC_URI), safe="#/~")
        if key == "$ref" and isinstance(value, str) and value.startswith(SPEC_URI)
        else _uri_safe(value)
        for key, value in schema.items()
    }


@dataclass
class Operation:
    """One method on one path template, with its validators compiled on first use."""

    spec: DiscordSpec
    method: str
    template: str
    regex: re.Pattern[str]
    literal_segments: int

    @cached_property
    def _raw(self) -> Mapping[str, Any]:
        item: Mapping[str, Any] = self.spec.document["paths"][self.template]
        return item[self.method.lower()]  # type: ignore[no-any-return]

    def _parameters(self, location: str) -> dict[str, tuple[str, bool]]:
        """name -> (pointer to its schema, required), operation-level over path-level."""
        found: dict[str, tuple[str, bool]] = {}
        levels = [
            ("paths", self.template, "parameters"),
            ("paths", self.template, self.method.lower(), "parameters"),
        ]
        for level in levels:
            node: Any = self.spec.document
            for key in level:
                node = node.get(key, {}) if isinstance(node, dict) else {}
            for index, parameter in enumerate(node or []):
                if parameter.get("in") == location:
                    pointer = _pointer(*level, str(index), "schema")
                    found[parameter["name"]] = (pointer, bool(parameter.get("required")))
        return found

    def _object_validator(self, location: str, *, closed: bool) -> tuple[Schema, dict[str, str]]:
        parameters = self._parameters(location)
        schema: dict[str, Any] = {
            "type": "object",
            "properties": {name: {"$ref": SPEC_URI + pointer} for name, (pointer, _) in parameters.items()},
            "required": [name for name, (_, required) in parameters.items() if required],
        }
        if closed:
            schema["additionalProperties"] = False
        types = {name: self.spec.scalar_type(pointer) for name, (pointer, _) in parameters.items()}
        return self.spec.schema(schema), types

    @cached_property
    def path_validator(self) -> tuple[Schema, dict[str, str]]:
        return self._object_validator("path", closed=False)

    @cached_property
    def query_validator(self) -> tuple[Schema, dict[str, str]]:
        """Closed: a query parameter the operation does not document is a typo Discord ignores."""
        return self._object_validator("query", closed=True)

    @cached_property
    def body(self) -> tuple[bool, dict[str, Schema]]:
        """(body required, media type -> validator) for the media types Muster's client sends."""
        request_body = self._raw.get("requestBody")
        if request_body is None:
            return False, {}
        base = ("paths", self.template, self.method.lower(), "requestBody", "content")
        validators = {
            media: self.spec.schema({"$ref": SPEC_URI + _pointer(*base, media, "schema")})
            for media in request_body.get("content", {})
            if media in ("application/json", "multipart/form-data")
        }
        return bool(request_body.get("required")), validators


def _constant_type(schema: Any, components: Mapping[str, Any]) -> Any:
    """The one `type` value an object schema requires, or None."""
    for _ in range(10):
        if not isinstance(schema, dict) or "$ref" not in schema:
            break
        schema = components.get(schema["$ref"].rpartition("/")[2])
    if not isinstance(schema, dict) or "type" not in schema.get("required", ()):
        return None
    kind = schema.get("properties", {}).get("type", {})
    if "const" in kind:
        return kind["const"]
    values = kind.get("enum") or []
    return values[0] if len(values) == 1 else None


def _discriminate(node: Any, components: Mapping[str, Any]) -> None:
    """Rewrite, in place, each oneOf/anyOf whose branches all require one constant `type` (message
    components, command options, callback types) so each branch is `if type == v then branch else
    false`: the same set of valid instances, but only the branch of the instance's own type is
    validated in full. Without it, nested options cost every branch at every level (seconds for a
    command sync)."""
    if isinstance(node, list):
        for item in node:
            _discriminate(item, components)
        return
    if not isinstance(node, dict):
        return
    for keyword in ("oneOf", "anyOf"):
        branches = node.get(keyword)
        if isinstance(branches, list) and len(branches) > 1:
            values = [_constant_type(branch, components) for branch in branches]
            if all(value is not None for value in values):
                node[keyword] = [
                    {
                        "if": {"properties": {"type": {"const": v}}, "required": ["type"]},
                        "then": b,
                        "else": False,
                    }
                    for v, b in zip(values, branches, strict=True)
                ]
    for value in node.values():
        _discriminate(value, components)


class DiscordSpec:
    """Discord's OpenAPI document: its path templates (matched once built) and its schemas."""

    def __init__(self, document: dict[str, Any], source: Path) -> None:
        self.document = document
        self.source = source
        _discriminate(document, document.get("components", {}).get("schemas", {}))
        resource: Resource[Any] = Resource.from_contents(document, default_specification=DRAFT202012)
        self.registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self.quick_registry = jsonschema_rs.Registry([(SPEC_URI, document)])
        self.operations: list[Operation] = []
        for template, item in document["paths"].items():
            regex = _template_regex(template)
            literal = sum(1 for segment in template.split("/") if segment and "{" not in segment)
            for method in METHODS:
                if method in item:
                    self.operations.append(Operation(self, method.upper(), template, regex, literal))

    def schema(self, schema: dict[str, Any]) -> Schema:
        """A schema whose `$ref`s point into the document, with both its validators."""
        return Schema(
            jsonschema_rs.Draft202012Validator(_uri_safe(schema), registry=self.quick_registry),
            Draft202012Validator(schema, registry=self.registry),
        )

    def match(self, method: str, path: str) -> tuple[Operation | None, dict[str, str], bool]:
        """(operation, path parameters, whether the path exists for some other method).

        Where templates overlap (`/users/@me` and `/users/{user_id}`) the most literal one wins.
        """
        best: tuple[Operation, re.Match[str]] | None = None
        other_method = False
        for operation in self.operations:
            found = operation.regex.fullmatch(path)
            if found is None:
                continue
            if operation.method != method:
                other_method = True
            elif best is None or operation.literal_segments > best[0].literal_segments:
                best = (operation, found)
        if best is None:
            return None, {}, other_method
        return best[0], best[1].groupdict(), other_method

    def scalar_type(self, pointer: str) -> str:
        """The JSON type a query or path parameter's string is read as ("string" if unsure)."""
        resolver = self.registry.resolver(base_uri=SPEC_URI)
        schema: Any = resolver.lookup(SPEC_URI + pointer).contents
        for _ in range(10):
            if "$ref" in schema:
                schema = resolver.lookup(schema["$ref"]).contents
                continue
            kinds = schema.get("type")
            if isinstance(kinds, str):
                return kinds
            if isinstance(kinds, list):
                return next((k for k in kinds if k != "null"), "string")
            branches = schema.get("oneOf") or schema.get("anyOf") or schema.get("allOf")
            if not branches:
                break
            schema = branches[0]
        return "string"


def coerce(value: str, kind: str) -> Any:
    """A query or path string as the type the spec gives it; left a string when it is not one."""
    try:
        if kind == "integer" and re.fullmatch(r"-?\d+", value):
            return int(value)
        if kind == "number":
            return float(value)
    except ValueError:
        return value
    if kind == "boolean" and value in ("true", "false"):
        return value == "true"
    if kind == "array":
        return [value]
    return value


_SPECS: dict[Path, DiscordSpec] = {}
_warned_missing = False


def _under_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def spec_path() -> Path:
    override = os.environ.get(SPEC_ENV)
    return Path(override) if override else DEFAULT_SPEC


def load_spec(path: Path | None = None) -> DiscordSpec | None:
    """The spec, parsed once per process; None (warned once) when the file is absent.

    Absent is an error under CI (`$CI` set) and when `$MUSTER_DISCORD_SPEC` names a missing file:
    there the check must not be skipped silently.
    """
    global _warned_missing
    source = (path or spec_path()).resolve()
    if source in _SPECS:
        return _SPECS[source]
    if not source.is_file():
        if _under_ci() or (path is None and os.environ.get(SPEC_ENV)):
            raise FileNotFoundError(f"Discord's OpenAPI spec is required here and missing: {source}")
        if not _warned_missing:
            _warned_missing = True
            log.warning(
                "Discord's OpenAPI spec is not at %s (set %s): the emulator validates requests "
                "with its own rules only",
                source,
                SPEC_ENV,
            )
        return None
    _SPECS[source] = DiscordSpec(json.loads(source.read_text(encoding="utf-8")), source)
    return _SPECS[source]


# --- checking a request -------------------------------------------------------------------------


@dataclass
class Check:
    """The violations found in one request."""

    method: str
    path: str
    template: str | None
    violations: list[SpecViolation] = field(default_factory=list)

    def fail(self, where: Where, message: str, keyword: str = "") -> None:
        self.violations.append(
            SpecViolation(self.method, self.path, self.template, where, "$", message, keyword)
        )

    def fail_all(self, where: Where, schema: Schema, instance: Any) -> None:
        for path, message, keyword in _errors(schema, instance):
            self.violations.append(
                SpecViolation(
                    self.method, self.path, self.template, where, _json_path(path), message, keyword, path
                )
            )


ErrorSummary = tuple[tuple[str | int, ...], str, str]  # (path, message, keyword)
_RESULTS: dict[tuple[int, str], list[ErrorSummary]] = {}
RESULTS_KEPT = 4096


CROSS_CHECKED_EVERY = 16
"""Of the requests `jsonschema-rs` finds valid, each schema's first in a process and one in this
many after it are walked by `jsonschema` too: were the two ever to disagree, the request is
refused with `jsonschema`'s errors, so a test fails and says where, and the emulator is never
less strict than with `jsonschema` alone."""
_cross_checked: set[int] = set()
_quick_passes = 0


def _errors(schema: Schema, instance: Any) -> list[ErrorSummary]:
    """Each error (its most relevant cause, for a failed oneOf/anyOf), remembered per instance:
    every test syncs the same commands and sends many of the same bodies. No error for a valid one."""
    global _quick_passes
    validator = schema.full
    if schema.quick.is_valid(instance):
        _quick_passes += 1
        if id(validator) in _cross_checked and _quick_passes % CROSS_CHECKED_EVERY:
            return []
        _cross_checked.add(id(validator))
    key = (id(validator), json.dumps(instance, sort_keys=True))
    if key not in _RESULTS:
        if len(_RESULTS) >= RESULTS_KEPT:
            _RESULTS.clear()
        summaries: list[ErrorSummary] = []
        for found in sorted(validator.iter_errors(instance), key=relevance):
            error = best_match([found]) or found
            summaries.append((_error_path(error), error.message, str(error.validator)))
        _RESULTS[key] = summaries
    return _RESULTS[key]


def check_request(
    spec: DiscordSpec, method: str, path: str, query: Mapping[str, str], body: Any, content_type: str
) -> Check:
    """The violations of one request; `path` is relative to /api/v10, `body` is the parsed JSON
    (a multipart request's `payload_json`) or None."""
    operation, params, other_method = spec.match(method, path)
    if operation is None:
        check = Check(method, path, None)
        check.fail(
            "route", "the spec has this path only for other methods" if other_method else "no such route"
        )
        return check
    check = Check(method, path, operation.template)
    validator, types = operation.path_validator
    check.fail_all("path", validator, _coerced(params, types))
    validator, types = operation.query_validator
    query = _apply_query_tolerances(method, operation.template, query)
    check.fail_all("query", validator, _coerced(query, types))
    _check_body(check, operation, body, content_type)
    return check


def _coerced(values: Mapping[str, str], types: Mapping[str, str]) -> dict[str, Any]:
    return {name: coerce(value, types.get(name, "string")) for name, value in values.items()}


def _check_body(check: Check, operation: Operation, body: Any, content_type: str) -> None:
    required, validators = operation.body
    if body is None:
        if required:
            check.fail("body", "a body is required", "required")
        return
    if not validators:
        check.fail("body", "this operation takes no body")
        return
    media = "multipart/form-data" if content_type.startswith("multipart/") else "application/json"
    validator = validators.get(media) or next(iter(validators.values()))
    for tolerance in _tolerated("body", operation.method, operation.template):
        for path in tolerance.fields:
            body = _apply_body_tolerance(body, path)
    check.fail_all("body", validator, body)


# --- the emulator's gate ------------------------------------------------------------------------


class SpecGate:
    """The hook `RestApi.handle` calls before routing: checks the request, answers a violation.

    The answer is Discord's: 404 for a route it does not have, 400/50035 for a body or parameter it
    refuses (the bot under test sees what Discord would do). None lets the request through.
    """

    def __init__(self, emulator: Emulator) -> None:
        self.emu = emulator
        self.spec = load_spec() if emulator.spec_check else None

    def check(
        self,
        method: str,
        request_path: str,
        content_type: str,
        query: Mapping[str, str],
        body: Any,
        record: RecordedRequest,
    ) -> Answer | None:
        if self.spec is None or not request_path.startswith(API_PREFIX + "/"):
            return None
        check = check_request(self.spec, method, record.path, query, body, content_type)
        if not check.violations:
            return None
        self.emu.spec_violations.extend(check.violations)
        for violation in check.violations:
            log.warning("request outside Discord's spec: %s", violation)
        if check.template is None:
            return 404, {"message": "404: Not Found", "code": 0}, None
        errors = form_errors(check.violations).nested()
        return 400, {"message": "Invalid Form Body", "code": 50035, "errors": errors}, None


def describe(violations: list[SpecViolation]) -> str:
    return "\n".join(f"  {violation}" for violation in violations)
