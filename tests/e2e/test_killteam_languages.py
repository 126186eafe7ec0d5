"""A Kill Team bid game in a Spanish server between a German-speaking and a French-speaking player.

The thread (board, questions, reveals) speaks the server's Spanish; each player's sealed bid
prompts (redrawn to say what they sealed when they bid), their Tac Ops and their own answers speak
their Discord language; the command picker shows Kill Team's descriptions and choices in every
language. Every text is also searched for a piece of Kill Team's English that no translation keeps
(a string left unmarked).
"""

from __future__ import annotations

import json
import re
import string

from bot.lang.i18n_tools import po_path, pot_path, read
from rules.killteam import KillTeamState
from tests.e2e.conftest import Muster
from tests.e2e.killteam_driver import KillTeamTable
from tests.emulator.interactions import UPDATE_MESSAGE
from tests.emulator.model import Message, User


def english_pieces(lang: str) -> list[str]:
    """The pieces of Kill Team's English sentences (two words or more between values) that no
    translation into `lang` uses: any of them in a `lang` text is an untranslated string."""
    pot, po = read(pot_path("killteam")), read(po_path(lang, "killteam"), lang)
    translations = " ".join(
        " ".join(m.string) if isinstance(m.string, (list, tuple)) else m.string or "" for m in po if m.id
    )
    pieces = set()
    for message in pot:
        if not message.id or message.context == "command":
            continue
        for english in [message.id] if isinstance(message.id, str) else message.id:
            for literal, *_rest in string.Formatter().parse(english):
                piece = literal.strip(" .,:;()*•`\n")
                if len(re.findall(r"[A-Za-z]{3,}", piece)) >= 2 and piece not in translations:
                    pieces.add(piece)
    return sorted(pieces)


def every_version(messages: list[Message]) -> str:
    return "\n".join(
        f"{v.content}\n{json.dumps(v.embeds, ensure_ascii=False)}"
        for m in messages
        for v in [*m.history, m.snapshot()]
    )


def left_in_english(text: str, lang: str) -> list[str]:
    return [piece for piece in english_pieces(lang) if piece in text]


def last_dm(muster: Muster, user: User) -> Message:
    return muster.emu.dms(user)[-1]


def command(muster: Muster, name: str) -> dict[str, object]:
    return next(c for c in muster.emu.commands.all() if c["name"] == name)


