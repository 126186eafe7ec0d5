"""A whole Warmaster game in three languages through the emulator: a German-speaking and a
French-speaking player in a Spanish server. The board, the battle's message and the thread speak
Spanish, and so does the answer to a press on the battle's message (that message, redrawn); each
player's hand, card prompts, tools and answers speak their own language (a unit type typed in it
too), a use of their tools answered to them alone; nothing secret reaches the other player;
the commands are described in each language in Discord's picker."""

from __future__ import annotations

from sqlalchemy import select

from bot.db.models import GameResult
from rules.warmaster import Phase
from rules.warmaster.cards import DeckKind
from tests.e2e.conftest import Muster
from tests.e2e.test_warmaster import (
    COSTS,
    answer,
    assert_no_leaks,
    card_dm,
    dm_asking,
    game_state,
    latest_with,
    lay,
    load_pack,
    prompt_dm,
    redrawn,
    slash,
)
from tests.emulator.interactions import InteractionResponse
from tests.emulator.model import Message, User


def board_of(muster: Muster, table: object) -> Message:
    """The game's living board in its thread."""
    [board] = [m for m in muster.emu.messages(table) if m.embeds and m.embeds[0].get("title") == "Warmaster"]  # type: ignore[arg-type]
    return board


def fields(message: Message) -> dict[str, str]:
    return {f["name"]: f["value"] for f in message.embeds[0].get("fields", [])}


def latest(answer: InteractionResponse) -> str:
    """What a press did, as its answer (the board redrawn, in the table's Spanish) said it: read from
    the answer itself, as a later press may have redrawn the board since."""
    redrawn(answer)
    shown = answer.data["embeds"][0].get("fields", [])
    return "\n".join(f["value"] for f in shown if f["name"] == "Lo último")


def hand_dm(muster: Muster, user: User, title: str) -> Message:
    [hand] = [m for m in muster.emu.dms(user) if m.embeds and m.embeds[0].get("title") == title]
    return hand


