"""Requests are checked against Discord's OpenAPI spec (spec.py), beside the emulator's own rules."""

from __future__ import annotations

import datetime as dt
import io
import logging
from pathlib import Path
from typing import Any

import aiohttp
import discord
import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from . import DefaultWorld, Emulator
from . import spec as spec_module
from .emulator import RecordedRequest
from .pingbot import PingBot
from .spec import TOLERANCES, DiscordSpec, SpecViolation, check_request, load_spec

CONTENT_JSON = "application/json"


async def _raw(emu: Emulator, method: str, path: str, **kwargs: Any) -> tuple[int, Any]:
    """A request as any HTTP client would send it, without discord.py's own encodings."""
    headers = {"Authorization": f"Bot {emu.token}"}
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, emu.api_base + path, headers=headers, **kwargs) as response,
    ):
        body = await response.json() if response.status != 204 else None
        return response.status, body


def _spec() -> DiscordSpec:
    spec = load_spec()
    if spec is None:
        pytest.skip("Discord's OpenAPI spec is not available here")
    return spec


def _violations(method: str, path: str, body: Any = None, query: dict[str, str] | None = None) -> list[str]:
    check = check_request(_spec(), method, path, query or {}, body, CONTENT_JSON)
    return [f"{v.where} {v.json_path}" for v in check.violations]


# --- which layer catches what ------------------------------------------------------------------


async def test_an_overlong_embed_field_name_is_refused_by_the_spec(
    emu: Emulator, world: DefaultWorld, bot: PingBot
) -> None:
    """The spec says maxLength 256 for an embed field's name: it catches it before the own rules."""
    _spec()
    embed = discord.Embed(title="Roster").add_field(name="n" * 300, value="v")
    with pytest.raises(discord.HTTPException) as refused:
        await bot.get_partial_messageable(world.channel.id).send(embed=embed)
    assert refused.value.status == 400 and refused.value.code == 50035
    (violation,) = emu.spec_violations
    assert (violation.where, violation.json_path, violation.keyword) == (
        "body",
        "$.embeds[0].fields[0].name",
        "maxLength",
    )
    assert violation.template == "/channels/{channel_id}/messages"
    assert "embeds.0.fields.0.name" in str(refused.value)  # Discord's nested form errors
    emu.invalid_requests.clear()
    emu.spec_violations.clear()


async def test_a_button_without_custom_id_is_refused_by_the_emulators_own_rules(
    emu: Emulator, world: DefaultWorld
) -> None:
    """The spec makes custom_id optional (link buttons have none): only the own rules know a
    non-link button needs one."""
    button = {"type": 2, "style": 1, "label": "Join"}
    body = {"content": "Ready?", "components": [{"type": 1, "components": [button]}]}
    status, answer = await _raw(emu, "POST", f"/channels/{world.channel.id}/messages", json=body)
    assert status == 400 and answer["code"] == 50035
    assert "custom_id" in answer["errors"]["components"]["0"]["components"]["0"]
    assert emu.spec_violations == []  # the spec let it through
    assert len(emu.invalid_requests) == 1
    emu.invalid_requests.clear()


