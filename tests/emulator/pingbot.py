"""A bare discord.py AutoShardedBot used to prove the emulator (and as the latency floor).

It is not Muster: just enough commands to exercise every path the emulator serves. Run it as a
process with `python -m tests.emulator.pingbot` (reads DISCORD_TOKEN and DISCORD_API_BASE).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import re
import signal
from typing import Any

import discord
import discord.gateway
import discord.http
import yarl
from discord import app_commands
from discord.ext import commands


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pingbot:count:(?P<n>\d+)"):
    """A button whose count lives in its custom_id, so it works after a restart."""

    def __init__(self, count: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {count}", style=discord.ButtonStyle.primary, custom_id=f"pingbot:count:{count}"
            )
        )
        self.count = count

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(self.count + 1))
        await interaction.response.edit_message(content=f"Count: {self.count + 1}", view=view)


class FeedbackModal(discord.ui.Modal, title="Feedback"):
    text: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Your feedback", custom_id="feedback:text", max_length=200
    )
    mood: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Mood", custom_id="feedback:mood", required=False
    )

    def __init__(self) -> None:
        super().__init__(custom_id="pingbot:feedback")

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        mood = self.mood.value or "none"
        await interaction.response.send_message(f"thanks: {self.text.value} (mood {mood})", ephemeral=True)


class PickView(discord.ui.View):
    @discord.ui.select(
        custom_id="pingbot:pick",
        placeholder="Pick a faction",
        options=[discord.SelectOption(label=n, value=n.lower()) for n in ("Orks", "Elves", "Dwarfs")],
    )
    async def pick(self, interaction: discord.Interaction[Any], select: discord.ui.Select[Any]) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


class RecordingTree(app_commands.CommandTree[Any]):
    """Keeps every command error: the default on_error only logs, which can hide a failure."""

    def __init__(self, client: discord.Client) -> None:
        super().__init__(client)
        self.errors: list[BaseException] = []

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        self.errors.append(error)
        await super().on_error(interaction, error)


game = app_commands.Group(name="game", description="Play a game")
FACTIONS = ["Orks", "Elves", "Dwarfs", "Dark Elves", "Skaven"]


@game.command(name="start", description="Start a game")
@app_commands.describe(opponent="Who you play", rounds="How many rounds", mode="How to pick the mission")
@app_commands.choices(
    mode=[app_commands.Choice(name="Bid", value="bid"), app_commands.Choice(name="Roll", value="roll")]
)
async def game_start(
    interaction: discord.Interaction[Any],
    opponent: discord.Member,
    rounds: app_commands.Range[int, 1, 5] = 3,
    mode: str = "roll",
) -> None:
    await interaction.response.send_message(
        f"{interaction.user.display_name} vs {opponent.display_name}: {rounds} rounds, {mode} "
        f"(opponent id {opponent.id}, manage_guild={interaction.permissions.manage_guild})"
    )


@game.command(name="faction", description="Choose a faction")
async def game_faction(interaction: discord.Interaction[Any], faction: str) -> None:
    await interaction.response.send_message(f"faction {faction}", ephemeral=True)


@game_faction.autocomplete("faction")
async def faction_choices(
    interaction: discord.Interaction[Any], current: str
) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=f, value=f) for f in FACTIONS if current.lower() in f.lower()]


@app_commands.command(name="ping", description="Answers pong")
async def ping(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("pong")


@app_commands.command(name="secret", description="An ephemeral answer")
async def secret(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("for your eyes only", ephemeral=True)


@app_commands.command(name="panel", description="A persistent counter button")
async def panel(interaction: discord.Interaction[Any]) -> None:
    view = discord.ui.View(timeout=None)
    view.add_item(CounterButton(0))
    await interaction.response.send_message("Count: 0", view=view)


@app_commands.command(name="pick", description="A select menu")
async def pick(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message("Choose", view=PickView(timeout=60))


@app_commands.command(name="dm", description="Send a DM")
async def dm(interaction: discord.Interaction[Any], user: discord.User | None = None) -> None:
    target = user or interaction.user
    try:
        await target.send(f"hello {target.display_name}")
    except discord.Forbidden as error:
        await interaction.response.send_message(f"forbidden {error.code}", ephemeral=True)
        return
    await interaction.response.send_message("sent", ephemeral=True)


@app_commands.command(name="feedback", description="Opens a modal")
async def feedback(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_modal(FeedbackModal())


@app_commands.command(name="announce", description="Defers, posts in the channel, follows up")
async def announce(interaction: discord.Interaction[Any], text: str = "announcement") -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    assert isinstance(interaction.channel, discord.abc.Messageable)
    await interaction.channel.send(text)
    await interaction.followup.send("posted", ephemeral=True)


@app_commands.command(name="slow", description="Defers, then edits the original response")
async def slow(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.defer()
    await asyncio.sleep(0.05)
    await interaction.edit_original_response(content="done slowly", embed=discord.Embed(title="Result"))


@app_commands.command(name="upload", description="Echoes an attachment back as CSV")
async def upload(interaction: discord.Interaction[Any], file: discord.Attachment) -> None:
    data = await file.read()
    csv = "name,size\n" + f"{file.filename},{len(data)}\n" + data.decode().upper()
    await interaction.response.send_message("echo", file=discord.File(io.BytesIO(csv.encode()), "echo.csv"))


@app_commands.command(name="admin", description="Manage Server only")
@app_commands.default_permissions(manage_guild=True)
@app_commands.guild_only()
async def admin(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message(
        f"admin ok {interaction.permissions.manage_guild}", ephemeral=True
    )


class CardLayout(discord.ui.LayoutView):
    """A components-v2 message: a container with text and a button."""

    def __init__(self) -> None:
        super().__init__(timeout=60)
        reveal: discord.ui.Button[Any] = discord.ui.Button(label="Reveal", custom_id="pingbot:reveal")
        reveal.callback = self.reveal  # type: ignore[method-assign]
        self.add_item(
            discord.ui.Container(discord.ui.TextDisplay("A face-down card"), discord.ui.ActionRow(reveal))
        )

    async def reveal(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message("revealed", ephemeral=True)


@app_commands.command(name="card", description="A components-v2 message")
async def card(interaction: discord.Interaction[Any]) -> None:
    await interaction.response.send_message(view=CardLayout())


@app_commands.command(name="history", description="Reads the channel back")
async def history(interaction: discord.Interaction[Any]) -> None:
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel | discord.DMChannel)
    messages = [m async for m in channel.history(limit=10)]
    first = await channel.fetch_message(messages[-1].id) if messages else None
    await interaction.response.send_message(
        f"{len(messages)} messages, oldest {first.content if first else '-'!r}"
    )


@app_commands.command(name="thread", description="Posts a card and runs a thread from it")
@app_commands.describe(name="The thread's name", player="Who joins the thread")
async def thread(
    interaction: discord.Interaction[Any], name: str, player: discord.Member | None = None
) -> None:
    await interaction.response.send_message(f"Card: {name}")
    card = await interaction.original_response()
    try:
        started = await card.create_thread(name=name, auto_archive_duration=1440)
    except discord.HTTPException as error:
        await interaction.followup.send(f"thread refused {error.code}", ephemeral=True)
        return
    invited = player or interaction.user
    await started.add_user(invited)
    await started.send(f"welcome {invited.display_name}")
    await interaction.followup.send(f"thread {started.id}", ephemeral=True)


@app_commands.command(name="where", description="Says where it was used")
async def where(interaction: discord.Interaction[Any]) -> None:
    channel = interaction.channel
    kind = type(channel).__name__
    parent = channel.parent_id if isinstance(channel, discord.Thread) else None
    await interaction.response.send_message(
        f"{kind} {interaction.channel_id} parent {parent} "
        f"threads={interaction.app_permissions.send_messages_in_threads}"
    )


@app_commands.context_menu(name="Greet")
async def greet(interaction: discord.Interaction[Any], user: discord.User) -> None:
    await interaction.response.send_message(f"hi {user.display_name}")


@app_commands.context_menu(name="Quote")
async def quote(interaction: discord.Interaction[Any], message: discord.Message) -> None:
    await interaction.response.send_message(f"> {message.content}")


ALL_COMMANDS: list[Any] = [
    card,
    history,
    thread,
    where,
    greet,
    quote,
    ping,
    secret,
    panel,
    pick,
    dm,
    feedback,
    announce,
    slow,
    upload,
    admin,
    game,
]


class PingBot(commands.AutoShardedBot):
    """The reference bot: `api_base` points discord.py at the emulator, as DISCORD_API_BASE does."""

    tree: RecordingTree

    def __init__(
        self, api_base: str | None = None, *, sync: bool = True, intents: discord.Intents | None = None
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents or discord.Intents.default(),
            help_command=None,
            tree_cls=RecordingTree,
        )
        self.api_base = api_base
        self.sync = sync
        if api_base is not None:
            discord.http.Route.BASE = api_base

    async def setup_hook(self) -> None:
        if self.api_base is not None:
            # After INVALID_SESSION (or a failed resume) discord.py reconnects to DEFAULT_GATEWAY,
            # the real Discord, not the URL GET /gateway/bot gave: pin it to the emulator's.
            _shards, url, _limits = await self.http.get_bot_gateway()
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)
        for command in ALL_COMMANDS:
            self.tree.add_command(command)
        self.add_dynamic_items(CounterButton)
        if self.sync:
            await self.tree.sync()


async def _main() -> None:
    bot = PingBot(os.environ.get("DISCORD_API_BASE"))
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with bot:
        runner = asyncio.create_task(bot.start(os.environ["DISCORD_TOKEN"]))
        stopper = asyncio.create_task(stop.wait())
        await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
        await bot.close()
        stopper.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner


if __name__ == "__main__":
    asyncio.run(_main())
