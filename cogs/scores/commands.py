"""/scores: record, confirm, rate, rank and export results (a thin adapter over bot/scores/).

Every command answers first; what it posts besides goes through the outbox. The buttons, which
survive restarts, are cogs/scores/buttons.py's; the player's embed cogs/scores/player.py's.
"""

from __future__ import annotations

import io
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from sqlalchemy import select

from bot.app import MusterBot
from bot.chat.checks import can_manage, channel_id_of, guild_id_of, require_manage
from bot.chat.limits import (
    AUTOCOMPLETE_CHOICES,
    COMMAND_CHOICE_NAME,
    EMBED_DESCRIPTION,
)
from bot.db.models import GameResult
from bot.lang.i18n import Domain, speaking
from bot.lang.text import add_words
from bot.scores import (
    SeasonChoice,
    record_of,
    system_key,
    system_title,
)
from bot.scores.image import leaderboard_png
from bot.scores.layout import (
    clip,
    fit_lines,
    history_line,
    leaderboard_pages,
    needs_image,
    score_line,
)
from bot.web.members import MemberNames
from cogs.scores.buttons import (
    BOARD_COLOUR,
    BoardButton,
    ResultButton,
    board_title,
    board_view,
    page_embed,
    status_word,
    system_option,
)
from cogs.scores.player import player_embed
from cogs.scores.privacy import Privacy
from cogs.scores.text import ENGLISH
from rules.errors import RuleError
from rules.scores import ResultStatus, Standing, history, player_summary, standings, to_csv_bytes

_ = Domain("muster")
HISTORY_LIMIT = 15
NOTE_KEPT = 300  # of a confirmation's note or a void's reason: a sentence or two, not a report

add_words(ENGLISH)


# ---------------------------------------------------------------------- the cog


