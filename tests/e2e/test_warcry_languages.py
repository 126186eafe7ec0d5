"""A whole Warcry battle in a Spanish server between a German-speaking and a French-speaking player.

The table (start card, board, battleplan card, questions, result) speaks the server's Spanish, and
so does the answer to a press on the board: the board itself, redrawn. What one player reads alone (a
form, a refusal, the stand-alone commands' answers) speaks that player's own language; nothing of one
player's language reaches the table.
"""

from __future__ import annotations

import json

from tests.e2e.conftest import Muster
from tests.e2e.test_warcry import (
    Battle,
    asked,
    channel_text,
    form,
    open_battle,
    redrawn,
    slash,
    table_messages,
)
from tests.emulator.interactions import InteractionResponse
from tests.emulator.model import Message

GERMAN = ("Kampfrunde", "Kriegerschar", "Blutzoll", "bestätigt")
FRENCH = ("round de bataille", "tribut de sang", "a appuyé", "Dague")


def board(muster: Muster) -> Message:
    [found] = [
        m
        for m in table_messages(muster)
        if m.embeds and str(m.embeds[0].get("title", "")).startswith("Warcry: Alice contra Bob")
    ]
    return found


def fields(message: Message) -> dict[str, str]:
    return {f["name"]: f["value"] for f in message.embeds[0].get("fields", [])}


def latest(answer: InteractionResponse) -> str:
    """What a press did, as its answer (the board redrawn, in the table's Spanish) said it: read from
    the answer itself, as a later press may have redrawn the board since."""
    redrawn(answer)
    shown = answer.data["embeds"][0].get("fields", [])
    return "\n".join(f["value"] for f in shown if f["name"] == "Lo último")


async def end_round(
    battle: Battle, by: int, confirm_by: int
) -> tuple[InteractionResponse, InteractionResponse]:
    """`by` presses "End battle round N" and `confirm_by` confirms it; both answers."""
    state = await battle.state()
    pressed = await battle.act(by, battle.cid(f"r{state.round}.end", "end"))
    confirmed = await battle.confirm(confirm_by)
    return pressed, confirmed


async def test_a_reaper_battle_between_a_german_and_a_french_player_in_a_spanish_server(
    muster: Muster,
) -> None:
    emu, w = muster.emu, muster.world
    w.alice.locale, w.bob.locale = "de", "fr"
    await slash(muster, w.carol, "settings language", language="es")
    alice, bob = w.alice.id, w.bob.id
    speaks = {alice: "de", bob: "fr"}

    battle = await open_battle(muster, battleplan="Reaper")
    text = channel_text(muster)
    assert "gana la tirada de prioridad" in text and "Plan de batalla: Reaper" in text
    card = next(m for m in table_messages(muster) if "Plan de batalla: Reaper" in m.embed_text())
    assert "Condición de victoria" in [f["name"] for f in card.embeds[0]["fields"]]
    assert "tributo de sangre" in card.embed_text() and "Sin giro." in card.embed_text()
    assert "sacó" in card.embed_text() or card.embeds[0].get("description")

    # The split: the form opens in the words of the player who presses, and so do its refusals.
    state = await battle.state()
    first, second = state.loser_of_priority, state.winner_of_priority
    split = asked(state, "warcry.split")
    opened = await (
        await emu.click(
            battle.users[first],
            _holding(muster, battle.fid(split.step, "split")),
            custom_id=battle.fid(split.step, "split"),
        )
    ).response()
    assert opened.modal is not None
    labels = [f.label for f in opened.modal.fields]
    if speaks[first] == "de":
        assert opened.modal.title == "Kampfgruppen aufteilen" and labels[0] == "Kämpfer in deinem Dolch"
    else:
        assert opened.modal.title == "Répartir les groupes de bataille"
        assert labels[0] == "Combattants de votre Dague"
    await muster.settle()
    wrong = await form(
        muster,
        battle.users[first],
        battle.fid(split.step, "split"),
        {"dagger": "8", "shield": "5", "hammer": "2"},
    )
    assert wrong.ephemeral
    assert (
        ("Der Dolch hat 8" in wrong.content)
        if speaks[first] == "de"
        else ("Le groupe Dague en a 8" in wrong.content)
    )
    for player in (first, second):
        split = asked(await battle.state(), "warcry.split")
        said = await form(
            muster,
            battle.users[player],
            battle.fid(split.step, "split"),
            {"dagger": "3", "shield": "4", "hammer": "3"},
        )
        assert f"<@{player}> divide 10 combatientes: Daga 3, Escudo 4, Martillo 3." in latest(said)
    assert "divide 10 combatientes: Daga 3, Escudo 4, Martillo 3." in channel_text(muster)

    # Colours and set-up: each press answered by the board redrawn, in the table's Spanish.
    state = await battle.state()
    winner = state.winner_of_priority
    took = await battle.act(winner, battle.cid(asked(state, "warcry.colour").step, "red"))
    assert f"<@{winner}> toma los puntos de despliegue rojos" in latest(took)
    state = await battle.state()
    while state.phase == "deployment":
        current = next(s for s in state.deployment if not s.done)
        await battle.act(current.player, battle.cid(asked(state, "warcry.deploy").step, current.group))
        state = await battle.state()
    begun = await battle.act(alice, battle.cid("objectives.begin", "begin"))
    assert "Empieza la ronda de batalla 1." in latest(begun)
    assert "ha desplegado su Martillo" in channel_text(
        muster
    ) and "Empieza la ronda de batalla 1." in channel_text(muster)

    # Round 1: Alice 120, Bob 80. The tally's form speaks its player's language, the board Spanish.
    question = asked(await battle.state(), "warcry.blood", alice)
    opened = await (await emu.click(w.alice, board(muster), custom_id=battle.fid(question.step))).response()
    assert opened.modal is not None and opened.modal.title == "Blutzoll dieser Runde: Alice"
    await muster.settle()
    recorded = await battle.number("blood", alice, 120)
    assert latest(recorded) == f"Tributo de sangre de <@{alice}> en la ronda de batalla 1: 120."
    recorded = await battle.number("blood", bob, 80)
    assert latest(recorded) == f"Tributo de sangre de <@{bob}> en la ronda de batalla 1: 80."
    now = fields(board(muster))
    assert "Ronda de batalla 1: anota el tributo de sangre" in now["Ahora"]
    assert "Tributo de sangre, ronda 1: <@" in board(muster).embed_text()

    pressed, confirmed = await end_round(battle, bob, alice)
    assert f"<@{bob}> ha pulsado: **terminar la ronda de batalla 1**" in latest(pressed)
    assert f"<@{alice}> confirma: terminar la ronda de batalla 1." in latest(confirmed)
    assert "gana 1 punto de victoria" in channel_text(muster)

    # A stranger's press is refused in the stranger's own language.
    w.carol.locale = "es-ES"
    refused = await (
        await emu.click(
            w.carol, _holding(muster, battle.cid("r2.end", "end")), custom_id=battle.cid("r2.end", "end")
        )
    ).response()
    assert refused.ephemeral and "solo ellos pueden jugarla" in refused.content, refused.content
    await muster.settle()

    await battle.number("blood", bob, 200)
    await end_round(battle, alice, bob)
    await end_round(battle, alice, bob)
    await battle.number("blood", alice, 10)
    _pressed, last = await end_round(battle, bob, alice)
    state = await battle.state()
    assert state.finished and state.outcome is not None and state.outcome.winner == alice
    assert "gana: Reaper tras 4 rondas de batalla: victoria – más puntos de victoria (2 a 1)." in latest(last)
    await muster.announced()
    assert (
        "Reaper tras 4 rondas de batalla: victoria – más puntos de victoria (2 a 1)."
        in fields(board(muster))["Ahora"]
    )

    [announced] = [m for m in emu.messages(w.channel) if "Resultado de Warcry" in m.embed_text()]
    assert "Reaper tras 4 rondas de batalla: victoria" in announced.embed_text()  # its summary in Spanish
    thread = "\n".join(m.all_text() for m in emu.messages(battle.table))
    for words in (*GERMAN, *FRENCH, "wins the priority roll", "battle round", "Blood tally", "Victory"):
        assert words not in thread, words  # the battle's thread speaks Spanish only
    assert not any(words in channel_text(muster) for words in (*GERMAN, *FRENCH))
    shown = emu.text_visible_to(w.carol)
    assert not any(words in shown for words in GERMAN), "a player's words stay in their own answers"


