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

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from functools import partial
from typing import Any

from bot.chat.delivery import Delivery
from bot.chat.outbox import Shown, free_lane, outbox_rows, record_shown
from bot.db.models import utcnow
from bot.db.store import Store
from bot.lang.languages import Languages, LanguageService
from bot.play import jobs
from bot.play.games import GameRegistry, SessionInfo
from bot.play.table import AutoAnswer
from rules.session import Event

log = logging.getLogger(__name__)

FRESH_SECONDS = 10.0
"""How long a step stored here is left to the process's own render after its answer."""


class StepRenderer:
    def __init__(
        self, store: Store, games: GameRegistry, languages: LanguageService, delivery: Delivery
    ) -> None:
        self.store = store
        self.games = games
        self.languages = languages
        self.delivery = delivery
        self._fresh_start = True  # the first pass tries every job, backing off or not
        self._passing: set[str] = set()  # sessions a pass of this process is rendering now
        # Steps being stored or answered here: per session, each step's version and since when (two
        # clicks racing on one version both hold it until the loser finds it lost).
        self._fresh: dict[str, list[tuple[int, float]]] = {}
        self._released = asyncio.Event()
        self.ended_rendered: list[Callable[[str], None]] = []
        """Told a game's id once the messages of a step of it that ended the game are queued: what
        waits behind a game's last messages (its result's announcement) goes then, not on a timer."""
        delivery.renders = self

    # ------------------------------------------------------------------ right after a step

    def reserve(self, session_id: str, version: int) -> None:
        """The step making `version` of this session is about to be stored here: its render waits
        for its answer (a pass of this process leaves the session alone until `after_step` or
        `release`)."""
        self._fresh.setdefault(session_id, []).append((version, time.monotonic()))

    def release(self, session_id: str, version: int) -> None:
        steps = self._fresh.get(session_id, [])
        held = next((i for i, (v, _since) in enumerate(steps) if v == version), None)
        if held is not None:
            del steps[held]
        if not steps:
            self._fresh.pop(session_id, None)
        self._released.set()

    def _reserved(self, session_id: str, before: int | None = None) -> bool:
        """True while a step of the session (with `before`, an earlier step than that version) is
        being stored or answered here; not for ever: a caller that never rendered its step leaves it
        to the passes after `FRESH_SECONDS`."""
        now = time.monotonic()
        return any(
            now - since < FRESH_SECONDS
            for version, since in self._fresh.get(session_id, [])
            if before is None or version < before
        )

    async def quiet(self) -> None:
        """Wait until every step stored here has been rendered or left to a pass (tests, shutdown)."""
        while True:
            now = time.monotonic()
            live = [
                since for steps in self._fresh.values() for _v, since in steps if now - since < FRESH_SECONDS
            ]
            if not live:
                return
            self._released.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(FRESH_SECONDS - (now - min(live))):
                    await self._released.wait()

    async def after_step(
        self,
        info: SessionInfo,
        before: Any,
        after: Any,
        events: list[Event],
        auto: list[AutoAnswer],
        shown: Shown | None = None,
    ) -> None:
        """Render the step that made `info.version` from memory, store its messages, kick the
        delivery. `shown`: a kept message its answer already redrew (bot/play/in_place.py). Never
        raises: whatever is not rendered here, a delivery pass renders.

        A step whose game is being rendered by a pass, or whose earlier step is still being answered
        here (two clicks a moment apart), is left to the pass that follows: rendered now, it could
        not be stored ahead of the earlier one, and the pass would render it a second time."""
        if info.id in self._passing or self._reserved(info.id, before=info.version):
            if shown is not None:
                with contextlib.suppress(Exception):
                    await self.store.run_write(partial(record_shown, shown))
            self.release(info.id, info.version)
            self.delivery.kick()
            return
        try:
            languages = await self.languages_of(info)
            try:
                adapter = self.games.get(info.system)
                rows = outbox_rows(info, adapter.render_step(info, before, after, events, auto, languages))
            except Exception as exc:
                await self._failed(info.id, info.version, exc)
                return
            settled = await self.store.run_write(
                partial(jobs.settle_fresh, info.id, info.version, rows, self.delivery.owner, shown=shown)
            )
            if settled and info.status != "open":  # else a pass settles it, and tells then
                self._tell_ended(info.id)
        except jobs.AlreadyRendered:
            pass  # another process rendered it first
        except Exception:
            log.exception("storing the messages of game %s failed; the delivery renders them", info.id)
        finally:
            self.release(info.id, info.version)
            self.delivery.kick()

    async def languages_of(self, info: SessionInfo) -> Languages:
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
        if self._reserved(session_id) or session_id in self._passing:
            return 0  # a step of it is being answered here: rendered after that, which kicks a pass
        self._passing.add(session_id)
        try:
            return await self._render_claimed(session_id, everything)
        finally:
            self._passing.discard(session_id)

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
                if self._reserved(session_id):  # a step stored here while this pass claimed: its
                    break  # answer renders it (`after_step`), not this pass a second time
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
        if rendered and claimed.session is not None and claimed.session.status != "open":
            self._tell_ended(session_id)
        return rendered

    def _tell_ended(self, session_id: str) -> None:
        for listener in self.ended_rendered:
            try:
                listener(session_id)
            except Exception:
                log.exception("a listener to game %s's last render failed", session_id)

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
        languages = await self.languages_of(info)
        events, auto = procedure.load_events(job.events), jobs.load_auto(job.auto)
        return [*outbox_rows(info, adapter.render_step(info, before, after, events, auto, languages)), *extra]
