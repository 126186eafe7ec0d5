"""40K "Marked for Death" in a Spanish server between a German-speaking and a French-speaking player.

The whole game through the emulator: the card, the board, the questions' messages and their buttons
and the result announcement speak the server's Spanish, and so does the answer to a click on the
board (or a form sent from it): the board itself, redrawn. What each player reads alone (the answer
to a command, a refusal, a form, a reminder in DMs) speaks their own Discord language.
"""

from __future__ import annotations

from rules.fortyk import Phase
from tests.e2e.conftest import Muster
from tests.e2e.test_fortyk import Game, _latest_with, click, game_state, modal, redrawn, slash
from tests.emulator.interactions import InteractionResponse
from tests.emulator.model import Message

GERMAN = ("Schlachtrunde", "Abschusspunkt", "Aufstellung", "Spielfeldviertel")
FRENCH = ("Round de bataille", "points de destruction", "déploiement", "quarts de table")
SPANISH = ("Ronda de batalla", "puntos de baja", "despliegue", "cuadrantes")
ENGLISH = ("Battle round", "Kill points", "roll-off", "Table quarters", "End turn", "Record a kill", " wins")


def latest(answer: InteractionResponse) -> str:
    """What a click did, as its answer (the board redrawn, in the table's Spanish) said it: read from
    the answer itself, as a later click may have redrawn the board since."""
    redrawn(answer)
    shown = answer.data["embeds"][0].get("fields", [])
    return "\n".join(f["value"] for f in shown if f["name"] == "Lo último")