async def test_without_the_spec_the_own_rules_still_refuse_an_overlong_field_name(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A clone without ../shared: one warning, then the emulator's own rules only."""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv(spec_module.SPEC_ENV, raising=False)
    monkeypatch.setattr(spec_module, "DEFAULT_SPEC", tmp_path / "openapi.json")
    monkeypatch.setattr(spec_module, "_warned_missing", False)
    with caplog.at_level(logging.WARNING, logger=spec_module.__name__):
        async with Emulator() as first, Emulator() as _second:
            world = first.add_default_world()
            embed = {"title": "Roster", "fields": [{"name": "n" * 300, "value": "v"}]}
            status, answer = await _raw(
                first, "POST", f"/channels/{world.channel.id}/messages", json={"embeds": [embed]}
            )
            assert status == 400 and "name" in answer["errors"]["embeds"]["0"]["fields"]["0"]
            assert first.spec_violations == [] and len(first.invalid_requests) == 1
    warnings = [r for r in caplog.records if r.name == spec_module.__name__]
    assert len(warnings) == 1 and "own rules only" in warnings[0].getMessage()


def test_without_the_spec_under_ci_is_an_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv(spec_module.SPEC_ENV, raising=False)
    monkeypatch.setattr(spec_module, "DEFAULT_SPEC", tmp_path / "openapi.json")
    with pytest.raises(FileNotFoundError, match="required"):
        load_spec()
    monkeypatch.delenv("CI")
    monkeypatch.setenv(spec_module.SPEC_ENV, str(tmp_path / "elsewhere.json"))
    with pytest.raises(FileNotFoundError):  # a named file that is not there is never skipped
        load_spec()


# --- how a violation fails a test ------------------------------------------------------------


async def test_an_unknown_route_answers_404_and_fails_stop() -> None:
    _spec()
    emu = await Emulator().start()
    try:
        status, _ = await _raw(emu, "GET", "/channels/1/nonsense")
        assert status == 404
        status, _ = await _raw(emu, "POST", "/gateway/bot")  # the path exists, for GET only
        assert status == 404
    finally:
        with pytest.raises(AssertionError) as failed:
            await emu.stop()
    assert "GET /channels/1/nonsense [(no such route)] route $: no such route" in str(failed.value)
    assert "other methods" in str(failed.value)
    assert [v.where for v in emu.spec_violations] == ["route", "route"]


async def test_a_test_may_expect_violations_or_opt_out() -> None:
    async with Emulator() as emu:
        emu.expect_spec_violations()
        status, _ = await _raw(emu, "GET", "/channels/1/nonsense")
        assert status == 404
    assert len(emu.spec_violations) == (0 if load_spec() is None else 1)
    async with Emulator(spec_check=False) as unchecked:
        status, _ = await _raw(unchecked, "GET", "/channels/1/nonsense")
        assert status == 404 and unchecked.spec_violations == []  # the emulator's own 404


async def test_a_failed_test_keeps_its_error_with_the_violations_as_a_note() -> None:
    _spec()
    with pytest.raises(RuntimeError) as failed:
        async with Emulator() as emu:
            await _raw(emu, "GET", "/channels/1/nonsense")
            raise RuntimeError("the test's own failure")
    assert any("no such route" in note for note in failed.value.__notes__)


# --- the spec's rules and the tolerances ---------------------------------------------------------


def test_bodies_queries_and_path_parameters_are_checked() -> None:
    assert _violations("POST", "/channels/1/messages", {"content": "hi"}) == []
    assert _violations("POST", "/channels/1/messages", {"content": 5}) == ["body $.content"]
    assert _violations("POST", "/channels/x/messages", {"content": "hi"}) == ["path $.channel_id"]
    assert _violations("GET", "/channels/1/messages", query={"limit": "50"}) == []
    assert _violations("GET", "/channels/1/messages", query={"limit": "500"}) == ["query $.limit"]
    assert _violations("GET", "/channels/1/messages", query={"limt": "5"}) == ["query $"]  # a typo
    assert _violations("POST", "/users/@me/channels") == ["body $"]  # a body is required
    assert _violations("GET", "/users/@me") == []  # the literal template wins over /users/{user_id}


def test_an_integer_recipient_id_is_tolerated_only_where_named(world_spec: DiscordSpec) -> None:
    assert _violations("POST", "/users/@me/channels", {"recipient_id": 81384788765712384}) == []
    assert _violations("POST", "/users/@me/channels", {"recipient_id": "81384788765712384"}) == []
    assert _violations("POST", "/users/@me/channels", {"recipient_id": -1}) == ["body $.recipient_id"]
    reply = {"content": "hi", "message_reference": {"message_id": 81384788765712384}}
    assert _violations("POST", "/channels/1/messages", reply) == []  # message-reference-integers
    mention = {"content": "hi", "allowed_mentions": {"users": [81384788765712384]}}
    assert _violations("POST", "/channels/1/messages", mention) == []  # allowed-mentions-integers
    # The same encoding where no tolerance names it is refused.
    assert _violations("POST", "/channels/1/messages", {"sticker_ids": [1]}) == ["body $.sticker_ids[0]"]


def test_integer_attachment_ids_and_boolean_1_0_are_tolerated_only_where_named(
    world_spec: DiscordSpec,
) -> None:
    attachments = {"content": "hi", "attachments": [{"id": 0, "filename": "roster.txt"}]}
    assert _violations("POST", "/channels/1/messages", attachments) == []
    assert _violations("POST", "/webhooks/1/tok", attachments) == []
    edit = ["body $.attachments[0].id"]  # discord.py was never seen sending this: not tolerated
    assert _violations("PATCH", "/webhooks/1/tok/messages/@original", attachments) == edit
    deep = {"content": "hi", "embeds": [{"title": "t", "fields": [{"name": 1, "value": "v"}]}]}
    assert _violations("POST", "/channels/1/messages", deep) == ["body $.embeds[0].fields[0].name"]

    callback = "/interactions/1/tok/callback"
    pong = {"type": 6}
    assert _violations("POST", callback, pong, {"with_response": "1"}) == []
    assert _violations("POST", callback, pong, {"with_response": "true"}) == []
    assert _violations("POST", callback, pong, {"with_response": "yes"}) == ["query $.with_response"]
    assert _violations("POST", "/webhooks/1/tok", {"content": "hi"}, {"wait": "1"}) == []
    # 1/0 for a boolean no tolerance names is refused.
    assert _violations("GET", "/guilds/1", query={"with_counts": "1"}) == ["query $.with_counts"]


A_MESSAGE: dict[str, Any] = {
    "content": "Turning point 2",
    "embeds": [
        {"title": "Board", "description": "d", "fields": [{"name": "n", "value": "v", "inline": True}]}
    ],
    "components": [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": "End turn", "custom_id": "s:abc:1"},
                {"type": 2, "style": 5, "label": "Rules", "url": "https://example.com"},
            ],
        },
        {
            "type": 1,
            "components": [{"type": 3, "custom_id": "m:1", "options": [{"label": "a", "value": "a"}]}],
        },
    ],
    "allowed_mentions": {"parse": [], "users": ["81384788765712384"]},
    "flags": 4096,
}
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=300),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["type", "x", "label"]), inner)
    ),
    max_leaves=6,
)


