"""Muster in each reader's language, through the real client and the emulator.

Public posts speak the server's language (`/settings language`, else its Discord locale); what one
player reads (ephemeral answers, DMs, prompts) speaks that player's Discord language; slash-command
descriptions reach Discord's picker as `*_localizations`.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from bot.db.models import OutboxMessage
from tests.e2e.conftest import Muster
from tests.emulator import Message


def command(muster: Muster, name: str) -> dict[str, object]:
    return next(c for c in muster.emu.commands.all() if c["name"] == name)


async def test_help_and_every_shared_command_are_described_in_each_language(muster: Muster) -> None:
    shown = command(muster, "help")["description_localizations"]
    assert shown == {
        "de": "Was Muster kann",
        "fr": "Ce que Muster sait faire",
        "es-ES": "Lo que Muster puede hacer",
        "es-419": "Lo que Muster puede hacer",
    }
    settings = command(muster, "settings")
    assert not settings["name_localizations"]  # names stay English, so a typed guide works anywhere
    language = next(o for o in settings["options"] if o["name"] == "language")  # type: ignore[index, union-attr]
    assert (
        language["description_localizations"]["de"] == "Die Sprache der öffentlichen Beiträge dieses Servers"
    )
    choice = next(c for c in language["options"][0]["choices"] if c["value"] == "discord")
    assert choice["name_localizations"]["fr"] == "Langue du serveur Discord (par défaut)"


async def test_a_refusal_speaks_the_players_own_language(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    refused = await (await emu.slash(w.alice, w.channel, "rolloff", opponent=w.alice, locale="de")).response()
    assert (
        refused.ephemeral
        and refused.content == "Du kannst nicht gegen dich selbst spielen: wähle einen anderen Spieler."
    )
    same = await (
        await emu.slash(w.alice, w.channel, "rolloff", opponent=w.alice, locale="es-419")
    ).response()
    assert same.content == "No puedes jugar contra ti mismo: elige a otro jugador."
    english = await (await emu.slash(w.alice, w.channel, "rolloff", opponent=w.alice, locale="ja")).response()
    assert english.content == "You can't play against yourself: pick another player."


async def test_public_posts_speak_the_servers_language(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    rolled = await (await emu.slash(w.alice, w.channel, "roll", dice="2d6")).response()
    assert not rolled.ephemeral and "rolled `2d6`" in rolled.content and "Total: **" in rolled.content

    emu.set_guild_locale(w.guild, "es-ES")  # the server's Discord language, followed by default
    await muster.restart()  # its GUILD_CREATE says so
    rolled = await (await emu.slash(w.alice, w.channel, "roll", dice="2d6", locale="de")).response()
    assert "tiró `2d6`" in rolled.content and "Total: **" in rolled.content

    chosen = await (await emu.slash(w.carol, w.channel, "settings language", language="fr")).response()
    assert (
        chosen.ephemeral and chosen.content == "Public posts here are now in Français (currently Français)."
    )
    rolled = await (await emu.slash(w.alice, w.channel, "roll", dice="2d6", locale="de")).response()
    assert "a lancé `2d6`" in rolled.content and "Total : **" in rolled.content
    shown = await (await emu.slash(w.carol, w.channel, "settings show", locale="de")).response()
    fields = {f["name"]: f["value"] for f in shown.embeds[0]["fields"]}
    assert fields["Sprache"] == "Français"  # carol reads her own reply in her own language

    await (await emu.slash(w.carol, w.channel, "settings language", language="discord")).response()
    rolled = await (await emu.slash(w.alice, w.channel, "roll", dice="2d6")).response()
    assert "tiró `2d6`" in rolled.content


@pytest.fixture
async def pick(muster: Muster) -> Muster:
    muster.extra_cogs.append("cogs.pick")
    await muster.restart()
    return muster


def prompt_of(muster: Muster, user: object) -> Message:
    return next(m for m in muster.emu.dms(user) if m.buttons())  # type: ignore[arg-type]


async def test_a_game_in_a_spanish_server_between_a_german_and_a_french_player(pick: Muster) -> None:
    """The table in the server's Spanish; each player's DMs, prompts and answers in their own language."""
    emu, w = pick.emu, pick.world
    w.alice.locale, w.bob.locale = "de", "fr"
    await (await emu.slash(w.carol, w.channel, "settings language", language="es")).response()
    await (await emu.slash(w.bob, w.channel, "help")).response()  # Discord has told Muster bob's language

    started = await (await emu.slash(w.alice, w.channel, "pick start", opponent=w.bob)).response()
    await pick.settle()
    [card] = [m for m in emu.messages(w.channel) if m.thread is not None]
    assert card is started.message  # the answer is the start card, public, in the server's language
    assert card.embeds[0]["footer"]["text"].startswith("Partida ")
    assert "La partida se juega en el hilo de abajo." in card.embed_text()
    (board,) = emu.messages(card.thread)
    assert [f["name"] for f in board.embeds[0]["fields"]] == ["Esperando a"]
    alice_prompt, bob_prompt = prompt_of(pick, w.alice), prompt_of(pick, w.bob)
    assert bob_prompt.content.startswith("Pick dans <#")

    await (await emu.click(w.alice, alice_prompt, label="3")).response()
    await pick.settle()
    assert "Du hast **3** versiegelt" in alice_prompt.embed_text()
    await (await emu.click(w.bob, bob_prompt, label="1")).response()
    await pick.settle()
    assert "Vous avez scellé **1**" in bob_prompt.embed_text()
    names = [f["name"] for f in board.embeds[0]["fields"]]
    assert names == ["Lo último"]  # the reveal; nobody is awaited any more
    visible = emu.text_visible_to(w.carol)
    assert "versiegelt" not in visible and "scellé" not in visible  # a player's words stay in their DMs


async def test_a_dm_rendered_later_uses_the_stored_language(pick: Muster) -> None:
    """Bob's locale, seen once, is stored: a DM rendered after a restart (another step) still speaks it."""
    emu, w = pick.emu, pick.world
    await (await emu.slash(w.bob, w.channel, "help", locale="es-ES")).response()
    await pick.settle()
    await pick.restart()
    await (await emu.slash(w.alice, w.channel, "pick start", opponent=w.bob)).response()
    await pick.settle()
    assert prompt_of(pick, w.bob).content.startswith("Pick en <#")


