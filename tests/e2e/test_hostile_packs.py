"""Hostile rules packs, through the real bot: every game's `pack load` refuses them clearly, in time,
stores nothing, and keeps answering other users while it reads them (issue 16, bugs 4 and 5)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import pytest

from tests.e2e.conftest import Muster
from tests.e2e.test_fortyk import SHORT_WAR

NOT_LOADED = "That pack was not loaded and nothing was changed"

LAUGHS = "lol: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"lol{n}: &{c} [{', '.join(['*' + p] * 9)}]\n"
    for n, (p, c) in enumerate(zip("abcdefgh", "bcdefghi", strict=True))
)

# name -> (file text built on the game's good pack, what the refusal must say)
HOSTILE: dict[str, tuple[Callable[[str], str], str]] = {
    "nested lists": (lambda good: "[" * 5000 + "]" * 5000, "line 1: this is nested more than 12 levels deep"),
    "nested maps": (
        lambda good: "{a: " * 2500 + "1" + "}" * 2500,
        "line 1: this is nested more than 12 levels deep",
    ),
    "a 5,000-digit number": (
        lambda good: good + "size: " + "9" * 5000 + "\n",
        "the number `99999",
    ),
    "an impossible date": (
        lambda good: good + "played_on: 2001-13-45\n",
        "played_on: unknown field (check the spelling)",
    ),
    "an alias bomb": (lambda good: LAUGHS, "line 1: anchors and aliases (& and *) are not allowed in a pack"),
}


@dataclass(frozen=True)
class Game:
    command: str
    system: str
    good: str
    observe: Callable[[Muster], Awaitable[str]]
    shows: str  # what `observe` says once the good pack is loaded


async def _answer(muster: Muster, command: str, **options: object) -> str:
    w = muster.world
    response = await (await muster.emu.slash(w.carol, w.channel, command, **options)).response(timeout=3)
    return response.text()


async def _killteam_missions(muster: Muster) -> str:
    w = muster.world
    record = await muster.emu.autocomplete(
        w.alice, w.channel, "killteam start", focused="mission", mission="", opponent=w.bob
    )
    return repr((await record.response(timeout=3)).choices)


GAMES = [
    Game(
        "killteam",
        "killteam",
        "name: Club cards\nmissions:\n  - name: Club Loot\nmaps:\n  - id: A1\n",
        _killteam_missions,
        "Club Loot",
    ),
    Game(
        "warcry",
        "warcry",
        "name: Club cards\ndecks:\n  twist:\n    - {name: Club Fog}\n",
        lambda muster: _answer(muster, "warcry pack show"),
        "twist 1",
    ),
    Game(
        "warmaster",
        "warmaster",
        "name: Club cards\ntactics:\n  - {name: Ambush, cost: 0, carrier: table, effect: Something lurks.}\n",
        lambda muster: _answer(muster, "warmaster pack show"),
        "Tactics: 1 cards",
    ),
    Game(
        "40k",
        "fortyk",
        SHORT_WAR,
        lambda muster: _answer(muster, "40k pack missions"),
        "`short-war`",
    ),
]


@pytest.mark.parametrize("game", GAMES, ids=[g.command for g in GAMES])
async def test_hostile_packs_are_refused_in_time_change_nothing_and_never_hold_up_others(
    muster: Muster, game: Game
) -> None:
    emu, w = muster.emu, muster.world
    assert muster.bot is not None
    loaded = await (
        await emu.slash(
            w.carol, w.channel, f"{game.command} pack load", file=emu.upload("club.yaml", game.good)
        )
    ).response(timeout=3)
    assert loaded.ephemeral and NOT_LOADED not in loaded.content, loaded.content
    before = await game.observe(muster)
    assert game.shows in before, before

    for name, (build, expected) in HOSTILE.items():
        upload = emu.upload(f"{name}.yaml", build(game.good).encode())
        load = await emu.slash(w.carol, w.channel, f"{game.command} pack load", file=upload)
        roll = await emu.slash(w.bob, w.channel, "roll", dice="2d6")  # sent before the load is answered
        refused = await load.response(timeout=3)
        assert refused.ephemeral, name
        assert refused.content.startswith(NOT_LOADED) and expected in refused.content, (name, refused.content)
        assert "error id" not in refused.content and len(refused.content) <= 2000
        rolled = await roll.response(timeout=3)
        assert f"<@{w.bob.id}> rolled `2d6`" in rolled.content, name

    assert await game.observe(muster) == before
    assert await muster.bot.packs.get(w.guild.id, game.system) == game.good
