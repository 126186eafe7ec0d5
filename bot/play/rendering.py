"""Renders a step's messages after the player's answer: the click waits only on the step's write.

A step stores its state and its render job (the state before it, its events, the questions answered
for a player) in one write. Once the interaction is answered, the process that took the step
renders the job from what it still holds in memory (`after_step`): the outbox rows inserted and the
job deleted in one transaction (`bot/play/jobs.py`), then the delivery is kicked. Every delivery
pass renders what is still pending from the store (`render_due`): a crash between the answer and
the render, a restart, another process that died, a job that failed. So nothing is lost, and each
job is rendered once and in its session's order, whichever process gets to it.

A job that fails to render (a bug in a game's presentation) is logged with its session and the
exception and tried again after a growing pause (`jobs.backoff`); its session's later jobs wait
behind it, every other game carries on. A process starting up tries every pending job at once, so a
fixed renderer sends what was held back without waiting out the pause.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime
from functools import partial
from typing import Any

from bot.chat.delivery import Delivery
from bot.chat.outbox import free_lane, outbox_rows
from bot.db.models import utcnow
from bot.db.store import Store
from bot.lang.languages import Languages, LanguageService
from bot.play import jobs
from bot.play.games import GameRegistry, SessionInfo
from bot.play.table import AutoAnswer
from rules.session import Event

log = logging.getLogger(__name__)


class StepRenderer:
    def __init__(
        self, store: Store, games: GameRegistry, languages: LanguageService, delivery: Delivery
    ) -> None:
        self.store = store
        self.games = games
        self.languages = languages
        self.delivery = delivery
        self._fresh_start = True  # the first pass tries every job, backing off or not
        self._busy: set[str] = set()  # sessions this process is rendering now (one way at a time)
        delivery.renders = self.render_due

    # ------------------------------------------------------------------ right after a step

    async def after_step(
        self, info: SessionInfo, before: Any, after: Any, events: list[Event], auto: list[AutoAnswer]
    ) -> None:
        """Render the step that made `info.version` from memory, store its messages, kick the
        delivery. Never raises: whatever is not rendered here, a delivery pass renders."""
        if info.id in self._busy:  # a pass is rendering this game now: it renders this step too
            self.delivery.kick()
            return
        self._busy.add(info.id)
        try:
            languages = await self._languages(info)
            try:
                adapter = self.games.get(info.system)
                rows = outbox_rows(info, adapter.render_step(info, before, after, events, auto, languages))
            except Exception as exc:
                await self._failed(info.id, info.version, exc)
                return
            await self.store.run_write(
                partial(jobs.settle_fresh, info.id, info.version, rows, self.delivery.owner)
            )
        except jobs.AlreadyRendered:
            pass  # another process rendered it first
        except Exception:
            log.exception("storing the messages of game %s failed; the delivery renders them", info.id)
        finally:
            self._busy.discard(info.id)
            self.delivery.kick()

    async def _languages(self, info: SessionInfo) -> Languages:
        known = self.languages.remembered(info)
        return known if known is not None else await self.languages.for_session(info)

    async def _failed(self, session_id: str, version: int, error: Exception) -> None:
        """Log a job that failed to render (with its game and the exception) and back it off."""
        wait = await self.store.run_write(partial(jobs.failed, session_id, version, repr(error)))
        log.error(
            "rendering the messages of game %s (version %s) failed%s",
            session_id,
            version,
            "" if wait is None else f"; trying again in {wait:.0f} s",
            exc_info=error,
        )

    # ------------------------------------------------------------------ a delivery pass

    async def render_due(self) -> int:
        """Render every session's pending jobs that are due, in order; returns how many were."""
        everything, self._fresh_start = self._fresh_start, False
        sessions = await self.store.run(partial(jobs.due_sessions, utcnow(), everything))
        rendered = 0
        for session_id in sessions:
            rendered += await self._render_session(session_id, everything)
        return rendered

    def _until(self) -> datetime:
        return utcnow() + self.delivery.lease

    async def _render_session(self, session_id: str, everything: bool) -> int:
        """Lease a session's rendering and render its jobs in order, up to one that fails."""
        if session_id in self._busy:
            return 0  # rendered right after its step here now; that kicks another pass
        self._busy.add(session_id)
        try:
            return await self._render_claimed(session_id, everything)
        finally:
            self._busy.discard(session_id)

    async def _render_claimed(self, session_id: str, everything: bool) -> int:
        owner = self.delivery.owner
        claimed = await self.store.run_write(partial(jobs.claim_jobs, session_id, owner, self._until()))
        if claimed is None:
            return 0  # another process renders this session now
        rendered = 0
        try:
            now = utcnow()
            for index, job in enumerate(claimed.jobs):
                if not (everything or jobs.is_due(job, now)):
                    break
                try:
                    rows = await self._stored_rows(claimed, index)
                except Exception as exc:
                    await self._failed(session_id, job.version, exc)
                    break
                lease = (jobs.render_lane(session_id), owner, self._until())
                await self.store.run_write(partial(jobs.settle, job, rows, lease))
                rendered += 1
        except jobs.AlreadyRendered:
            pass  # a lease that ran out while rendering: another process rendered it first
        finally:
            await self.store.run_write(partial(free_lane, jobs.render_lane(session_id), owner))
        return rendered

    async def _stored_rows(self, claimed: jobs.Claimed, index: int) -> list[dict[str, Any]]:
        """A stored job's outbox rows: its step rendered as it would have been right after it (the
        state after it is the next step's `before`, else the session's own), then its extras."""
        job, row = claimed.jobs[index], claimed.session
        extra = jobs.extra_rows(job)
        if job.before is None:
            return extra
        if row is None:
            raise LookupError(f"game {job.session_id} is not stored")
        adapter = self.games.get(row.system)
        procedure = adapter.procedure
        later = next((j.before for j in claimed.jobs[index + 1 :] if j.before is not None), row.state)
        before, after = procedure.load(job.before), procedure.load(later)
        info = replace(jobs.info_of(row), version=job.version, status=jobs.status_of(after))
        languages = await self._languages(info)
        events, auto = procedure.load_events(job.events), jobs.load_auto(job.auto)
        return [*outbox_rows(info, adapter.render_step(info, before, after, events, auto, languages)), *extra]
