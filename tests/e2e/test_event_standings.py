"""The standings picture an event posts after each round: a PNG table carried by the outbox as an
attachment drawn when the post is sent (bot/chat/uploads.py), posted once even when the first try
fails and the bot restarts before the post goes out, and drawn the same from the stored event
later (a round's picture counts that round's games and the ones before only)."""

from __future__ import annotations

import io
from typing import cast

from PIL import Image

from cogs.event.commands import EventCog
from tests.e2e.conftest import Muster
from tests.e2e.event_driver import command, create, enter, posts, the_event
from tests.e2e.test_event import play_round, players, vps
from tests.emulator.model import Message


def picture_of(post: Message) -> bytes:
    [attachment] = post.attachments
    assert attachment.filename == "standings.png" and attachment.content_type == "image/png"
    return attachment.data


async def test_standings_are_posted_once_as_a_picture_after_each_round(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    field = players(muster, 4)
    by_id = {u.id: u for u in field}
    assert "is made" in await create(muster, rounds=2)
    for user in field:
        assert "entered" in await enter(muster, user)
        assert "sealed" in await command(muster, user, "list", faction=f"F{user.id % 10}", text="- Leader")
    assert "revealed" in await command(muster, w.carol, "close-lists")
    assert "Round 1" in await command(muster, w.carol, "publish")

    # Round 1's games, all but the last report; the standings post that report makes fails (503)
    # and the bot restarts while it is still owed.
    state = await the_event(muster)
    [*first_games, last] = state.round_games()
    await play_round(muster, state.model_copy(update={"games": first_games}), by_id)
    a, b = vps(last.first, last.second or 0, 1)
    assert last.second is not None
    assert "Reported" in await command(
        muster, by_id[last.first], "result", opponent=by_id[last.second], your_vp=a, their_vp=b
    )
    failing = emu.inject("POST", rf"/channels/{w.channel.id}/messages", status=503, count=None)
    said = await command(
        muster, by_id[last.second], "result", opponent=by_id[last.first], your_vp=b, their_vp=a
    )
    assert "recorded" in said, said
    await emu.wait_until(lambda: failing.hits >= 1, 10, "the standings post to be tried")
    assert posts(muster, "standings after round 1") == []
    await muster.restart()
    emu.clear_faults()
    await emu.wait_until(lambda: posts(muster, "standings after round 1"), 15, "the standings post")
    await muster.settle()
    [after_one] = posts(muster, "standings after round 1")
    png = picture_of(after_one)
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.width > 200 and image.height > 4 * 24

    # Round 2 and the finish: one picture each; round 1's is drawn the same from the store now.
    assert "Round 2" in await command(muster, w.carol, "publish")
    await play_round(muster, await the_event(muster), by_id)
    assert "over" in await command(muster, w.carol, "finish")
    after_two = posts(muster, "standings after round 2")
    final = posts(muster, "final standings")
    assert len(after_two) == len(final) == 1 and len(posts(muster, "standings after round 1")) == 1
    assert picture_of(after_two[0]) != png
    assert muster.bot is not None
    cog = cast(EventCog, muster.bot.get_cog("Event"))  # a restart loads the cog's module afresh
    assert await cog.standings_upload(f"{state.event_id}:1") == png
    assert await cog.standings_upload(f"{state.event_id}:final") == picture_of(final[0])
    assert await cog.standings_upload("000000000000:final") is None  # no such event: nothing
