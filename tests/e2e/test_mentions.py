"""Nothing a member types pings anyone: a mention typed into a season's name, a night's title or
place, a table's name, a result's mission or factions (or a display name) is shown, never
notified. A message pings exactly the people it means to tell, named in its `allowed_mentions`.

Who is pinged is worked out from each request the bot made, by Discord's rules: a user mentioned
in the content (embeds never ping), allowed by `allowed_mentions` (no `allowed_mentions` at all:
every mention pings). Ephemeral answers notify nobody."""

from __future__ import annotations

import re
from typing import Any

from tests.e2e import night_driver
from tests.e2e.conftest import Muster
from tests.emulator import InteractionResponse, User
from tests.emulator.emulator import RecordedRequest
from tests.emulator.model import Channel

MENTION = re.compile(r"<@!?(\d+)>")
EPHEMERAL = 1 << 6
MESSAGE_PATHS = re.compile(
    r"/channels/\d+/messages(/\d+)?|/interactions/\d+/[^/]+/callback|/webhooks/\d+/[^/]+(/messages/.+)?"
)


def message_body(request: RecordedRequest) -> dict[str, Any] | None:
    """The message a request sends or edits (None: it sends none, or only its author sees it)."""
    if request.method not in ("POST", "PATCH") or not MESSAGE_PATHS.fullmatch(request.path):
        return None
    body = request.json
    if not isinstance(body, dict):
        return None
    if request.path.endswith("/callback"):
        body = body.get("data") if body.get("type") in (4, 7) else None
    if not isinstance(body, dict) or int(body.get("flags") or 0) & EPHEMERAL:
        return None
    return body


def pinged_by(body: dict[str, Any]) -> set[int]:
    """Discord's rule: a user in the content is pinged when `allowed_mentions` parses users or
    names them (when it is absent, every mention pings)."""
    mentioned = {int(m) for m in MENTION.findall(body.get("content") or "")}
    allowed = body.get("allowed_mentions")
    if allowed is None or "users" in allowed.get("parse", []):
        return mentioned
    return mentioned & {int(u) for u in allowed.get("users", [])}


def pings(muster: Muster) -> list[tuple[str, set[int]]]:
    """Every message the bot sent so far that pings someone, as (content, who)."""
    found = []
    for request in muster.emu.requests:
        body = message_body(request)
        if body is not None and (who := pinged_by(body)):
            found.append((str(body.get("content")), who))
    return found


def pinged(muster: Muster, user: User) -> list[str]:
    return [content for content, who in pings(muster) if user.id in who]


async def slash(
    muster: Muster, who: User, command: str, where: Channel | None = None, /, **options: Any
) -> InteractionResponse:
    record = await muster.emu.slash(who, where or muster.world.channel, command, **options)
    response = await record.response()
    await muster.settle()
    return response


def bystander(muster: Muster) -> tuple[User, str]:
    """dave, a member of the server who takes part in nothing, and his mention as typed."""
    dave = muster.emu.add_user("dave")
    muster.emu.add_member(muster.world.guild, dave)
    return dave, f"<@{dave.id}>"


async def test_a_mention_typed_into_a_season_name_pings_nobody(muster: Muster) -> None:
    w = muster.world
    dave, typed = bystander(muster)
    started = await slash(muster, w.carol, "scores season start", name=f"Autumn {typed}")
    assert not started.ephemeral and typed in started.content  # shown as typed...
    ended = await slash(muster, w.carol, "scores season end")
    assert not ended.ephemeral and typed in ended.content
    assert pinged(muster, dave) == []  # ...and notified to nobody


async def test_a_mention_typed_into_a_night_pings_nobody_when_it_is_made_or_cancelled(
    muster: Muster,
) -> None:
    w = muster.world
    dave, typed = bystander(muster)
    made = await night_driver.create(muster, title=f"Night {typed}", place=f"{typed}'s house")
    assert "error" not in made.text().lower()
    await night_driver.sign_up(muster, w.alice, "Kill Team")
    await slash(muster, w.carol, "night edit", title=f"Later {typed}")
    cancelled = await slash(muster, w.carol, "night cancel")
    assert "cancel" in cancelled.text().lower()
    told = [m for m in muster.emu.messages(w.channel) if "cancel" in m.content.lower()]
    assert told and typed in told[-1].content  # the channel hears of it, with the title as typed
    assert pinged(muster, dave) == []


async def test_mentions_typed_into_tables_results_and_names_ping_nobody_but_the_one_asked(
    muster: Muster,
) -> None:
    emu, w = muster.emu, muster.world
    dave, typed = bystander(muster)
    await slash(muster, w.carol, "night tables add", table="kz1", name=f"Table {typed}", systems="Kill Team")
    emu.add_member(w.guild, w.alice, nick=f"Alice {typed}")  # a display name is typed too
    await slash(
        muster,
        w.alice,
        "scores record",
        opponent=w.bob,
        system="warcry",
        my_score=12,
        their_score=8,
        mission=f"Ambush {typed}",
        my_faction=f"Iron {typed}",
        their_faction=f"Stone {typed}",
    )
    await (await emu.click(w.bob, emu.dms(w.bob)[-1], label="Confirm")).response()
    await muster.announced()
    before = len(pings(muster))
    await slash(muster, w.alice, "warcry battle", opponent=w.bob)
    assert pinged(muster, dave) == []
    # The pings that are meant still go out: the opponent asked to confirm, the players asked.
    assert any("please confirm" in content for content in pinged(muster, w.bob))
    asked = {user for _content, who in pings(muster)[before:] for user in who}
    assert asked and asked <= {w.alice.id, w.bob.id}


async def test_a_roll_names_its_player_and_pings_nobody(muster: Muster) -> None:
    w = muster.world
    rolled = await slash(muster, w.alice, "roll", dice="3d6+2")
    assert f"<@{w.alice.id}>" in rolled.content
    assert pings(muster) == []
