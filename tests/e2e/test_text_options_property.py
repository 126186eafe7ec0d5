"""Every text option of every slash command, fed random strings through the emulator.

The commands are read from the schema the bot registered (`emu.commands.all()`), so a new command
or option is covered without touching this file. Each leaf command that takes free text is invoked
with generated strings in all its text options (the other required options get valid values: users
from the default world, small numbers within range, one of the choices), and its autocomplete, if
any, is typed into with the same strings. Whatever the text, the bot must:

- answer within Discord's 3 s (the emulator refuses a later answer),
- answer ephemerally when it refuses (the command raised into the tree's error handler),
- never send what Discord would reject (`emu.invalid_requests`: content over 2,000, embeds, ...),
- never show an error id (an unhandled exception; the fixture also fails on any logged error).

Games are opened in a fresh channel for each example, so in-game commands reach their own parsing
instead of the "no game here" refusal, and one example's leftovers never explain another's answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import count, repeat
from typing import Any

import discord
import pytest
from discord import app_commands
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.e2e.conftest import Muster
from tests.emulator.harness import ErrorRecords
from tests.emulator.model import Channel, User

STRING, INTEGER, BOOLEAN, USER, CHANNEL, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 9, 10
DISCORD_STRING_MAX = 6000  # the longest string option value Discord accepts

FRAGMENTS = [
    "**bold**",
    "__under__",
    "`code`",
    "```block```",
    "||spoiler||",
    "> quote",
    "# heading",
    "<@123456789012345678>",
    "<@&123456789012345678>",
    "<#123456789012345678>",
    "@everyone",
    "@here",
    "²",
    "³",
    "¹²",
    "١٢",
    "\n",
    "\r\n",
    "\t",
    "\u200b",
    "🎲",
    "👨‍👩‍👧",
    "ﷺ",
    "3d6+2",
    "marked-for-death",
    "killteam",
    ":",
    "'",
    '"',
    "\\",
    "-",
    "0",
    "999999999999999999999",
    "-1",
    "%s",
    "{0}",
    "{name}",
]

texts = st.one_of(
    st.text(max_size=30),
    st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=8), max_size=12).map("".join),
    # long: a short piece repeated, so hypothesis stays fast while Discord's limits are tested
    st.tuples(
        st.lists(st.sampled_from(FRAGMENTS) | st.text(min_size=1, max_size=10), min_size=1, max_size=4),
        st.integers(50, 1500),
    ).map(lambda pair: "".join(pair[0]) * pair[1]),
)


@dataclass(frozen=True)
class Leaf:
    """One invocable command: its path ("40k mark"), options, and whether Discord hides it."""

    path: str
    options: tuple[dict[str, Any], ...]

    @property
    def free_text(self) -> list[dict[str, Any]]:
        return [o for o in self.options if o["type"] == STRING and not o.get("choices")]


def leaves(commands: list[dict[str, Any]]) -> list[Leaf]:
    """Every chat-input leaf that takes at least one free-text option."""
    found: list[Leaf] = []

    def walk(path: list[str], options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o["type"] in (1, 2)]
        if subs:
            for sub in subs:
                walk([*path, sub["name"]], sub.get("options") or [])
            return
        leaf = Leaf(" ".join(path), tuple(options))
        if leaf.free_text:
            found.append(leaf)

    for command in commands:
        if command.get("type", 1) == 1:
            walk([command["name"]], command.get("options") or [])
    return sorted(found, key=lambda leaf: leaf.path)


def fitted(option: dict[str, Any], text: str) -> str:
    """`text` within the option's declared lengths: Discord's client never sends anything else."""
    high = min(int(option.get("max_length") or DISCORD_STRING_MAX), DISCORD_STRING_MAX)
    low = max(int(option.get("min_length") or 0), 1 if option.get("required") else 0)
    text = text[:high]
    return text + "a" * (low - len(text)) if len(text) < low else text


Pick = Callable[[list[Any]], Any]


def first(choices: list[Any]) -> Any:
    return choices[0]


def valid_value(option: dict[str, Any], channel: Channel, opponent: User, pick: Pick = first) -> Any:
    """A value the user could pick for a non-text option, or None to leave an optional one out."""
    if option.get("choices"):
        return pick([c["value"] for c in option["choices"]])
    kind = option["type"]
    if kind in (INTEGER, NUMBER):
        low, high = option.get("min_value"), option.get("max_value")
        value = 1
        if low is not None:
            value = max(value, int(low))
        if high is not None:
            value = min(value, int(high))
        return value
    if kind == BOOLEAN:
        return False
    if kind in (USER, MENTIONABLE):
        return opponent
    if kind == CHANNEL:
        return channel
    return None  # attachments and roles: leaf commands with text options need none of them


class ErrorSpy:
    """Which interactions ended in the command tree's error handler (the real one still answers)."""

    def __init__(self, tree: app_commands.CommandTree[Any]) -> None:
        self.ids: set[int] = set()
        handler = tree.on_error

        async def spying(interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
            self.ids.add(interaction.id)
            await handler(interaction, error)

        tree.error(spying)


async def open_games(muster: Muster, channel: Channel) -> None:
    """A game of every system between carol and bob, so in-game commands parse their text."""
    emu, w = muster.emu, muster.world
    starts: list[tuple[str, dict[str, Any]]] = [
        ("40k start", {}),
        ("warcry battle", {}),
        ("warmaster game", {"my_points": 2000, "their_points": 2000}),
        ("killteam start", {"mission_method": "random", "tacops_method": "free"}),
    ]
    known = {c["name"] for c in emu.commands.all()}
    started = [(path, options) for path, options in starts if path.split()[0] in known]
    for path, options in started:
        record = await emu.slash(w.carol, channel, path, opponent=w.bob, **options)
        await record.response()
    await muster.settle()
    assert muster.bot is not None
    games = await muster.bot.sessions.open_sessions(w.guild.id, channel_id=channel.id)
    assert len(games) == len(started), f"only {[g.system for g in games]} opened"


def check_answer(muster: Muster, spy: ErrorSpy, record: Any, response: Any, what: str) -> None:
    rejected = [r.response for r in muster.emu.invalid_requests]
    muster.emu.invalid_requests.clear()  # a failing example must not fail the next one for it
    assert not rejected, f"{what}: Discord would reject {rejected}"
    shown = response.text() + "".join(m.text() for m in response.followups)
    assert "error id" not in shown, f"{what}: answered with an error id: {shown[:300]!r}"
    if record.id in spy.ids:
        assert response.ephemeral, f"{what}: refused in public: {shown[:300]!r}"
        assert all(m.ephemeral for m in response.followups), f"{what}: a public followup to a refusal"


async def exercise(
    muster: Muster,
    spy: ErrorSpy,
    errors: ErrorRecords,
    channel: Channel,
    leaf: Leaf,
    texts: Iterator[str],
    pick: Pick = first,
) -> None:
    emu, w = muster.emu, muster.world
    free = {o["name"] for o in leaf.free_text}
    options: dict[str, Any] = {}
    for option in leaf.options:
        if option["name"] in free:
            options[option["name"]] = fitted(option, next(texts))
        elif option.get("required"):
            value = valid_value(option, channel, w.bob, pick)
            if value is not None:
                options[option["name"]] = value
    what = f"/{leaf.path} { ({k: (v[:80] if isinstance(v, str) else v) for k, v in options.items()})!r}"
    record = await emu.slash(w.carol, channel, leaf.path, **options)
    response = await record.response(timeout=3)
    if response.deferred:
        await record.settled(timeout=3)
    check_answer(muster, spy, record, response, what)
    for option in leaf.free_text:
        if option.get("autocomplete"):
            typed = {k: v for k, v in options.items() if k != option["name"]}
            asked = await emu.autocomplete(
                w.carol, channel, leaf.path, focused=option["name"], **typed, **{option["name"]: next(texts)}
            )
            answer = await asked.response(timeout=3)
            check_answer(muster, spy, asked, answer, f"autocomplete {option['name']} of {what}")
    logged = errors.describe() if errors.records else ""
    errors.records.clear()
    assert not logged, f"{what}: errors logged:\n{logged}"


CHANNELS = count(1)


@settings(
    max_examples=15,
    deadline=None,
    # Shrinking replays whole games and can run for minutes; each failure already names its command
    # and text, which is what a fix needs.
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
async def test_random_text_in_every_text_option(
    muster: Muster, logged_errors: ErrorRecords, data: st.DataObject
) -> None:
    spy = getattr(muster, "_error_spy", None) or ErrorSpy(muster.bot.tree)  # type: ignore[union-attr]
    muster._error_spy = spy  # type: ignore[attr-defined]  # one spy per bot, across examples
    # What an earlier, failing example left behind has already failed that example (hypothesis
    # replays it to report it); each example is judged on its own interactions only.
    muster.emu.invalid_requests.clear()
    logged_errors.records.clear()
    channel = muster.emu.add_channel(muster.world.guild, f"fuzz-{next(CHANNELS)}")
    await open_games(muster, channel)
    found = leaves(muster.emu.commands.all())
    assert found, "no command takes free text?"

    def drawn() -> Iterator[str]:
        while True:
            yield data.draw(texts)

    def any_choice(choices: list[Any]) -> Any:
        return data.draw(st.sampled_from(choices))

    stream = drawn()
    for leaf in found:
        await exercise(muster, spy, logged_errors, channel, leaf, stream, any_choice)
    await muster.settle()
    assert not muster.emu.invalid_requests
    assert spy.ids, "no command refused anything: is the error handler still the tree's?"


HOSTILE = [
    "x" * DISCORD_STRING_MAX,
    ("**<@123456789012345678>** @everyone `tick` ||s|| ²\n" * 200)[:DISCORD_STRING_MAX],
    "²",
    "\n\n\n",
    "🎲" * 3000,
]


@pytest.mark.parametrize(
    "text", HOSTILE, ids=["6000-x", "markdown-mentions", "superscript", "newlines", "emoji"]
)
async def test_hostile_text_in_every_text_option(
    muster: Muster, logged_errors: ErrorRecords, text: str
) -> None:
    """The same hostile string in every text option at once: the longest echoes Discord allows."""
    spy = ErrorSpy(muster.bot.tree)  # type: ignore[union-attr]
    channel = muster.emu.add_channel(muster.world.guild, "hostile")
    await open_games(muster, channel)
    for leaf in leaves(muster.emu.commands.all()):
        await exercise(muster, spy, logged_errors, channel, leaf, repeat(text))
    await muster.settle()
    assert spy.ids