def _holding(muster: Muster, custom_id: str) -> Message:
    for message in reversed(table_messages(muster)):
        ids = [b.get("custom_id", "") for b in message.buttons()]
        if custom_id in ids:
            return message
    raise LookupError(custom_id)


async def test_stand_alone_commands_answer_in_the_players_language_and_post_in_the_servers(
    muster: Muster,
) -> None:
    emu, w = muster.emu, muster.world
    await slash(muster, w.carol, "settings language", language="fr")
    w.alice.locale = "de"
    plan = await slash(muster, w.alice, "warcry battleplan", kind="generator")
    shown = plan.message.embed_text() if plan.message else ""
    assert not plan.ephemeral and "Le paquet de décor ne contient aucune carte" in shown

    rolled = await slash(muster, w.alice, "warcry blocked-objective", opponent=w.bob)
    assert not rolled.ephemeral and "gagne** et place l'objectif" in rolled.content

    listed = await slash(muster, w.alice, "warcry battlegroups", fighters=15)
    assert listed.ephemeral and "Gültige Aufteilungen von 15 Kämpfern" in listed.content
    assert "Dolch 5 · Schild 5 · Hammer 5" in listed.content

    opened = await (await emu.slash(w.alice, w.channel, "warcry warband")).response()
    assert opened.modal is not None and opened.modal.title == "Warcry-Kriegerschar prüfen"
    bad = "A, 600, Cult, leader\nB, 500, Other, leader\n"
    upload = emu.upload("roster.txt", bad.encode())
    answer = await slash(muster, w.alice, "warcry warband", roster=upload)
    assert answer.ephemeral and "verstößt gegen 4 Musterungsregeln" in answer.content
    unreadable = emu.upload("roster.txt", b"A, 100, Cult, leader\nB hundred Cult\n")
    answer = await slash(muster, w.alice, "warcry warband", roster=unreadable)
    assert answer.ephemeral and "Zeile 2 (`B hundred Cult`)" in answer.content

    helped = await slash(muster, w.alice, "help")
    assert "`/warcry battle @Gegner` begleitet eine Schlacht" in helped.message.all_text()  # type: ignore[union-attr]

    described = next(c for c in emu.commands.all() if c["name"] == "warcry")
    assert described["description_localizations"]["es-ES"] == "Planes de batalla, bandas y batallas de Warcry"
    battle = next(o for o in described["options"] if o["name"] == "battle")  # type: ignore[union-attr]
    assert (
        battle["description_localizations"]["de"]
        == "Eine begleitete Warcry-Schlacht gegen einen anderen Spieler starten"
    )
    assert json.dumps(described).count("Matched Play") >= 3  # the kinds' choice names, in every language
