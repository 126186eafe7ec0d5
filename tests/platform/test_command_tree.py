"""The bot's real command tree, translated as a sync sends it, within Discord's rules.

Discord refuses the whole sync over one capital in one localised name, and a localised name also
renames a command in that language (`/scores joueur`) against the rule that names stay English. The
tree is built offline, as `muster doctor` builds it (bot/doctor/command_tree.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.doctor.command_tree import muster_payload, name_problem, offline_bot, problems, sync_payload
from bot.lang import i18n
from bot.lang.translator import CatalogueTranslator
from tests.emulator import discord_globals_restored
from tests.old_translator import EveryString

JSON = dict[str, Any]
LOCALES = {"de": ("de",), "fr": ("fr",), "es": ("es-ES", "es-419")}
"""Discord's locales for each shipped translation."""
UNDESCRIBED = "…"
"""discord.py's description of an option without one: nothing to translate."""
DESCRIPTION = "Roll dice: 3d6+2, d3, 2d6kh1, 20d6>=4, 2d6+d3"
"""A description the catalogue translates."""


@pytest.fixture(scope="module")
def payload() -> list[JSON]:
    import asyncio

    with discord_globals_restored():
        return asyncio.run(muster_payload())


def walk(owner: JSON, path: str) -> Iterator[tuple[str, JSON]]:
    """A command and every group, sub-command and option in it, with its path."""
    yield path, owner
    for option in owner.get("options") or []:
        yield from walk(option, f"{path} {option['name']}")


def every(payload: list[JSON]) -> Iterator[tuple[str, JSON]]:
    for command in payload:
        yield from walk(command, f"/{command['name']}")


def test_the_real_tree_breaks_none_of_discords_rules(payload: list[JSON]) -> None:
    assert {command["name"] for command in payload} >= {"roll", "scores", "night", "40k", "verify"}
    assert problems(payload) == []


def test_no_name_is_localised(payload: list[JSON]) -> None:
    """discord.py sends an empty `name_localizations` with a translator set: none may have an entry."""
    localised = {
        path: found["name_localizations"] for path, found in every(payload) if found.get("name_localizations")
    }
    assert localised == {}


@pytest.mark.parametrize("lang", i18n.TRANSLATED)
def test_every_description_is_translated_into_every_language(payload: list[JSON], lang: str) -> None:
    missing = [
        (path, locale)
        for path, found in every(payload)
        for locale in LOCALES[lang]
        if found["description"] != UNDESCRIBED
        and locale not in (found.get("description_localizations") or {})
    ]
    assert missing == []


def test_localised_choice_names_are_within_discords_rules(payload: list[JSON]) -> None:
    """Choice names are translated (warmaster's "player" is "Spieler"): capitals are fine there."""
    choices = [choice for _path, found in every(payload) for choice in found.get("choices") or []]
    localised = [value for choice in choices for value in (choice.get("name_localizations") or {}).values()]
    assert localised and all(1 <= len(value) <= 100 for value in localised)
    assert "Spieler" in localised


@pytest.mark.parametrize(
    ("name", "chat_input", "why"),
    [
        ("spieler", True, None),
        ("gelände", True, None),
        ("टेबल", True, None),
        ("Spieler", True, "has capitals"),
        ("two words", True, "holds ' '"),
        ("x" * 33, True, "not 1-32"),
        ("Show Record", False, None),
    ],
)
def test_the_name_rule(name: str, chat_input: bool, why: str | None) -> None:
    found = name_problem(name, chat_input=chat_input)
    assert found is None if why is None else why in str(found)


def tiny_tree() -> app_commands.CommandTree[Any]:
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(
        discord.Client(intents=discord.Intents.none())
    )

    @tree.command(description=DESCRIPTION)
    async def record(interaction: discord.Interaction, player: discord.User) -> None:  # pragma: no cover
        await interaction.response.send_message(player.name)

    return tree


async def test_names_are_never_translated_though_the_catalogue_has_them() -> None:
    for translator, german in ((EveryString(), "Spieler"), (CatalogueTranslator(), None)):
        tree = tiny_tree()
        await tree.set_translator(translator)
        (record,) = await sync_payload(tree)
        (player,) = record["options"]
        assert (player.get("name_localizations") or {}).get("de") == german
        assert record["description_localizations"]["de"].startswith("W")
    bad = problems([record | {"options": [player | {"name_localizations": {"de": "Spieler"}}]}])
    assert [(problem.path, problem.text) for problem in bad] == [
        ("/record player:", "name in de: 'Spieler' has capitals: names must be lowercase")
    ]


async def test_a_process_translates_the_tree_once_as_a_fresh_translation_would() -> None:
    """Each bot a process starts syncs the payload its first one translated (the tests start
    hundreds): it is what translating the tree afresh gives, and a tree with another translator
    is translated afresh, never handed it."""
    with discord_globals_restored():
        async with offline_bot() as first, offline_bot() as second:
            once = await first._command_payload(None)
            assert await second._command_payload(None) is once
            assert once == await sync_payload(second.tree)
            await second.tree.set_translator(EveryString())
            other = await second._command_payload(None)
    german = [path for path, found in every(other) if (found.get("name_localizations") or {}).get("de")]
    assert german and not [path for path, found in every(once) if found.get("name_localizations")]
