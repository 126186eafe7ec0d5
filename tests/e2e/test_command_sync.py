"""Muster's command sync against the emulator, which refuses what Discord refuses.

One sync carries every language: discord.py asks the translator once per locale and sends the
answers as `*_localizations`. Discord refuses the whole `PUT .../commands` (400, 50035,
APPLICATION_COMMAND_INVALID_NAME) over one localised name with a capital, and the bot then cannot
start; names therefore stay English, and only descriptions and choice names are translated.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot import app
from tests.e2e.conftest import Muster
from tests.emulator import DefaultWorld, Emulator, discord_globals_restored
from tests.old_translator import EveryString

JSON = dict[str, Any]
LOCALES = ("de", "fr", "es-ES", "es-419")
"""Discord's locales for the shipped translations."""


def walk(owner: JSON, path: str) -> Iterator[tuple[str, JSON]]:
    """A registered command and every group, sub-command and option in it, with its path."""
    yield path, owner
    for option in owner.get("options") or []:
        yield from walk(option, f"{path} {option['name']}")


def codes(errors: Any) -> Iterator[str]:
    """Every error code in Discord's nested `errors` tree."""
    if isinstance(errors, dict):
        for key, value in errors.items():
            if key == "_errors":
                yield from (item["code"] for item in value)
            else:
                yield from codes(value)


async def test_the_tree_in_every_language_is_accepted(muster: Muster) -> None:
    emu = muster.emu
    assert not emu.invalid_requests and len(emu.sync_requests()) == 1
    registered = emu.commands.all()
    assert {c["name"] for c in registered} >= {"roll", "scores", "verify", "night", "40k", "warmaster"}
    every = [found for command in registered for found in walk(command, f"/{command['name']}")]
    assert [path for path, found in every if found.get("name_localizations")] == []
    for path, found in every:
        if found.get("description", "…") != "…":  # discord.py's stand-in for an undescribed option
            assert set(found.get("description_localizations") or {}) >= set(LOCALES), path
    scores = next(c for c in registered if c["name"] == "scores")
    player = next(o for o in scores["options"] if o["name"] == "player")
    assert player["description_localizations"]["de"] and not player.get("name_localizations")


async def test_names_translated_as_they_were_refuse_the_whole_sync(
    emu: Emulator, world: DefaultWorld, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app, "CatalogueTranslator", EveryString)
    with discord_globals_restored():
        harness = Muster(emu, world, database_url)
        with pytest.raises(discord.HTTPException) as refused:
            await harness.start()  # the sync in setup_hook is refused, so the bot never starts
    assert refused.value.status == 400 and refused.value.code == 50035
    assert not emu.commands.all()
    (request,) = emu.invalid_requests
    assert set(codes(request.response["errors"])) == {"APPLICATION_COMMAND_INVALID_NAME"}
    assert "Spieler" in refused.value.text and "Gelände" in refused.value.text
