"""/scores: record, confirm, rate, rank and export results (a thin adapter over bot/scores/).

Every command answers first; what it posts besides goes through the outbox. Buttons survive
restarts: their custom_id carries all they need.
- `score:<result>:confirm|dispute`                        the opponent's answer to a recorded game
- `board:<kind>:<page>:<season id|all>:<system or empty>`  leaderboard paging (p/n/x) and image (i)
"""

from __future__ import annotations

import contextlib
import io
import re
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands
from sqlalchemy import select

from bot.app import MusterBot
from bot.chat import errors, render
from bot.chat.checks import can_manage, channel_id_of, guild_id_of, require_manage
from bot.chat.limits import (
    AUTOCOMPLETE_CHOICES,
    COMMAND_CHOICE_NAME,
    EMBED_DESCRIPTION,
    EMBED_TITLE,
    FIELD_VALUE,
)
from bot.db.models import GameResult
from bot.lang.i18n import Domain, speaking
from bot.lang.text import add_words
from bot.scores import (
    RESULT_BUTTON,
    ScoreService,
    SeasonChoice,
    prompt_embed,
    record_of,
    system_key,
    system_title,
)
from bot.scores.image import leaderboard_png
from bot.scores.layout import (
    EmbedPage,
    clip,
    fit_lines,
    history_line,
    leaderboard_pages,
    needs_image,
    score_line,
    signed,
)
from cogs.scores_text import ENGLISH
from rules.errors import RuleError
from rules.scores import ResultStatus, Standing, history, player_summary, standings, to_csv_bytes

_ = Domain("muster")
HISTORY_LIMIT = 15
NOTE_KEPT = 300  # of a confirmation's note or a void's reason: a sentence or two, not a report
FACTION_SHOWN = 60  # of a faction's name in a player's favourites
BOARD_COLOUR = 0x3B5998

add_words(ENGLISH)


def service_of(client: discord.Client) -> ScoreService:
    return cast(MusterBot, client).scores


def cog_of(client: discord.Client) -> Scores:
    """This cog, for its own buttons (which Discord hands the client, not the cog)."""
    cog = cast(MusterBot, client).get_cog("Scores")
    if not isinstance(cog, Scores):
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
                embed = prompt_embed(row).model_copy(update={"title": title})
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


# ---------------------------------------------------------------------- the cog


@app_commands.guild_only()
class Scores(commands.GroupCog, group_name="scores", group_description="Results, ratings and leagues"):
    """Manage Server is checked by the bot itself: Discord's default permissions apply only to a whole
    top-level command, and anyone may record, read and export."""

    season = app_commands.Group(name="season", description="Start or end a league season (Manage Server)")

    def __init__(self, bot: MusterBot) -> None:
        self.bot = bot
        self.service = bot.scores
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.sessions.result_hooks.append(self.service.record_session_result)
        self.bot.add_dynamic_items(ResultButton, BoardButton)
        self.service.start()

    async def cog_unload(self) -> None:
        if self.service.record_session_result in self.bot.sessions.result_hooks:
            self.bot.sessions.result_hooks.remove(self.service.record_session_result)
        self.bot.remove_dynamic_items(ResultButton, BoardButton)
        await self.service.stop()

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
        more = _("…and {n} more")
        embed = discord.Embed(
            title=clip(_.p("title", "Player: {name}", name=who.display_name), EMBED_TITLE),
            colour=BOARD_COLOUR,
        )
        if summary.games == 0:
            embed.description = _("{player} has no confirmed games here yet.", player=f"<@{who.id}>")
            await interaction.response.send_message(embed=embed)
            return
        embed.description = (
            f"<@{who.id}>: "
            + _.n("{count} game", "{count} games", summary.games)
            + " · "
            + _(
                "{wins} won, {draws} drawn, {losses} lost",
                wins=summary.wins,
                draws=summary.draws,
                losses=summary.losses,
            )
            + " · "
            + _(
                "points {scored}–{conceded} ({difference})",
                scored=summary.points_for,
                conceded=summary.points_against,
                difference=signed(summary.points_for - summary.points_against),
            )
        )
        ratings = [_("Overall {rating}", rating=f"**{summary.rating.display}**")] + [
            f"{system_title(s)} **{r.display}**" for s, r in summary.system_ratings.items()
        ]
        embed.add_field(
            name=_.p("field", "Ratings"), value=fit_lines(ratings, FIELD_VALUE, more=more), inline=False
        )
        embed.add_field(
            name=_.p("field", "Systems"),
            value=fit_lines([f"{system_title(s)}: {n}" for s, n in summary.systems], FIELD_VALUE, more=more),
            inline=True,
        )
        embed.add_field(
            name=_.p("field", "Favourite factions"),
            value=fit_lines(
                [f"{clip(f, FACTION_SHOWN)}: {n}" for f, n in summary.favourite_factions],
                FIELD_VALUE,
                more=more,
            ),
            inline=True,
        )
        embed.add_field(
            name=_.p("field", "Against each opponent"),
            inline=False,
            value=fit_lines(
                [
                    f"<@{h.opponent}>: "
                    + _.n("{count} game", "{count} games", h.games)
                    + f" · {h.wins}-{h.draws}-{h.losses} · {h.points_for}–{h.points_against}"
                    for h in summary.opponents
                ],
                FIELD_VALUE,
                more=more,
            ),
        )
        if summary.last_played is not None:
            embed.add_field(
                name=_.p("field", "Last game"),
                value=f"<t:{int(summary.last_played.timestamp())}:R>",
                inline=False,
            )
        await interaction.response.send_message(embed=embed)

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


async def setup(bot: MusterBot) -> None:
    await bot.add_cog(Scores(bot))


__all__ = ["BoardButton", "ResultButton", "Scores", "setup"]