def _leaves(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(node, dict):
        return [path] + [leaf for key, value in node.items() for leaf in _leaves(value, (*path, key))]
    if isinstance(node, list):
        return [path] + [leaf for index, value in enumerate(node) for leaf in _leaves(value, (*path, index))]
    return [path]


def _replaced(node: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copy = dict(node) if isinstance(node, dict) else list(node)
    copy[path[0]] = _replaced(node[path[0]], path[1:], value)
    return copy


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_the_quick_validator_and_the_full_one_agree_on_which_bodies_are_valid(data: st.DataObject) -> None:
    """Only what jsonschema-rs refuses is looked at by jsonschema, so a body it let through that
    jsonschema would refuse would be a violation missed: each part of a message changed at random."""
    operation, _params, _other = _spec().match("POST", "/channels/1/messages")
    assert operation is not None
    schema = operation.body[1][CONTENT_JSON]
    body = A_MESSAGE
    for _ in range(data.draw(st.integers(0, 2))):
        body = _replaced(body, data.draw(st.sampled_from(_leaves(body))), data.draw(JSON_VALUES))
    full_errors = list(schema.full.iter_errors(body))
    assert schema.quick.is_valid(body) == (not full_errors), (body, [e.message for e in full_errors])


def test_a_body_the_quick_validator_lets_through_is_still_walked_by_the_full_one_now_and_then(
    world_spec: DiscordSpec,
) -> None:
    """Were jsonschema-rs ever laxer than jsonschema, a schema's first request in a process and one
    in sixteen after it would still be refused: here a quick validator that takes anything."""
    operation, _params, _other = world_spec.match("POST", "/channels/1/messages")
    assert operation is not None
    real = operation.body[1][CONTENT_JSON]
    anything = jsonschema_rs.Draft202012Validator({})
    lax = spec_module.Schema(anything, real.full.evolve(schema=real.full.schema))  # a schema of its own
    bad = {"content": 5}
    refused = [bool(spec_module._errors(lax, bad)) for _ in range(2 * spec_module.CROSS_CHECKED_EVERY)]
    assert refused[0]  # the schema's first
    assert 2 <= sum(refused) <= 3  # and one in sixteen after it


def test_every_tolerance_names_operations_the_spec_has(world_spec: DiscordSpec) -> None:
    names = [t.name for t in TOLERANCES]
    assert len(names) == len(set(names))
    for tolerance in TOLERANCES:
        assert tolerance.reason and tolerance.operations
        for method, template in tolerance.operations:
            assert method.lower() in world_spec.document["paths"][template], tolerance.name


@pytest.fixture
def world_spec() -> DiscordSpec:
    return _spec()


async def test_each_tolerance_is_needed_by_discord_py(
    emu: Emulator, world: DefaultWorld, bot: PingBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Drive the real client through every tolerated request: all pass; checked again without
    any one tolerance, some of them fail, and only on that tolerance's operations."""
    spec = _spec()
    channel = bot.get_partial_messageable(world.channel.id)
    await bot.create_dm(discord.Object(world.alice.id))  # recipient_id
    posted = await channel.send("roster", file=discord.File(io.BytesIO(b"alice,bob"), "roster.csv"))
    text_channel = bot.get_channel(world.channel.id)
    assert isinstance(text_channel, discord.TextChannel)
    await text_channel.get_partial_message(posted.id).reply("noted")  # message_reference ids
    only_alice = discord.AllowedMentions(users=[discord.Object(world.alice.id)], roles=False)
    told = await channel.send(f"<@{world.alice.id}>", allowed_mentions=only_alice)  # user ids
    await told.edit(content=f"<@{world.alice.id}> again", allowed_mentions=only_alice)
    pinged = await emu.slash(world.alice, world.channel, "ping")  # with_response=1
    await pinged.response()
    webhook = discord.Webhook.partial(emu.application_id, pinged.token, client=bot)
    await webhook.send("late", file=discord.File(io.BytesIO(b"x"), "late.txt"), wait=True)
    upload = emu.upload("list.txt", b"alice")
    echoed = await emu.slash(world.alice, world.channel, "upload", file=upload)  # callback file
    await echoed.response()
    assert [g.name async for g in bot.fetch_guilds(limit=10)] == ["Club"]  # with_counts=1
    guild = bot.get_guild(world.guild.id)
    assert guild is not None
    start = discord.utils.utcnow() + dt.timedelta(days=1)
    made = await guild.create_scheduled_event(
        name="Club night",
        start_time=start,
        end_time=start + dt.timedelta(hours=3),
        entity_type=discord.EntityType.external,
        privacy_level=discord.PrivacyLevel.guild_only,
        location="The club",
    )
    await guild.fetch_scheduled_events()  # with_user_count=1
    await guild.fetch_scheduled_event(made.id)
    assert emu.spec_violations == []

    requests = [r for r in emu.requests if not r.path.startswith("/attachments/")]
    for tolerance in TOLERANCES:
        others = tuple(t for t in TOLERANCES if t is not tolerance)
        monkeypatch.setattr(spec_module, "TOLERANCES", others)
        refused = [v for r in requests for v in _recheck(spec, r)]
        assert refused, f"{tolerance.name} is not needed"
        assert {(v.method, v.template) for v in refused} <= set(tolerance.operations), tolerance.name


def _recheck(spec: DiscordSpec, record: RecordedRequest) -> list[SpecViolation]:
    content_type = "multipart/form-data" if record.files else CONTENT_JSON
    return check_request(spec, record.method, record.path, record.query, record.json, content_type).violations