@app_commands.guild_only()
class Scores(
    Privacy, commands.GroupCog, group_name="scores", group_description="Results, ratings and leagues"
):
    """Manage Server is checked by the bot itself: Discord's default permissions apply only to a whole
    top-level command, and anyone may record, read and export."""

    season = app_commands.Group(name="season", description="Start or end a league season (Manage Server)")

    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot
        self.service = bot.scores
        self.members = MemberNames(bot.store)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.sessions.result_hooks.append(self.service.record_session_result)
        self.bot.sessions.renderer.ended_rendered.append(self.service.game_rendered)
        self.bot.add_dynamic_items(ResultButton, BoardButton)
        self.service.start()

    async def cog_unload(self) -> None:
        if self.service.record_session_result in self.bot.sessions.result_hooks:
            self.bot.sessions.result_hooks.remove(self.service.record_session_result)
        if self.service.game_rendered in self.bot.sessions.renderer.ended_rendered:
            self.bot.sessions.renderer.ended_rendered.remove(self.service.game_rendered)
        self.bot.remove_dynamic_items(ResultButton, BoardButton)
        await self.service.stop()
        await self.members.settle()

    # ------------------------------------------------------------------ helpers

    async def table(self, guild_id: int, system: str | None, choice: SeasonChoice) -> list[Standing]:
        book, records = await self.service.results.book(guild_id)
        return standings(records, book.ledger(system), system=system, season_id=choice.season_id)

    async def board_png(
        self,
        interaction: discord.Interaction[Any],
        table: list[Standing],
        system: str | None,
        choice: SeasonChoice,
    ) -> discord.File:
        guild_id = guild_id_of(interaction)
        names = await self.service.names.names(interaction.guild, guild_id, [s.player for s in table])
        png = leaderboard_png(table, names, title=f"{board_title(system)} · {choice.label}")
        return discord.File(io.BytesIO(png), filename="leaderboard.png")

    def remember(self, interaction: discord.Interaction[Any], *users: discord.abc.User | None) -> None:
        for user in (interaction.user, *users):
            self.service.names.remember(interaction.guild_id, user)

    # ------------------------------------------------------------------ autocomplete

    async def system_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        wanted = current.strip().lower()
        found = [
            app_commands.Choice(name=system_title(key), value=key)
            for key in await self.service.systems(interaction.guild_id)
            if wanted in key or wanted in system_title(key).lower()
        ]
        return found[:AUTOCOMPLETE_CHOICES]

    async def season_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        if interaction.guild_id is None:
            return []
        wanted = current.strip().lower()
        names = [
            clip(s.name, COMMAND_CHOICE_NAME)
            for s in await self.service.seasons.in_server(interaction.guild_id)
        ]
        return [app_commands.Choice(name=n, value=n) for n in [*names, "all"] if wanted in n.lower()][
            :AUTOCOMPLETE_CHOICES
        ]

    async def result_choices(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[int]]:
        if interaction.guild_id is None:
            return []
        async with self.bot.store.read() as db:
            rows = list(
                await db.scalars(
                    select(GameResult)
                    .where(
                        GameResult.guild_id == interaction.guild_id,
                        GameResult.status != ResultStatus.VOID.value,
                    )
                    .order_by((GameResult.status == ResultStatus.DISPUTED.value).desc(), GameResult.id.desc())
                    .limit(100)
                )
            )
        choices = []
        for row in rows:
            status = status_word(row.status)
            label = (
                f"#{row.id} {system_title(row.system)} {row.score_a}–{row.score_b} ({status}, "
                f"{row.played_at:%Y-%m-%d})"
            )
            if current.strip().lstrip("#") in label:
                choices.append(app_commands.Choice(name=clip(label, COMMAND_CHOICE_NAME), value=row.id))
        return choices[:AUTOCOMPLETE_CHOICES]

    # ------------------------------------------------------------------ recording

    @app_commands.command(name="record", description="Record a game played without a session")
    @app_commands.describe(
        opponent="Who you played",
        system="The game system (e.g. Warcry, Kill Team)",
        my_score="Your score (VP, kill points...)",
        their_score="Your opponent's score",
        mission="The mission or battleplan",
        my_faction="Your faction or warband",
        their_faction="Your opponent's faction or warband",
    )
    async def record(
        self,
        interaction: discord.Interaction[MusterBot],
        opponent: discord.User,
        system: str,
        my_score: int,
        their_score: int,
        mission: str | None = None,
        my_faction: str | None = None,
        their_faction: str | None = None,
    ) -> None:
        guild_id, channel_id = guild_id_of(interaction), channel_id_of(interaction)
        self.remember(interaction, opponent)
        recorded = await self.service.record_manual(
            guild_id=guild_id,
            channel_id=channel_id,
            reporter=interaction.user.id,
            opponent=opponent.id,
            opponent_is_bot=opponent.bot,
            system=system,
            my_score=my_score,
            their_score=their_score,
            mission=mission,
            my_faction=my_faction,
            their_faction=their_faction,
            guild_name=interaction.guild.name if interaction.guild else "a server",
        )
        hours = self.bot.settings.auto_confirm_hours
        try:  # answer first: the prompt and the DM are already stored, and go out just after
            await interaction.response.send_message(
                _(
                    "Result #{id} recorded; it is pending until {opponent} confirms it. I'm asking them in "
                    "{channel} and by DM; it counts once they confirm (or by itself after {hours} hours).",
                    id=recorded.row.id,
                    opponent=f"<@{opponent.id}>",
                    channel=f"<#{recorded.asked_in}>",
                    hours=f"{hours:g}",
                ),
                ephemeral=True,
            )
        finally:
            self.bot.delivery.kick()

    @record.autocomplete("system")
    async def _record_system(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        choices = await self.system_choices(interaction, current)
        typed = system_key(current)
        if typed and all(c.value != typed for c in choices):
            choices.insert(
                0, app_commands.Choice(name=clip(current.strip(), COMMAND_CHOICE_NAME) or typed, value=typed)
            )
        return choices[:AUTOCOMPLETE_CHOICES]

    # ------------------------------------------------------------------ rulings

    @app_commands.command(name="resolve", description="Settle a disputed result (Manage Server)")
    @app_commands.describe(
        result="The result's number (#)",
        decision="Count it, or throw it out",
        score_a="Corrected score of the first player named in the result",
        score_b="Corrected score of the second player named in the result",
        note="A short reason, kept with the result",
    )
    @app_commands.choices(
        decision=[
            app_commands.Choice(name="Confirm (it counts)", value="confirm"),
            app_commands.Choice(name="Void (it never counts)", value="void"),
        ]
    )
    async def resolve(
        self,
        interaction: discord.Interaction[MusterBot],
        result: int,
        decision: str,
        score_a: int | None = None,
        score_b: int | None = None,
        note: str | None = None,
    ) -> None:
        guild_id = guild_id_of(interaction)
        require_manage(interaction)
        if decision not in ("confirm", "void"):
            raise RuleError(code="scores.decision")
        row, corrected = await self.service.resolve(
            guild_id=guild_id,
            result_id=result,
            by=interaction.user.id,
            confirm=decision == "confirm",
            score_a=score_a,
            score_b=score_b,
            note=clip(note, NOTE_KEPT) if note else None,
        )
        if decision == "void":
            text = _(
                "Result #{id} is void: it no longer counts, and ratings are replayed without it.", id=row.id
            )
        elif corrected:
            text = _(
                "Result #{id} corrected to {score} and confirmed.",
                id=row.id,
                score=score_line(record_of(row)),
            )
        else:
            text = _("Result #{id} confirmed: it counts now.", id=row.id)
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(
        name="void", description="Void a result (Manage Server, or withdraw your own pending one)"
    )
    @app_commands.describe(result="The result's number (#)", reason="A short reason, kept with the result")
    async def void(
        self, interaction: discord.Interaction[MusterBot], result: int, reason: str | None = None
    ) -> None:
        guild_id = guild_id_of(interaction)
        row = await self.service.void(
            guild_id=guild_id,
            result_id=result,
            by=interaction.user.id,
            may_manage=can_manage(interaction),
            reason=clip(reason, NOTE_KEPT) if reason else None,
        )
        await interaction.response.send_message(
            _("Result #{id} is void: it no longer counts, and ratings are replayed without it.", id=row.id),
            ephemeral=True,
        )

    resolve.autocomplete("result")(result_choices)
    void.autocomplete("result")(result_choices)

    # ------------------------------------------------------------------ reading

    @app_commands.command(name="leaderboard", description="The league table: this season unless you pick one")
    @app_commands.describe(
        system="Only this game system (all systems if left out)",
        season="A season's name, or `all` for all time (default: the running season)",
        image="Send the table as a picture",
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction[MusterBot],
        system: str | None = None,
        season: str | None = None,
        image: bool = False,
    ) -> None:
        guild_id = guild_id_of(interaction)
        key = system_option(system)
        choice = await self.service.seasons.choose(guild_id, season)
        table = await self.table(guild_id, key, choice)
        with speaking(await self.bot.languages.of_server(guild_id)):  # everyone sees the table
            pages = leaderboard_pages(table, title=board_title(key), subtitle=choice.label)
            if image or needs_image(pages):
                await interaction.response.defer(thinking=True)
                await interaction.followup.send(file=await self.board_png(interaction, table, key, choice))
                return
            view = board_view(0, len(pages), choice.token, key or "")
        if view is None:
            await interaction.response.send_message(embed=page_embed(pages[0]))
        else:
            await interaction.response.send_message(embed=page_embed(pages[0]), view=view)

    @app_commands.command(name="history", description="The latest confirmed games, newest first")
    @app_commands.describe(
        user="Only games of this player", vs="Only games against this player", system="Only this game system"
    )
    async def history(
        self,
        interaction: discord.Interaction[MusterBot],
        user: discord.User | None = None,
        vs: discord.User | None = None,
        system: str | None = None,
    ) -> None:
        guild_id = guild_id_of(interaction)
        self.remember(interaction, user, vs)
        key = system_option(system)
        records = await self.service.results.confirmed(guild_id)
        games = history(records, user=user.id if user else None, vs=vs.id if vs else None, system=key)
        with speaking(await self.bot.languages.of_server(guild_id)):  # everyone sees it
            filters = [
                f
                for f in (
                    f"<@{user.id}>" if user else "",
                    _("vs {player}", player=f"<@{vs.id}>") if vs else "",
                    system_title(key) if key else "",
                )
                if f
            ]
            embed = discord.Embed(title=_.p("title", "Game history"), colour=BOARD_COLOUR)
            lines = [f"#{r.id} {history_line(r, system_title(r.system))}" for r in games[:HISTORY_LIMIT]]
            head = (" ".join(filters) + "\n") if filters else ""
            room = EMBED_DESCRIPTION - len(head)
            shown = (
                fit_lines(lines, room, more=_("…and {n} more")) if lines else _("No confirmed games match.")
            )
            embed.description = clip(head + shown, EMBED_DESCRIPTION)
            if len(games) > HISTORY_LIMIT:
                embed.set_footer(
                    text=_("The last {shown} of {count} games", shown=HISTORY_LIMIT, count=len(games))
                )
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="player", description="A player's record, ratings, factions and rivals")
    @app_commands.describe(user="The player (you, if left out)", system="Only this game system")
    async def player(
        self,
        interaction: discord.Interaction[MusterBot],
        user: discord.User | None = None,
        system: str | None = None,
    ) -> None:
        guild_id = guild_id_of(interaction)
        with speaking(await self.bot.languages.of_server(guild_id)):  # everyone sees it
            await self._player(interaction, guild_id, user or interaction.user, system)

    async def _player(
        self,
        interaction: discord.Interaction[MusterBot],
        guild_id: int,
        who: discord.abc.User,
        system: str | None,
    ) -> None:
        self.remember(interaction, who)
        key = system_option(system)
        book, records = await self.service.results.book(guild_id)
        systems = book.systems()
        summary = player_summary(
            records,
            who.id,
            overall=book.ledger(None),
            by_system={s: book.ledger(s) for s in systems},
            system=key,
        )
        await interaction.response.send_message(embed=player_embed(who, summary))

    @app_commands.command(name="export", description="This server's results as a CSV file")
    @app_commands.describe(season="Only this season (all results if left out)")
    async def export(self, interaction: discord.Interaction[MusterBot], season: str | None = None) -> None:
        guild_id = guild_id_of(interaction)
        choice = await self.service.seasons.choose(guild_id, season) if season else SeasonChoice(None)
        await interaction.response.defer(ephemeral=True, thinking=True)
        records = await self.service.results.records(
            guild_id, confirmed_only=False, season_id=choice.season_id
        )
        names = await self.service.names.names(
            interaction.guild, guild_id, [p for r in records for p in (r.player_a, r.player_b)]
        )
        data = to_csv_bytes(records, names)
        slug = re.sub(r"[^A-Za-z0-9]+", "-", choice.season.name).strip("-") if choice.season else "all"
        await interaction.followup.send(
            _.n(
                "{count} result ({which}).",
                "{count} results ({which}).",
                len(records),
                which=choice.label.lower(),
            ),
            file=discord.File(io.BytesIO(data), filename=f"results-{slug or 'season'}.csv"),
            ephemeral=True,
        )

    leaderboard.autocomplete("system")(system_choices)
    history.autocomplete("system")(system_choices)
    player.autocomplete("system")(system_choices)
    leaderboard.autocomplete("season")(season_choices)
    export.autocomplete("season")(season_choices)

    # ------------------------------------------------------------------ seasons

    @season.command(name="start", description="Start a season: new results count towards it")
    @app_commands.describe(name="The season's name, e.g. Spring 2025")
    async def season_start(self, interaction: discord.Interaction[MusterBot], name: str) -> None:
        guild_id = guild_id_of(interaction)
        require_manage(interaction)
        started = await self.service.seasons.start(guild_id, name)
        with speaking(await self.bot.languages.of_server(guild_id)):  # everyone sees it
            text = _(
                "Season {season} has started: results recorded from now on count towards it.",
                season=f"**{started.name}**",
            )
        await interaction.response.send_message(text)

    @season.command(name="end", description="End the running season")
    async def season_end(self, interaction: discord.Interaction[MusterBot]) -> None:
        guild_id = guild_id_of(interaction)
        require_manage(interaction)
        ended = await self.service.seasons.end(guild_id)
        with speaking(await self.bot.languages.of_server(guild_id)):  # everyone sees it
            text = _(
                "Season {season} has ended. Its table stays available: {command}.",
                season=f"**{ended.name}**",
                command=f"`/scores leaderboard season:{ended.name}`",
            )
        await interaction.response.send_message(text)


__all__ = ["Scores"]