async def test_a_bid_game_in_a_spanish_server_between_a_german_and_a_french_player(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    w.alice.locale, w.bob.locale = "de", "fr"
    await (await emu.slash(w.carol, w.channel, "settings language", language="es")).response()
    await (await emu.slash(w.bob, w.channel, "help")).response()  # Discord has told Muster bob's language
    await KillTeamTable.load_pack(muster)
    table = await KillTeamTable.open(muster, "bid", "bid")
    alice, bob = w.alice.id, w.bob.id

    # the sealed bid prompts, each in its reader's language
    alice_prompt, bob_prompt = last_dm(muster, w.alice), last_dm(muster, w.bob)
    assert "**Dein verdecktes Gebot: Gebot um die Mission**" in alice_prompt.embed_text()
    assert "Du hast 10 Marken. Biete 0 bis 10" in alice_prompt.embed_text()
    assert "**Votre enchère sous pli : enchère pour choisir la mission**" in bob_prompt.embed_text()
    assert "Vous avez 10 jetons. Misez de 0 à 10" in bob_prompt.embed_text()
    thread = every_version(emu.messages(table.channel))
    assert "En secreto: **puja para elegir la misión**" in thread and "(mira tus MD)" in thread

    # each seal is answered by redrawing the bidder's own prompt, in their language
    sealed = await table.answer(alice, "7")
    assert sealed.type == UPDATE_MESSAGE and sealed.message is alice_prompt
    assert (
        "Du hast **7 Marken** versiegelt (Gebot um die Mission). Commitment: `" in alice_prompt.embed_text()
    )
    assert f"<@{alice}> ha sellado: puja para elegir la misión." in every_version(emu.messages(table.channel))
    revealed = await table.answer(bob, "2")
    assert revealed.type == UPDATE_MESSAGE and revealed.message is bob_prompt
    assert (
        "Vous avez scellé **2 jetons** (enchère pour choisir la mission). Engagement : `"
        in bob_prompt.embed_text()
    )
    (reveal,) = [m for m in emu.messages(table.channel) if "/verify" in m.embed_text()]
    assert (
        f"Revelado (puja para elegir la misión): <@{alice}> **7 fichas**, <@{bob}> **2 fichas**."
        in reveal.embed_text()
    )
    assert "Para comprobarlo: `/verify` con game `" in reveal.embed_text()
    # the question the reveal led to is announced with it, the reveal first, in one post pinging the
    # winner; its buttons ride on the board
    asking = [m for m in emu.messages(table.channel) if "**Puja ganada: elige la misión**" in m.embed_text()]
    (asked,) = [m for m in asking if not m.components]
    assert asked.id == reveal.id and f"<@{alice}>" in asked.content
    assert asked.embed_text().index("Revelado") < asked.embed_text().index("Puja ganada")
    (board,) = [m for m in asking if m.components]
    assert board.id < reveal.id  # the board, first in the thread

    await table.answer(alice, "secure")
    await table.answer(alice, "3")
    await table.answer(bob, "3")
    assert "Ambos pujaron 3: la puja se anula y no se gasta nada." in every_version(
        emu.messages(table.channel)
    )
    await table.answer(alice, "0")
    await table.answer(bob, "0")
    state = await table.state()
    assert state.decider is not None
    await table.answer(state.decider, "B7")
    await table.play(until=lambda s: s.macro == "tac_ops")
    await table.answer(alice, "4")
    await table.answer(bob, "1")
    await table.answer(alice, "recon")
    await table.play(until=lambda s: s.stage == "scouting")
    assert "**Deine Aufklärungswahl**" in last_dm(muster, w.alice).embed_text()
    assert "**Votre choix de reconnaissance**" in last_dm(muster, w.bob).embed_text()
    await table.play(until=lambda s: s.macro == "battle")
    hand = await table.slash(bob, "killteam hand")
    assert (
        hand.ephemeral
        and "Kill Team : rien que pour vous" in hand.text()
        and "Vos Tac Ops : **" in hand.text()
    )

    over = await table.slash(alice, "killteam score", mission_vp=5)
    assert (
        over.content
        == "Das wären 5 Missions-SP in Wendepunkt 1; die Obergrenze ist 4 Missions-SP pro Wendepunkt."
    )
    scored = await table.slash(bob, "killteam score", mission_vp=3)
    assert scored.content == f"<@{bob}> : +3 PV (mission) au tournant 1 ; total 3."
    state = await table.play()
    assert isinstance(state, KillTeamState) and state.finished

    board = next(m for m in emu.messages(table.channel) if "Kill Team: Secure en Mapa B7" in m.embed_text())
    assert f"**Gana <@{bob}>.**" in board.embed_text()
    assert [f["name"] for f in board.embeds[0]["fields"]][:2] in (
        ["Atacante", "Defensor"],
        ["Defensor", "Atacante"],
    )
    assert board.embeds[0]["footer"]["text"].startswith("Límites: misión 4 PV por punto de inflexión")
    thread = every_version(emu.messages(table.channel))
    assert (
        f"**La batalla ha terminado: gana <@{bob}>.** Secure en Mapa B7, tras 4 puntos de inflexión: "
        in thread
    )
    assert not left_in_english(thread, "es")
    assert not left_in_english(every_version(emu.dms(w.alice)), "de")
    assert not left_in_english(every_version(emu.dms(w.bob)), "fr")
    assert "Gebot" not in thread and "enchère" not in thread  # a player's words stay in their DMs


async def test_kill_teams_commands_are_described_in_each_language(muster: Muster) -> None:
    killteam = command(muster, "killteam")
    assert killteam["description_localizations"] == {
        "de": "Kill Team, Matched Play",
        "fr": "Kill Team en jeu égal",
        "es-ES": "Kill Team en juego equilibrado",
        "es-419": "Kill Team en juego equilibrado",
    }
    start = next(o for o in killteam["options"] if o["name"] == "start")  # type: ignore[union-attr,attr-defined]
    assert not start["name_localizations"]  # names stay English, so a typed guide works anywhere
    method = next(o for o in start["options"] if o["name"] == "tacops_method")
    assert method["description_localizations"]["fr"] == "Comment les Tac Ops sont choisies"
    free = next(c for c in method["choices"] if c["value"] == "free")
    assert free["name_localizations"]["de"] == "Freie Wahl"