async def test_a_whole_game_in_a_spanish_server_between_a_german_and_a_french_player(muster: Muster) -> None:
    emu, w = muster.emu, muster.world
    alice, bob = w.alice, w.bob
    alice.locale, bob.locale = "de", "fr"
    await slash(muster, w.carol, "settings language", language="es")
    await slash(muster, bob, "help")  # Discord has told Muster bob's language
    await load_pack(muster)

    started = await slash(
        muster, alice, "warmaster game", opponent=bob, my_points=2000, their_points=2000, first=alice
    )
    assert muster.bot is not None
    [info] = await muster.bot.sessions.open_sessions(w.guild.id, system="warmaster")
    sid = info.id
    assert await muster.game_of_card(started) == sid  # the card, in the server's Spanish
    assert "La partida se juega en el hilo de abajo." in started.text()
    table = await muster.table(sid)
    state = await game_state(muster, sid)

    # The board speaks the server's Spanish.
    board = board_of(muster, table)
    assert board.embeds[0]["description"].startswith(f"**Fase de cartas.** <@{alice.id}> coloca una carta")
    assert {"Primer jugador", "Segundo jugador", "Notas"} <= fields(board).keys()
    assert "Límites: el primer jugador coloca hasta 4 cartas" in fields(board)["Notas"]
    # Each hand is in its owner's language, with every card.
    alice_hand = hand_dm(muster, alice, "Deine Warmaster-Karten")
    assert alice_hand.content.startswith("Deine Warmaster-Karten für das Spiel in")
    assert "Auf deiner Hand" in fields(alice_hand)
    assert all(h.card.name in alice_hand.all_text() for h in state.side(alice.id).hand)
    bob_hand = hand_dm(muster, bob, "Vos cartes de Warmaster")
    assert "Dans votre main" in fields(bob_hand)
    assert all(h.card.name in bob_hand.all_text() for h in state.side(bob.id).hand)
    assert_no_leaks(muster, state)

    # Alice's card prompt, in German: the card's line, who may carry it, and its targets.
    magic = next(h for h in state.side(alice.id).hand if h.deck is DeckKind.MAGIC)
    living = prompt_dm(muster, alice)
    assert living.select()["placeholder"].startswith("Eins wählen")
    prompt = await card_dm(muster, alice, magic.id)
    assert "(Magischer Gegenstand, +" in prompt.embed_text()
    assert "Träger: ein beliebiges Ziel. Du hast 0 von 4 gelegt." in prompt.embed_text()
    [targets] = [s for s in prompt.selects() if s["custom_id"].startswith("qs:")]
    offered = [o["label"] for o in targets["options"]]
    assert "Neue Einheit/neuer Charakter deiner Armee" in offered and "Neues Geländestück" in offered
    turn = dm_asking(muster, alice, "c0.pass")
    assert "**Du bist dran, eine Karte zu legen** (0 von 4 bisher gelegt)." in turn.embed_text()
    assert turn.buttons()[0]["label"] == "Nichts passt: passen"

    # A unit type typed in German is read as the rules' own; a word that is none is refused in German.
    refused = await answer(
        muster,
        alice,
        prompt,
        "Neue Einheit/neuer Charakter deiner Armee",
        {"name": "Ritter", "type": "Drache"},
    )
    assert refused.ephemeral and refused.content.startswith("Bitte tippe eines davon: Infanterie, Kavallerie")
    laid = await answer(
        muster,
        alice,
        prompt,
        "Neue Einheit/neuer Charakter deiner Armee",
        {"name": "Ritter", "type": "Kavallerie"},
    )
    assert laid.type_name == "UPDATE_MESSAGE" and laid.message is prompt, laid.text()  # said on the prompt
    state = await game_state(muster, sid)
    ritter = next(t for t in state.targets if t.name == "Ritter")
    assert (ritter.owner, ritter.unit_type) == (alice.id, "cavalry")
    ritter_words = f"Ritter (Kavallerieeinheit von <@{alice.id}>)"
    said = f"Du hast **{magic.card.name}** verdeckt auf {ritter_words} gelegt (#1)."
    assert said in prompt_dm(muster, alice).embed_text()
    shown = fields(board_of(muster, table))
    assert (
        f"#1 carta de objeto mágico boca abajo en Ritter (unidad de caballería de <@{alice.id}>)"
        in (shown["Primer jugador"])
    )
    assert "Lo último" in shown
    assert_no_leaks(muster, state)

    # Refusals speak the refused player's language: Alice out of turn, Bob passing while a card fits.
    early = await slash(muster, alice, "warmaster pass", where=table)
    assert early.ephemeral and early.content == f"<@{bob.id}> ist dran, eine Karte zu legen.", early.content
    fits = await slash(muster, bob, "warmaster pass", where=table)
    assert fits.ephemeral and fits.content.startswith("Vous pouvez encore poser **"), fits.content
    assert fits.content.endswith(", et une carte qui peut être posée doit l'être."), fits.content
    assert (await game_state(muster, sid)).model_dump_json() == state.model_dump_json()

    # Bob lays his tactics card on a new unit of his, its type typed in French.
    tactics = next(h for h in state.side(bob.id).hand if h.deck is DeckKind.TACTICS)
    bob_prompt = await card_dm(muster, bob, tactics.id)
    assert "Se pose sur une unité. Vous avez posé 0 sur 3." in bob_prompt.embed_text()
    laid = await answer(
        muster, bob, bob_prompt, "Nouvelle unité de votre armée", {"name": "Orques", "type": "infanterie"}
    )
    where = f"Orques (unité d'infanterie de <@{bob.id}>)"
    assert laid.type_name == "UPDATE_MESSAGE" and laid.message is bob_prompt, laid.text()  # said on it
    assert f"**{tactics.card.name}** face cachée sur {where}" in bob_prompt.embed_text()
    state = await game_state(muster, sid)
    assert next(t for t in state.targets if t.name == "Orques").unit_type == "infantry"

    # The rest of the card phase by command.
    while state.turn is not None:
        user = alice if state.turn == alice.id else bob
        await lay(
            muster, sid, user, f"Unit {len(state.laid)}", kind="unit", side="mine", unit_type="infantry"
        )
        state = await game_state(muster, sid)

    # The battle's message is the table's: Spanish buttons; each press answered by it, redrawn in Spanish.
    battle = await latest_with(muster, sid, "Empezar la batalla")
    assert "**Empezar la batalla**" in battle.embed_text()
    pressed = await (await emu.click(bob, battle, label="Empezar la batalla")).response()
    await muster.settle()
    said = f"<@{bob.id}> pide empezar la batalla. Espera a que <@{alice.id}> lo confirme"
    assert said in latest(pressed), latest(pressed)
    assert [b["label"] for b in battle.buttons()] == ["Confirmar", "Todavía no"]
    assert "¿Empezar la batalla?" in battle.embed_text()
    paused = dm_asking(muster, alice, ".reveal")
    assert "Pausiert: Eine Anfrage im Thread des Spiels wartet auf eine Bestätigung." in paused.embed_text()
    begun = await (await emu.click(alice, battle, label="Confirmar")).response()
    await muster.settle()
    said = f"<@{alice.id}> confirma la petición de <@{bob.id}> de empezar la batalla."
    assert said in latest(begun), latest(begun)
    assert (await game_state(muster, sid)).phase is Phase.BATTLE
    assert board_of(muster, table).embeds[0]["description"].startswith("**La batalla está en marcha.**")

    # Alice turns her card up from her German prompt; Bob records the loss of her Ritter from his French
    # one. Each is answered by the hand redrawn, ticked, in its reader's language; the board says what
    # it did, in Spanish.
    reveal = dm_asking(muster, alice, ".reveal")
    assert "**Karte aufdecken**" in reveal.embed_text()
    turned = await answer(muster, alice, reveal, f"#1 {magic.card.name} → Ritter")
    assert turned.type_name == "UPDATE_MESSAGE" and turned.message is reveal, turned.text()
    assert "✅ #1:" in reveal.embed_text() and "wurde aufgedeckt" in reveal.embed_text()  # her hand says it
    assert magic.card.name in emu.text_visible_to(bob)
    [face_down] = [v for k, v in fields(reveal).items() if k.startswith("Deine verdeckten Karten")]
    assert magic.card.name not in face_down, face_down
    ritter_es = f"Ritter (unidad de caballería de <@{alice.id}>)"
    said = f"#1: **{magic.card.name}** en {ritter_es} se pone boca arriba (+{COSTS[magic.card.name]} pts)."
    assert said in fields(board_of(muster, table))["Lo último"]
    losses = dm_asking(muster, bob, "b0.lost")
    assert "**Noter une unité ou un personnage détruit**" in losses.embed_text()
    recorded = await answer(muster, bob, losses, "Ritter — unité de cavalerie de l'ennemi", {"points": "110"})
    assert recorded.type_name == "UPDATE_MESSAGE" and recorded.message is losses, recorded.text()
    [ticked] = [line for line in losses.embed_text().splitlines() if line.startswith("✅")]
    assert ticked.startswith(f"✅ Détruit : Ritter (unité de cavalerie de <@{alice.id}>), 110 pts"), ticked
    assert "Ritter" not in losses.embed_text().replace(ticked, "")  # no longer among what may be lost
    said = f"Destruido: {ritter_es}, 110 pts +{COSTS[magic.card.name]} por cartas"
    assert said in fields(board_of(muster, table))["Lo último"]

    # Finish: the thread's buttons in Spanish, the result in Spanish on the board.
    await (await emu.click(alice, battle, label="Terminar y puntuar la partida")).response()
    await muster.settle()
    scored = await (await emu.click(bob, battle, label="Confirmar")).response()
    await muster.announced()
    assert "\nPartida terminada. " in latest(scored), latest(scored)
    over = await game_state(muster, sid)
    assert over.finished and over.outcome is not None
    final = board_of(muster, table)
    assert final.embeds[0]["description"].startswith("**Partida terminada.**")
    assert "Puntos de victoria" in fields(final) and "Destruidos" in fields(final)
    async with muster.bot.store.read() as db:
        [row] = (await db.scalars(select(GameResult).where(GameResult.session_id == sid))).all()
    assert (row.score_a, row.score_b) == tuple(side.score for side in over.outcome.sides)
    assert f"{row.score_b} PV" in final.embeds[0]["description"]
    [announced] = [m for m in emu.messages(w.channel) if "Resultado de Warmaster" in m.embed_text()]
    assert f"{row.score_a} PV a {row.score_b} PV" in announced.embed_text()  # its summary in Spanish
    # Nothing a player read in their own language reached the table, and no secret leaked.
    visible = emu.text_visible_to(w.carol)
    assert "Du hast" not in visible and "Vous avez" not in visible
    assert_no_leaks(muster, over)


async def test_the_warmaster_commands_are_described_in_each_language(muster: Muster) -> None:
    group = next(c for c in muster.emu.commands.all() if c["name"] == "warmaster")
    assert group["description_localizations"]["de"] == "Warmaster-Gegenstands- und Taktikkarten"
    assert not group["name_localizations"]  # names stay English
    play = next(o for o in group["options"] if o["name"] == "play")
    kind = next(o for o in play["options"] if o["name"] == "kind")
    assert kind["description_localizations"]["es-ES"] == "Para un objetivo nuevo: qué es"
    unit = next(c for c in kind["choices"] if c["value"] == "unit")
    assert unit["name_localizations"]["fr"] == "unité" and unit["name"] == "unit"