async def test_a_whole_game_in_a_spanish_server_between_a_german_and_a_french_player(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    muster.overrides["reminder_minutes"] = 0.0
    await muster.restart()
    w.alice.locale, w.bob.locale = "de", "fr"
    users = {w.alice.id: w.alice, w.bob.id: w.bob}
    await slash(muster, w.channel, w.carol, "settings language", language="es")
    await slash(muster, w.channel, w.bob, "help")  # Discord has told Muster bob's language

    started = await slash(muster, w.channel, w.alice, "40k start", opponent=w.bob)
    # the answer is the start card, public, in the server's language
    assert not started.ephemeral and "La partida se juega en el hilo de abajo." in started.text()
    assert muster.bot is not None
    [info] = await muster.bot.sessions.open_sessions(w.guild.id, system="fortyk")
    game = Game(info.id, await muster.table(info.id))
    [card] = [m for m in emu.messages(w.channel) if m.thread is not None]
    assert "La partida se juega en el hilo de abajo." in card.embed_text()
    board = emu.messages(game.table)[0]
    assert "Preparación: tirada enfrentada de despliegue" in board.embed_text()
    assert [f["name"] for f in board.embeds[0]["fields"]] == [
        "Jugador 1",
        "Jugador 2",
        "Lo último",
        "Esperando a",
    ]

    # Set-up: the buttons are the table's (Spanish), and so is each click's answer (the board redrawn).
    rolled = await click(muster, game, w.bob, "Tirar por el despliegue")
    assert latest(rolled).startswith("Tirada enfrentada de despliegue: "), latest(rolled)
    state = await game_state(muster, game.sid)
    assert state.deployment_roll is not None
    chooser = users[state.deployment_roll.winner]
    zone_message = _latest_with(emu, game.table, "Cuadrante sureste")
    assert "**Elige tu zona de despliegue**" in zone_message.embed_text()
    await muster.bot.remind_waiting_players()  # the winner is awaited: reminded in their own words
    await muster.settle()
    reminder = emu.dms(chooser)[-1].content
    assert ("Erinnerung" in reminder and "Wähle deine Aufstellungszone" in reminder) or (
        "Rappel" in reminder and "Choisissez votre zone de déploiement" in reminder
    ), reminder
    chosen = await click(muster, game, chooser, "Cuadrante noroeste")
    assert f"<@{chooser.id}> despliega en la zona Cuadrante noroeste" in latest(chosen), latest(chosen)
    assert "despliega en la zona Cuadrante noroeste" in board.embed_text()
    deployed = await click(muster, game, w.bob, "Mi ejército está desplegado")
    assert f"<@{w.bob.id}> terminó de desplegar el primero." in latest(deployed), latest(deployed)
    await click(muster, game, w.alice, "Mi ejército está desplegado")
    first_roll = await click(muster, game, w.alice, "Tirar por el primer turno")
    assert latest(first_roll).startswith("Tirada enfrentada del primer turno: "), latest(first_roll)
    state = await game_state(muster, game.sid)
    assert state.first_turn_roll is not None
    winner = users[state.first_turn_roll.winner]
    other = w.bob if winner is w.alice else w.alice
    await click(muster, game, winner, "Jugar primero")
    seized = await click(muster, game, other, "Intentar robarla")
    assert f"<@{other.id}> intenta robar la iniciativa" in latest(seized), latest(seized)
    state = await game_state(muster, game.sid)
    assert state.phase is Phase.BATTLE and state.first_player is not None
    first, second = users[state.first_player], users[state.opponent(state.first_player)]

    # The battle: its one message in Spanish; the forms open in the reader's language.
    battle = _latest_with(emu, game.table, "Terminar turno")
    assert f"**Ronda de batalla 1: turno de <@{first.id}>**" in battle.embed_text()
    opened = await click(muster, game, first, "Marcar una unidad")
    assert opened.modal is not None
    title, label = ("Einheit markieren", "Einheit") if first is w.alice else ("Marquer une unité", "Unité")
    assert opened.modal.title == title and [f.label for f in opened.modal.fields] == [label]
    marked = await muster.emu.submit_modal(
        first, opened.modal, {opened.modal.fields[0].custom_id: "Terminators"}, channel=game.table
    )
    said = latest(await marked.response())
    await muster.settle()
    assert f"<@{first.id}> marca Terminators" in said, said
    killed = await slash(muster, game.table, first, "40k destroyed", unit="Terminators")
    kill_points = "2 Abschusspunkte" if first is w.alice else "2 points de destruction"
    assert "Terminators" in killed.content and kill_points in killed.content, killed.content
    refused = await slash(muster, game.table, second, "40k end-turn")
    assert (
        refused.ephemeral
        and ("ist am Zug; du kannst den Zug nur" if second is w.alice else "vous ne pouvez finir le tour que")
        in refused.content
    ), refused.content
    while (state := await game_state(muster, game.sid)).phase is Phase.BATTLE:
        assert state.active_player is not None
        await click(muster, game, users[state.active_player], "Terminar turno")

    # The end: each report through a form in the reporter's language.
    for player, quarters in ((second, "1"), (first, "2")):
        start = "Deine Spielfeldviertel" if player is w.alice else "Quarts de table revendiqués"
        alive = "Deine markierten Einheiten" if player is w.alice else "Vos unités marquées"
        await modal(muster, game, player, "Informar cuadrantes", {start: quarters, alive: ""})
    await muster.announced()
    state = await game_state(muster, game.sid)
    assert state.finished and state.outcome is not None

    shown = board.embed_text()
    assert "Resultado: Marked for Death" in shown and "Primario — Marked for Death (15)" in shown
    assert "Total: " in shown and "Resultado final: " in board.all_text()
    result = emu.messages(w.channel)[-1]
    assert "Resultado de 40K" in result.embed_text()
    assert ", terminada tras la ronda de batalla " in result.embed_text()  # the game's own summary too
    assert "ended after battle round" not in result.embed_text()
    table = "\n".join(m.all_text() for m in emu.messages(game.table))
    assert all(word in table for word in SPANISH) and not any(word in table for word in ENGLISH)
    visible = emu.text_visible_to(w.carol)  # the table, as a bystander sees it: no player's own words
    assert not any(word in visible for word in GERMAN + FRENCH)
    _reminded_in(emu.dms(w.alice), "Erinnerung")
    _reminded_in(emu.dms(w.bob), "Rappel")


def _reminded_in(dms: list[Message], word: str) -> None:
    """Every DM a player got (a reminder) speaks their language."""
    for message in dms:
        assert word in message.all_text(), message.all_text()
