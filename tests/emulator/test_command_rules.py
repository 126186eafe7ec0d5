"""Discord's rules for a command's names, localised names included, as the emulator judges them.

Discord refuses a whole bulk sync (400, code 50035, APPLICATION_COMMAND_INVALID_NAME in the errors
tree) when one chat-input name or name localisation breaks `^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`
or has a capital; an emulator that lets it through hides a bot that cannot start on Discord.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from . import Emulator, discord_globals_restored
from .validation import validate_commands

INVALID_NAME = "APPLICATION_COMMAND_INVALID_NAME"


def scores(player_names: dict[str, str] | None = None, command_names: dict[str, str] | None = None) -> Any:
    """`/scores player user:`, with the given name localisations on the command and the sub-command."""
    player: dict[str, Any] = {
        "type": 1,
        "name": "player",
        "description": "One player's record",
        "options": [{"type": 6, "name": "user", "description": "Whose", "required": True}],
    }
    if player_names is not None:
        player["name_localizations"] = player_names
    command: dict[str, Any] = {"type": 1, "name": "scores", "description": "Scores", "options": [player]}
    if command_names is not None:
        command["name_localizations"] = command_names
    return command


def refusals(commands: list[Any]) -> list[tuple[str, str]]:
    return [(".".join(path), code) for path, code, _message in validate_commands(commands).items]


@pytest.mark.parametrize(
    "name",
    ["spieler", "joueur", "jugador", "gelände", "x-y_z'", "टेबल", "โต๊ะ", "игрок", "玩家", "k2", "a" * 32],
)
def test_a_lowercase_name_localisation_is_accepted(name: str) -> None:
    assert refusals([scores({"de": name}, {"fr": name})]) == []


@pytest.mark.parametrize("name", ["Spieler", "GELÄNDE", "Игрок", "two words", "a.b", "a" * 33, ""])
def test_a_name_localisation_discord_refuses_is_refused(name: str) -> None:
    assert refusals([scores({"de": name})]) == [("0.options.0.name_localizations.de", INVALID_NAME)]
    assert refusals([scores(command_names={"es-ES": name})]) == [("0.name_localizations.es-ES", INVALID_NAME)]


def test_user_and_message_commands_may_have_spaces_and_capitals() -> None:
    menu = {"type": 2, "name": "Show Record", "name_localizations": {"de": "Bilanz Zeigen"}}
    assert refusals([menu]) == []
    assert refusals([{**menu, "name_localizations": {"de": "B" * 33}}]) == [
        ("0.name_localizations.de", INVALID_NAME)
    ]


def test_the_other_limits_are_still_checked() -> None:
    option = {"type": 3, "name": "kind", "description": "Kind"}
    choices = [{"name": f"c{i}", "value": f"c{i}", "name_localizations": {"de": "C"}} for i in range(26)]
    command = {
        "type": 1,
        "name": "Kind",
        "description": "",
        "options": [
            {**option, "choices": choices},
            {**option, "required": True, "description_localizations": {"fr": "x" * 101}},
        ],
    }
    found = set(refusals([command]))
    assert found >= {
        ("0.name", INVALID_NAME),
        ("0.description", "BASE_TYPE_BAD_LENGTH"),
        ("0.options.0.choices", "BASE_TYPE_MAX_LENGTH"),
        ("0.options.1.name", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"),
        ("0.options.1.required", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"),
        ("0.options.1.description_localizations.fr", "BASE_TYPE_BAD_LENGTH"),
    }
    # A choice's name is not a command name: capitals are fine there.
    assert ("0.options.0.choices.0.name_localizations.de", INVALID_NAME) not in found


class Names(app_commands.Translator):
    """Answers every parameter name with `name` in German, as a careless translator would."""

    def __init__(self, name: str) -> None:
        self.name = name

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        wanted = context.location is app_commands.TranslationContextLocation.parameter_name
        return self.name if wanted and locale is discord.Locale.german else None


async def sync_with(emu: Emulator, translator: app_commands.Translator) -> list[app_commands.AppCommand]:
    """A one-command discord.py tree, synced through the real client's REST calls."""
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)

    @tree.command(description="One player's record")
    async def record(interaction: discord.Interaction, player: discord.User) -> None:  # pragma: no cover
        await interaction.response.send_message(player.name)

    await tree.set_translator(translator)
    with discord_globals_restored():
        discord.http.Route.BASE = emu.api_base
        await client.login(emu.token)
        try:
            return await tree.sync()
        finally:
            await client.close()


async def test_a_capitalised_localised_name_refuses_the_whole_sync(emu: Emulator) -> None:
    with pytest.raises(discord.HTTPException) as refused:
        await sync_with(emu, Names("Spieler"))
    assert refused.value.status == 400 and refused.value.code == 50035
    assert "0.options.0.name_localizations.de" in refused.value.text
    assert not emu.commands.all()
    (record,) = emu.invalid_requests
    errors = record.response["errors"]
    assert errors["0"]["options"]["0"]["name_localizations"]["de"]["_errors"][0]["code"] == INVALID_NAME
    emu.invalid_requests.clear()


async def test_a_lowercase_localised_name_is_registered(emu: Emulator) -> None:
    (synced,) = await sync_with(emu, Names("spieler"))
    assert synced.name == "record"
    (option,) = emu.commands.find("record", 1, None)["options"]
    assert option["name_localizations"] == {"de": "spieler"}
    assert not emu.invalid_requests
