"""Warmaster cards through the emulator."""

from __future__ import annotations

from tests.e2e.conftest import Muster


async def test_smoke(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    rec = await emu.slash(
        w.alice, w.channel, "warmaster game", opponent=w.bob, my_points=2000, their_points=2000, first=w.alice
    )
    print((await rec.response()).content)
    await muster.settle()
    for m in emu.messages(w.channel):
        print("CHANNEL:", m.all_text())
    for m in emu.dms(w.alice):
        print("ALICE DM:", m.all_text())