async def test_a_reminder_and_a_closed_dms_stand_in_speak_the_players_language(pick: Muster) -> None:
    emu, w = pick.emu, pick.world
    pick.overrides["reminder_minutes"] = 0.0
    await pick.restart()
    w.bob.locale = "de"
    await (await emu.slash(w.bob, w.channel, "help")).response()
    emu.close_dms(w.alice)
    w.alice.locale = "es-ES"
    await (await emu.slash(w.alice, w.channel, "pick start", opponent=w.bob)).response()
    await pick.settle()
    thread = next(m for m in emu.messages(w.channel) if m.thread is not None).thread
    stand_in = next(m for m in emu.messages(thread) if m.buttons())
    assert stand_in.buttons()[0]["label"] == "Abrir mi consulta secreta"  # alice's words, at the table
    assert "tus MD están cerrados" in stand_in.content

    await (await emu.click(w.bob, prompt_of(pick, w.bob), label="2")).response()
    await pick.settle()

    def bobs_reminders() -> int:
        return sum("Erinnerung" in m.content for m in emu.dms(w.bob))

    # The bot's own sweep (every half second, reminding at once) may have reminded either player
    # before bob answered; once he has, he is reminded no more.
    answered = bobs_reminders()
    assert pick.bot is not None
    await pick.bot.remind_waiting_players()
    await pick.settle()
    opened = await (await emu.click(w.alice, stand_in, label="Abrir mi consulta secreta")).response()
    assert opened.ephemeral
    assert bobs_reminders() == answered  # bob has answered
    # Alice's reminder, in Spanish: her DMs are closed, so once refused it is not tried again for a
    # while (bot/chat/dm_channels.py) and reaches Discord at most once; the outbox holds what it said.
    async with pick.bot.store.read() as db:
        said = [str(p) for p in await db.scalars(select(OutboxMessage.payload))]
    assert any("Recordatorio" in p and str(w.alice.id) in p for p in said)
