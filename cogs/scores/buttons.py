"""The /scores buttons, which survive restarts (their custom_id carries all they need), and the
words and views they share with the commands (cogs/scores/commands.py).
- `score:<result>:confirm|dispute`                        the opponent's answer to a recorded game
- `board:<kind>:<page>:<season id|all>:<system or empty>`  leaderboard paging (p/n/x) and image (i)
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import replace
from typing import Any, Protocol, cast, runtime_checkable

import discord

from bot.app import MusterBot
from bot.chat import errors, render
from bot.chat.checks import guild_id_of
from bot.lang.i18n import Domain, speaking
from bot.scores import RESULT_BUTTON, ScoreService, SeasonChoice, prompt_embed, system_key, system_title
from bot.scores.layout import EmbedPage, leaderboard_pages
from rules.errors import RuleError
from rules.scores import ResultStatus, Standing

_ = Domain("muster")
BOARD_COLOUR = 0x3B5998


def service_of(client: discord.Client) -> ScoreService:
    return cast(MusterBot, client).scores


@runtime_checkable
class Board(Protocol):
    """What the leaderboard's buttons ask of the cog (`Scores`, cogs/scores/commands.py)."""

    bot: MusterBot
    service: ScoreService

    async def table(self, guild_id: int, system: str | None, choice: SeasonChoice) -> list[Standing]: ...

    async def board_png(
        self,
        interaction: discord.Interaction[Any],
        table: list[Standing],
        system: str | None,
        choice: SeasonChoice,
    ) -> discord.File: ...


def cog_of(client: discord.Client) -> Board:
    """This cog, for its own buttons (which Discord hands the client, not the cog)."""
    cog = cast(MusterBot, client).get_cog("Scores")
    if not isinstance(cog, Board):
        raise RuleError(code="scores.unavailable")
    return cog


# ---------------------------------------------------------------------- result prompts


class ResultButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=RESULT_BUTTON):
    """The opponent's Confirm / Dispute on a recorded result (posted through the outbox as
    `bot.scores.prompts.result_buttons`), answered here after any restart."""

    def __init__(self, result_id: int, action: str) -> None:
        confirm = action == "confirm"
        super().__init__(
            discord.ui.Button(
                label=_.p("button", "Confirm") if confirm else _.p("button", "Dispute"),
                style=discord.ButtonStyle.success if confirm else discord.ButtonStyle.danger,
                custom_id=f"score:{result_id}:{action}",
            )
        )
        self.result_id, self.action = result_id, action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ResultButton:
        return cls(int(match["rid"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            service = service_of(interaction.client)
            if self.action == "confirm":
                row = await service.confirm(self.result_id, interaction.guild_id, interaction.user.id)
            else:
                row = await service.dispute(self.result_id, interaction.guild_id, interaction.user.id)
            who = f"<@{interaction.user.id}>"
            # The prompt in the channel speaks the server's language; in a DM, the clicker's (in force).
            public = interaction.guild_id is not None
            lang = await service.bot.languages.of_server(row.guild_id) if public else None
            with speaking(lang) if lang else contextlib.nullcontext():
                if self.action == "confirm":
                    status = "✅ " + _("Confirmed by {player}: it counts now.", player=who)
                else:
                    status = "⚠️ " + _(
                        "Disputed by {player}: it won't count until someone with Manage Server settles it.",
                        player=who,
                    )
                title = _.p("title", "{game} result", game=system_title(row.system))
                embed = replace(prompt_embed(row), title=title)
            await interaction.response.edit_message(content=status, embed=render.embed(embed), view=None)
        except Exception as exc:
            await errors.report(interaction, exc)


# ---------------------------------------------------------------------- leaderboard paging


class BoardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=re.compile(
        r"board:(?P<kind>[pnxi]):(?P<page>\d{1,4}):(?P<season>all|\d{1,18}):"
        r"(?P<system>[a-z0-9-]{0,32})"
    ),
):
    def __init__(
        self, kind: str, page: int, season: str, system: str, *, label: str = "", disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or board_label(kind, page),
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"board:{kind}:{page}:{season}:{system}",
            )
        )
        self.kind, self.page, self.season, self.system = kind, page, season, system

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> BoardButton:
        return cls(match["kind"], int(match["page"]), match["season"], match["system"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        try:
            cog = cog_of(interaction.client)
            guild_id = guild_id_of(interaction)
            choice = await cog.service.seasons.by_token(guild_id, self.season)
            system = self.system or None
            if self.kind == "i":
                await interaction.response.defer(ephemeral=True, thinking=True)
                table = await cog.table(guild_id, system, choice)
                await interaction.followup.send(
                    file=await cog.board_png(interaction, table, system, choice), ephemeral=True
                )
                return
            with speaking(await cog.bot.languages.of_server(guild_id)):  # the board is public
                pages = leaderboard_pages(
                    await cog.table(guild_id, system, choice),
                    title=board_title(system),
                    subtitle=choice.label,
                )
                page = min(self.page, len(pages) - 1)
                view = board_view(page, len(pages), choice.token, system or "")
            await interaction.response.edit_message(embed=page_embed(pages[page]), view=view)
        except Exception as exc:
            await errors.report(interaction, exc)


def status_word(status: str) -> str:
    """A result's status as a word, in the language in force."""
    words = {
        ResultStatus.PENDING.value: _.p("status", "pending"),
        ResultStatus.CONFIRMED.value: _.p("status", "confirmed"),
        ResultStatus.DISPUTED.value: _.p("status", "disputed"),
        ResultStatus.VOID.value: _.p("status", "void"),
    }
    return words.get(status, status)


def system_option(system: str | None) -> str | None:
    """A `system` filter as its stored key; left out or blank means every system."""
    if system is None or not system.strip():
        return None
    key = system_key(system)
    if not key:
        raise RuleError(code="scores.system_filter_unreadable")
    return key


def board_title(system: str | None) -> str:
    if system:
        return _.p("title", "{game} leaderboard", game=system_title(system))
    return _.p("title", "Leaderboard, all systems")


def board_label(kind: str, page: int) -> str:
    """A paging button's label, in the language in force."""
    if kind == "p":
        return "◀ " + _.p("button", "Previous")
    if kind == "n":
        return _.p("button", "Next") + " ▶"
    return _.p("button", "As image") if kind == "i" else str(page + 1)


def page_embed(page: EmbedPage) -> discord.Embed:
    embed = discord.Embed(title=page.title, description=page.description, colour=BOARD_COLOUR)
    if page.footer:
        embed.set_footer(text=page.footer)
    return embed


def board_view(page: int, count: int, season: str, system: str) -> discord.ui.View | None:
    if count <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(BoardButton("p", max(page - 1, 0), season, system, disabled=page == 0))
    view.add_item(BoardButton("x", page, season, system, label=f"{page + 1} / {count}", disabled=True))
    view.add_item(BoardButton("n", min(page + 1, count - 1), season, system, disabled=page >= count - 1))
    view.add_item(BoardButton("i", 0, season, system))
    return view
