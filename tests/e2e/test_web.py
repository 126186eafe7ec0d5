"""The league web site's Discord side through the emulator: `/settings web on|off` (Manage Server)
answers with the page's address and shows or hides the server at once on the site; `/scores privacy`
hides a member there; the names the site shows are the ones the server shows, noted from interactions."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import select

from bot.config import WebSettings
from bot.db.engine import make_engine
from bot.db.models import GuildSettings, MemberName, RatingSnapshot
from bot.web.app import SITE, make_app
from tests.e2e.conftest import Muster
from tests.emulator import Channel, InteractionResponse, User

BASE = "https://league.example.org"


async def slash(
    muster: Muster, who: User, command: str, where: Channel | None = None, /, **options: Any
) -> InteractionResponse:
    record = await muster.emu.slash(who, where or muster.world.channel, command, **options)
    return await record.response()


@asynccontextmanager
async def site(muster: Muster) -> AsyncIterator[TestClient[Any, Any]]:
    """The web site as its own process runs it: its own engine on the bot's database."""
    settings = WebSettings(database_url=muster.database_url, muster_web_rate=0, muster_web_base_url=BASE)
    async with TestClient(TestServer(make_app(settings, make_engine(muster.database_url)))) as client:
        yield client


async def names_noted(muster: Muster) -> dict[int, tuple[str | None, bool]]:
    assert muster.bot is not None
    scores = muster.bot.get_cog("Scores")
    assert scores is not None
    await scores.members.settle()  # type: ignore[attr-defined]
    async with muster.bot.store.read() as db:
        rows = await db.execute(
            select(MemberName.user_id, MemberName.display_name, MemberName.hidden).where(
                MemberName.guild_id == muster.world.guild.id
            )
        )
        return {int(r.user_id): (r.display_name, bool(r.hidden)) for r in rows}


async def test_settings_web_on_and_off(muster: Muster) -> None:
    w = muster.world
    muster.overrides["muster_web_base_url"] = BASE
    await muster.restart()
    async with site(muster) as client:
        page = f"/g/{w.guild.id}"
        assert (await client.get(page)).status == 404  # nothing is public before a server opts in
        # Discord hides /settings from members without Manage Server; a server may grant it anyway.
        asked = await muster.emu.slash(w.alice, w.channel, "settings web", bypass_checks=True, enabled="on")
        refused = await asked.response()
        assert refused.ephemeral and "Manage Server" in refused.content
        assert (await client.get(page)).status == 404
        on = await slash(muster, w.carol, "settings web", enabled="on")
        assert on.ephemeral and f"{BASE}/g/{w.guild.id}" in on.content
        # The bot stored the server's ratings for the site: its first page replays nothing.
        settings_cog = muster.bot.get_cog("Settings") if muster.bot else None
        assert settings_cog is not None
        await settings_cog.ratings_stored()  # type: ignore[attr-defined]
        assert muster.bot is not None
        async with muster.bot.store.read() as db:
            scopes = list(
                await db.scalars(select(RatingSnapshot.scope).where(RatingSnapshot.guild_id == w.guild.id))
            )
        assert scopes == [""]
        shown = await client.get(page)
        assert shown.status == 200 and w.guild.name in await shown.text()
        assert client.app[SITE].data.results.books == {}
        show = await slash(muster, w.carol, "settings show")
        assert f"{BASE}/g/{w.guild.id}" in show.text()
        off = await slash(muster, w.carol, "settings web", enabled="off")
        assert off.ephemeral and "no longer" in off.content
        hidden = await client.get(page, headers={"If-None-Match": shown.headers["ETag"]})
        assert hidden.status == 404
    assert muster.bot is not None
    async with muster.bot.store.read() as db:
        stored = await db.get(GuildSettings, w.guild.id)
    assert stored is not None and stored.web_public is False and stored.web_name == w.guild.name


async def test_privacy_hides_a_member_and_names_are_the_servers(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    dana = emu.add_user("dana", global_name="Dana")
    emu.add_member(w.guild, dana, nick="Dana the Bold")
    await slash(muster, w.carol, "settings web", enabled="on")
    recorded = await slash(
        muster, w.alice, "scores record", opponent=dana, system="warcry", my_score=5, their_score=3
    )
    assert recorded.ephemeral
    noted = await names_noted(muster)
    assert noted[w.alice.id] == ("Alice", False)
    assert noted[dana.id] == ("Dana the Bold", False)  # the server's nickname, from the option
    answer = await slash(muster, w.alice, "scores privacy", name="hide")
    assert answer.ephemeral and "no longer" in answer.content
    assert (await names_noted(muster))[w.alice.id] == ("Alice", True)
    again = await slash(muster, w.alice, "scores privacy", name="show")
    assert again.ephemeral and (await names_noted(muster))[w.alice.id] == ("Alice", False)
