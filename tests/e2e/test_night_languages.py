"""A game night in a Spanish server with a German organiser and German, French and Spanish players:
the card, the pairings, the event and the summary in Spanish; each answer, reminder, promotion and
the organiser's draft and requests in their reader's own language."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bot.nights.service import at
from tests.e2e.conftest import Muster
from tests.e2e.night_driver import create, night_cog, the_night
from tests.emulator.interactions import InteractionResponse
from tests.emulator.model import Message, User


def card(muster: Muster, night_id: str) -> Message:
    """The night's card in #games, found by its buttons' custom ids (their labels are translated)."""
    for message in reversed(muster.emu.messages(muster.world.channel)):
        if any(str(b.get("custom_id", "")).startswith(f"night:{night_id}:") for b in message.buttons()):
            return message
    raise LookupError("no night card in #games")


async def press(
    muster: Muster, user: User, night_id: str, action: str, systems: str = ""
) -> InteractionResponse:
    """Press a card button (join, change, leave); a form it opens is filled in with `systems`."""
    emu = muster.emu
    opened = await (
        await emu.click(user, card(muster, night_id), custom_id=f"night:{night_id}:{action}")
    ).response()
    if opened.modal is None:
        await muster.settle()
        return opened
    values: dict[str, Any] = {"systems": systems, "points": "", "note": "", "teaching": [], "arranged": []}
    response = await (await emu.submit_modal(user, opened.modal, values)).response()
    await muster.settle()
    return response


async def run(muster: Muster, user: User, command: str, **options: object) -> str:
    record = await muster.emu.slash(user, muster.world.channel, command, **options)
    response = await record.response()
    assert response.ephemeral, response.text()
    text = (await record.settled()).text() if response.deferred else response.text()
    await muster.settle()
    return text


async def test_a_night_in_a_spanish_server_speaks_each_readers_language(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    w.carol.locale, w.alice.locale, w.bob.locale = "de", "de", "fr"
    pablo = emu.add_user("pablo", global_name="Pablo")
    emu.add_member(w.guild, pablo)
    pablo.locale = "es-ES"
    await run(muster, w.carol, "settings language", language="es")
    await run(muster, w.bob, "night reminders", enabled="on")  # Muster has now seen bob's language

    made = await create(muster, capacity=2, title="Club night", systems="Kill Team")
    assert made.ephemeral and made.content.startswith("Spieleabend **Club night** ist für <t:")
    info, _state = await the_night(muster)
    shown = card(muster, info.id)
    text = shown.all_text()
    assert (
        "**Cuándo:** <t:" in text
        and "**Juegos:** Kill Team" in text
        and "Las inscripciones están abiertas." in text
    )
    assert [b["label"] for b in shown.buttons()] == ["Inscribirme", "Cambiar mi inscripción", "Salir"]
    await night_cog(muster).events.idle()
    [event] = emu.events_of(w.guild)
    assert "Inscríbete en la tarjeta de la noche" in (event.description or "")
    assert (event.description or "").rstrip().endswith(f"muster-night:{info.id}")  # the marker as it was

    # Answers in each player's own language; the card in the server's.
    assert (
        "Du bist für **Club night**" in (await press(muster, w.alice, info.id, "join", "Kill Team")).content
    )
    assert (
        "Estás inscrito en **Club night**"
        in (await press(muster, pablo, info.id, "join", "Kill Team")).content
    )
    waiting = await press(muster, w.bob, info.id, "join", "Kill Team")
    assert "vous êtes sur la liste d’attente, place 1" in waiting.content
    assert "Inscritos (2/2)" in card(muster, info.id).all_text()
    assert "Lista de espera (1)" in card(muster, info.id).all_text()
    refused = await press(muster, w.alice, info.id, "join")
    assert refused.ephemeral and "Du bist schon für Club night angemeldet" in refused.content

    # Pablo leaves: bob takes the place and is told in French.
    assert "Has salido de **Club night**." in (await press(muster, pablo, info.id, "leave")).content
    [promoted] = [m for m in emu.dms(w.bob) if "Une place s’est libérée" in m.content]
    assert "**Club night**" in promoted.content and "vous en êtes" in promoted.content

    # The cut-off: paired, the organiser's draft in German, each reminder in its player's language.
    _info, state = await the_night(muster)
    await night_cog(muster).clock.sweep(now=at(state.settings.cutoff) + timedelta(seconds=1))
    await muster.settle()
    _info, state = await the_night(muster)
    assert state.status == "review"
    drafts = [
        m
        for m in emu.dms(w.carol)
        if any("Paarungsentwurf: Club night" in (e.get("title") or "") for e in m.embeds)
    ]
    assert len(drafts) == 1 and "gepaart wegen: euer erstes Spiel gegeneinander" in drafts[0].all_text()
    [alice_reminder] = [m for m in emu.dms(w.alice) if m.content.startswith("Erinnerung: **Club night**")]
    assert [b["label"] for b in alice_reminder.buttons()] == ["Keine Erinnerungen an Spieleabende mehr"]
    assert any(m.content.startswith("Rappel : **Club night**") for m in emu.dms(w.bob))
    assert "el organizador revisa los emparejamientos" in card(muster, info.id).all_text()

    refused_edit = await run(muster, w.carol, "night edit", capacity=4)
    assert refused_edit == "Der Abend ist schon gepaart: die Platzzahl kann man nicht mehr ändern."

    # A late request reaches the organiser in German; the player is answered in Spanish.
    late = await press(muster, pablo, info.id, "join", "Kill Team")
    assert late.content.startswith("Las inscripciones de Club night se han cerrado")
    [asked] = [m for m in emu.dms(w.carol) if "fragt nach dem Anmeldeschluss" in m.content]
    assert "sich anzumelden oder die Anmeldung zu ändern (Kill Team)" in asked.content

    # Published: the pairings in Spanish; the organiser's answer in German.
    published = await run(muster, w.carol, "night publish")
    assert published.startswith("Die Paarungen von **Club night** sind veröffentlicht")
    posted = [
        m
        for m in emu.messages(w.channel)
        if any("Emparejamientos: Club night" == e.get("title") for e in m.embeds)
    ]
    assert len(posted) == 1 and " contra " in posted[0].all_text()

    # Finished before the game is played: the summary in Spanish.
    finished = await run(muster, w.carol, "night finish")
    assert finished == "**Club night** ist vorbei: die Zusammenfassung ist gepostet."
    summary = [
        m
        for m in emu.messages(w.channel)
        if any("Resumen de la noche: Club night" == e.get("title") for e in m.embeds)
    ]
    assert len(summary) == 1 and "sin terminar" in summary[0].all_text()
    [over] = [m for m in emu.messages(w.channel) if m.embeds and m.embeds[0].get("title") == "Club night"]
    assert over is shown and not over.buttons()  # the card, edited in place
    assert over.embeds[0]["footer"]["text"] == "Esta noche ha terminado: su resumen está en los resultados."
    visible = emu.text_visible_to(pablo)
    assert "Spieleabend" not in visible and "Paarungsentwurf" not in visible  # German stays in DMs


async def test_the_night_commands_are_described_in_each_language(muster: Muster) -> None:
    night = next(c for c in muster.emu.commands.all() if c["name"] == "night")
    assert night["description_localizations"]["de"] == "Spieleabende: Anmeldungen, Paarungen, Tische"  # type: ignore[index]
    create_command = next(o for o in night["options"] if o["name"] == "create")  # type: ignore[union-attr]
    assert create_command["description_localizations"]["fr"].startswith("Créer une soirée de jeu")
    repeat = next(o for o in create_command["options"] if o["name"] == "repeat")
    weekly = next(c for c in repeat["choices"] if c["value"] == "weekly")
    assert weekly["name_localizations"]["es-ES"] == "cada semana" and weekly["name"] == "weekly"


async def test_help_has_game_nights_and_every_night_option_is_described(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    shown = (await (await emu.slash(w.alice, w.channel, "help")).response()).text()
    assert "Game nights" in shown and "`/night create`" in shown and "`/night reminders`" in shown
    assert "`/settings organiser-role`" in shown and "`/settings time-zone`" in shown
    w.alice.locale = "de"
    auf_deutsch = (await (await emu.slash(w.alice, w.channel, "help")).response()).text()
    assert "Spieleabende" in auf_deutsch and "`/settings time-zone`" in auf_deutsch

    night = next(c for c in muster.emu.commands.all() if c["name"] == "night")
    described = [
        (command["name"], option)
        for command in night["options"]  # type: ignore[union-attr]
        for option in command.get("options", [])
        if option["type"] != 1  # the options of commands, not of the tables group
    ]
    assert all(option["description"] != "…" for _name, option in described), described
    reminders = next(c for c in night["options"] if c["name"] == "reminders")  # type: ignore[union-attr]
    [enabled] = reminders["options"]
    assert set(enabled["description_localizations"]) >= {"de", "fr", "es-ES"}
