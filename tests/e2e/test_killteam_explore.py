from tests.e2e.conftest import Muster


async def test_explore(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    rec = await emu.slash(
        w.alice, w.channel, "killteam start", opponent=w.bob, mission_method="bid", tacops_method="free"
    )
    r = await rec.response()
    print("RESP", r.ephemeral, r.content)
    await muster.settle()
    for m in emu.messages(w.channel):
        print("CH", m.text()[:800])
        print([(b.get("label"), b.get("custom_id")) for b in m.buttons()])
    for m in emu.dms(w.alice):
        print("DM", m.text()[:800])
        print([(b.get("label"), b.get("custom_id")) for b in m.buttons()])
