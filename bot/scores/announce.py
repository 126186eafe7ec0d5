"""Announcing confirmed results, and the notices about disputed and voided ones.

Announcing is driven by the `announced` flag: `announce_due` turns every confirmed, unannounced
result into an outbox message and sets the flag in the same transaction, so a crash only delays
it and nothing is posted twice. The outbox then delivers it like every other message (retried,
behind the game's own last posts when it came from a session).

A game's last step records its result as it is stored, but its own messages (the final board, the
reveal) reach the outbox only once the step is rendered, after the player's answer. A result whose
game still has a step to render waits, so its announcement is queued behind them: the render wakes
the sweep once they are queued (`ScoreService.game_rendered`), in whichever process renders them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select, update

from bot.chat.limits import EMBED_FOOTER
from bot.chat.messages import Embed, Outgoing
from bot.chat.outbox import STEP_TO_RENDER, enqueue
from bot.db.models import GameResult, GameSession, Season
from bot.lang.i18n import Domain, speaking
from bot.play.sessions import SessionNotFound
from bot.scores.cache import ResultCache
from bot.scores.layout import clip, format_change, score_line
from bot.scores.prompts import result_lines
from bot.scores.rows import AUTO_CONFIRMED, CONFIRMED_BY, record_of
from bot.scores.systems import system_title
from rules.scores import ResultStatus

if TYPE_CHECKING:
    from bot.app import MusterBot

ANNOUNCE_COLOUR = 0x2E8B57
ANNOUNCE_BATCH = 25
SUMMARY_SHOWN = 1500  # of a game's own summary in its announcement: room left for the result
_ = Domain("muster")


class Announcer:
    def __init__(self, bot: MusterBot, results: ResultCache) -> None:
        self.bot = bot
        self.store = bot.store
        self.results = results

    async def organiser_of(self, row: GameResult) -> int | None:
        """Who should hear about a problem with this result: the session's organiser, or the reporter."""
        if row.session_id is not None:
            async with self.store.read() as db:
                session = await db.get(GameSession, row.session_id)
            if session is not None:
                return session.organiser_id
        return row.reported_by

    # ------------------------------------------------------------------ notices

    async def disputed(self, row: GameResult, by: int) -> None:
        """Tell the people with Manage Server, where results are posted."""
        with speaking(await self.bot.languages.of_server(row.guild_id)):
            await self.notice(
                row,
                "⚠️ "
                + _(
                    "Result #{id} ({game}: {score}) was disputed by {player}. Someone with Manage Server "
                    "can settle it with {command}.",
                    id=row.id,
                    game=system_title(row.system),
                    score=score_line(record_of(row)),
                    player=f"<@{by}>",
                    command=f"`/scores resolve result:{row.id}`",
                ),
            )

    async def voided(self, row: GameResult, by: int) -> None:
        with speaking(await self.bot.languages.of_server(row.guild_id)):
            await self.notice(
                row,
                _(
                    "Result #{id} ({game}: {score}) was voided by {player}: it no longer counts, and "
                    "ratings have been replayed without it.",
                    id=row.id,
                    game=system_title(row.system),
                    score=score_line(record_of(row)),
                    player=f"<@{by}>",
                ),
            )

    async def notice(self, row: GameResult, text: str) -> None:
        """A line where results are posted, through the outbox (so it is retried, and falls back to
        the game's channel when the results channel refuses); said in the server's language."""
        settings = await self.bot.guild_settings.get(row.guild_id)
        target = settings.results_channel_id or row.channel_id
        if target is None:
            return
        fallback = row.channel_id if row.channel_id != target else None
        note = _("(I couldn't post this in the results channel.)") if fallback else None
        await self.bot.sessions.queue(
            None,
            [Outgoing(channel_id=target, content=text, fallback_channel_id=fallback, failure_note=note)],
        )

    # ------------------------------------------------------------------ announcements

    async def announce_due(self) -> int:
        """Queue the announcement of every confirmed result not yet announced; returns how many.

        Each announcement is an outbox row written in the same transaction as the result's
        `announced` flag, so it is sent exactly once (and retried) by the outbox. A result that
        changed since it was read (corrected, voided) is left for the next pass.
        """
        async with self.store.read() as db:
            rows = list(
                await db.scalars(
                    select(GameResult)
                    .where(GameResult.status == ResultStatus.CONFIRMED.value, GameResult.announced.is_(False))
                    .order_by(GameResult.id)
                    .limit(ANNOUNCE_BATCH)
                )
            )
        if not rows:
            return 0
        messages = []
        for row in rows:
            with speaking(await self.bot.languages.of_server(row.guild_id)):
                messages.append((row, await self.announcement(row)))
        handled = 0
        async with self.store.write() as db:
            for row, message in messages:
                behind = {"p_session": row.session_id}
                if row.session_id is not None and await db.scalar(STEP_TO_RENDER, behind) is not None:
                    continue  # its game's last messages are not queued yet: they go first, and wake us
                claimed = await db.execute(
                    update(GameResult)
                    .where(
                        GameResult.id == row.id,
                        GameResult.status == ResultStatus.CONFIRMED.value,
                        GameResult.announced.is_(False),
                        GameResult.score_a == row.score_a,
                        GameResult.score_b == row.score_b,
                    )
                    .values(announced=True)
                )
                if claimed.rowcount != 1:  # type: ignore[attr-defined]
                    continue
                if message is not None:  # behind the game's own last messages, if it had a session
                    await enqueue(db, None, [message], session_id=row.session_id)
                handled += 1
        self.bot.delivery.kick()
        return handled

    async def _summary(self, row: GameResult) -> str:
        """The game's summary in the language in force, from its finished session (else as stored)."""
        if row.session_id is None or row.system not in self.bot.games:
            return row.summary
        try:
            _info, state = await self.bot.sessions.load(row.session_id)
        except SessionNotFound:
            return row.summary
        worded = self.bot.games.get(row.system).outcome_summary(state) if state.finished else ""
        return worded or row.summary

    async def announcement_embed(self, row: GameResult) -> Embed:
        record = record_of(row)
        book, _records = await self.results.book(row.guild_id)
        lines = result_lines(row)
        if summary := await self._summary(row):
            lines.append(clip(summary, SUMMARY_SHOWN))
        embed = Embed(
            title=_.p("title", "{game} result", game=system_title(row.system)),
            description="\n".join(lines),
            colour=ANNOUNCE_COLOUR,
            timestamp=row.played_at,
        )
        own = book.ledger(record.system).change(record.id)
        overall = book.ledger(None).change(record.id)
        if own is not None:
            embed.add(
                _.p("field", "{game} rating", game=system_title(record.system)),
                "\n".join(f"<@{c.player}> {format_change(c)}" for c in own),
            )
        if overall is not None and own is not None and [c.before for c in overall] != [c.before for c in own]:
            embed.add(
                _.p("field", "Overall rating"),
                "\n".join(f"<@{c.player}> {format_change(c)}" for c in overall),
            )
        if row.session_id:
            how = _("from the game session")
        elif row.note == AUTO_CONFIRMED:
            how = _("auto-confirmed after {hours} hours", hours=f"{self.bot.settings.auto_confirm_hours:g}")
        elif row.note and row.note.startswith(CONFIRMED_BY):
            how = _("confirmed by Manage Server")
        else:
            how = _("confirmed by the opponent")
        season = None
        if row.season_id is not None:
            async with self.store.read() as db:
                season = await db.get(Season, row.season_id)
        footer = _("Result #{id}", id=row.id) + f" · {how}" + (f" · {season.name}" if season else "")
        embed.footer = clip(footer, EMBED_FOOTER)
        return embed

    async def announcement(self, row: GameResult) -> Outgoing | None:
        """The result's announcement: in the results channel, else the game's channel (None: neither
        is known). If the results channel refuses it goes to the game's channel, and failing that to
        the organiser by DM, with a note telling the organiser what to fix."""
        settings = await self.bot.guild_settings.get(row.guild_id)
        target = settings.results_channel_id or row.channel_id
        if target is None:
            return None
        organiser = await self.organiser_of(row)
        mention = f"<@{organiser}> " if organiser else ""
        return Outgoing(
            channel_id=target,
            embeds=[await self.announcement_embed(row)],
            fallback_channel_id=row.channel_id if row.channel_id != target else None,
            pings=[organiser] if organiser else [],  # only its failure note mentions anyone
            failure_note=mention
            + _(
                "I couldn't announce result #{id} in {channel}: I'm missing permission to post there "
                "(View Channel, Send Messages and Embed Links). Please fix the permissions or pick "
                "another channel with `/settings results-channel`.",
                id=row.id,
                channel=f"<#{target}>",
            ),
            failure_user_id=organiser,
        )
