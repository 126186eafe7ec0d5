"""Game sessions: load, step, save with optimistic concurrency, and queue what must be said.

Every change to a session is one transaction: the versioned UPDATE of its state, the audit rows
of the dice thrown, and the render job of the messages it caused (rendered once the player is
answered: bot/play/rendering.py). Two clicks racing on the same version: one wins, the other is
retried on the new state (so the last of two simultaneous seals sees the first and reveals once),
and a restart resumes from exactly what was stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from pydantic import ValidationError
from sqlalchemy import event, update
from sqlalchemy.ext.asyncio import AsyncSession

from bot.chat.delivery import Delivery
from bot.chat.messages import Outgoing, without_pings
from bot.chat.outbox import Shown, enqueue, outbox_rows
from bot.db.models import GameSession, utcnow
from bot.db.step_write import StepWrite, apply_step
from bot.db.store import Store
from bot.lang.i18n import Domain, speaking
from bot.lang.languages import LanguageService
from bot.play.dice import DiceService, RollContext, audit_rows
from bot.play.finding import SessionFinder
from bot.play.games import GameRegistry, SessionInfo
from bot.play.jobs import extras_only, info_of, job_row, status_of, with_extra
from bot.play.rendering import StepRenderer
from bot.play.table import AutoAnswer, answer_the_only_choices
from rules.dice import Roller
from rules.errors import RuleError
from rules.session import Action, Answer, Event, GameOutcome, GameState

log = logging.getLogger(__name__)
_ = Domain("muster")

SESSION_ID = re.compile(r"[0-9a-f]{12}")  # what new_session_id makes
MAX_CONFLICT_RETRIES = 8
CACHE_SIZE = 256
"""Games whose last state this process keeps, the most recently used: a game in memory (its state,
its stored text) costs KBs, tens for a Kill Team game read back, so keeping every open game cost
15-24 MB per 1,000. A game idle long enough to fall out is read at its next click (one read more)."""
TITLE_CHARS = 200  # the game_sessions.title column (bot/db/models.py)

# Given a step while it is being written: work that needs only the step, done meanwhile.
WhileStoring = Callable[["StepResult"], Awaitable[object]]
# Called inside the finishing transaction: store the result, return extra messages to send.
ResultHook = Callable[[AsyncSession, SessionInfo, GameOutcome], Awaitable[list[Outgoing]]]


class SessionNotFound(RuleError):
    def __init__(self) -> None:
        super().__init__(code="session.gone")


class SessionClosed(RuleError):
    def __init__(self, status: str) -> None:
        super().__init__(code="session.cancelled" if status == "cancelled" else "session.finished")


@dataclass
class StepResult:
    """A step stored: the session after it, its events, and what its messages are rendered from."""

    info: SessionInfo
    state: Any
    events: list[Event]
    before: Any = None
    auto: list[AutoAnswer] = field(default_factory=list)


def new_session_id() -> str:
    return secrets.token_hex(6)


class SessionService(SessionFinder):
    def __init__(
        self, store: Store, dice: DiceService, delivery: Delivery, games: GameRegistry, langs: LanguageService
    ) -> None:
        self.store = store
        self.languages = langs  # which language each message of a step speaks
        self.dice = dice
        self.delivery = delivery
        self.games = games
        self.renderer = StepRenderer(store, games, langs, delivery)
        self.result_hooks: list[ResultHook] = []
        # The last state this process stored or read, per session: a cache, never a truth. Before
        # the rules judge an action its version is checked against the store (another process may
        # have stepped the game), and the versioned UPDATE refuses a step on a stale state anyway.
        self._cache: OrderedDict[str, tuple[SessionInfo, Any]] = OrderedDict()
        self._stored: dict[str, tuple[Any, str]] = {}  # each cached state as stored (a job's `before`)

    def _remember(self, info: SessionInfo, state: Any, stored: str) -> None:
        self._cache[info.id] = (info, state)
        self._cache.move_to_end(info.id)
        self._stored[info.id] = (state, stored)
        while len(self._cache) > CACHE_SIZE:
            self._stored.pop(self._cache.popitem(last=False)[0], None)

    def _dumped(self, adapter: Any, session_id: str, state: Any) -> str:
        """A state as stored: as this process stored or read it, else dumped now."""
        known = self._stored.get(session_id)
        return known[1] if known is not None and known[0] is state else str(adapter.procedure.dump(state))

    # ------------------------------------------------------------------ reading

    def cached(self, session_id: str) -> tuple[SessionInfo, Any] | None:
        """This process's last copy of a session, unchecked: only for a step the store then refuses
        if it went stale (the versioned write), never for a decision on its own."""
        return self._cache.get(session_id) if SESSION_ID.fullmatch(session_id) else None

    async def load(
        self, session_id: str, *, fresh: bool = False, checked: bool = True
    ) -> tuple[SessionInfo, Any]:
        """A session's facts and state: from memory (states are immutable) unless `fresh` or, when
        `checked`, unless its stored version moved on (one indexed read). Unchecked: autocomplete."""
        if not SESSION_ID.fullmatch(session_id):  # typed by someone: never a query with it
            raise SessionNotFound()
        if not fresh and (known := self._cache.get(session_id)) is not None:
            if not checked or await self.store.session_version(session_id) == (
                known[0].version,
                known[0].status,
            ):
                return known
        async with self.store.read() as db:
            row = await db.get(GameSession, session_id)
            if row is None:
                raise SessionNotFound()
            adapter = self.games.get(row.system)
            info, state = info_of(row), adapter.procedure.load(row.state)
        self._remember(info, state, row.state)
        return info, state

    async def caller_state(
        self, guild_id: int | None, channel_id: int | None, user_id: int, system: str
    ) -> Any:
        """The state of the caller's one game here, or None: for autocomplete, which never errs."""
        if guild_id is None or channel_id is None:
            return None
        games = await self.open_sessions(guild_id, user_id=user_id, channel_id=channel_id, system=system)
        if len(games) != 1:
            return None
        return (await self.load(games[0].id, checked=False))[1]

    # ------------------------------------------------------------------ writing

    async def open(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        system: str,
        build: Callable[[str, Roller], tuple[GameState, list[Event]]],
        title: str = "",
        card: Outgoing | None = None,
        night_id: str | None = None,
        db: AsyncSession | None = None,
        session_id: str | None = None,
    ) -> StepResult:
        """Create a session (`session_id`: one the caller drew with `new_session_id`, to name it on
        its card): `build(session_id, roller)` makes the first state (pure). `card` is the
        start card posted where the game was started (it may open the game's thread; its pings stand
        for the first questions'); all else the game says goes to its table, after it. Written in
        the caller's transaction `db` (a game night's pairings) or one of its own; cached and
        delivered once that commits."""
        adapter = self.games.get(system)
        session_id = session_id or new_session_id()
        roller = self.dice.roller()
        state, events = build(session_id, roller)
        state, events, auto = answer_the_only_choices(adapter, state, events, roller)
        a, b = state.players
        row = GameSession(
            id=session_id,
            guild_id=guild_id,
            channel_id=channel_id,
            system=system,
            organiser_id=organiser_id,
            player_a=a,
            player_b=b,
            title=title[:TITLE_CHARS],
            state=adapter.procedure.dump(state),
            version=1,
            status="open",
            night_id=night_id,
        )
        info = info_of(row)
        languages = await self.languages.for_players(guild_id, state.players)
        rendered = adapter.render_step(info, None, state, events, auto, languages)
        outgoing = [card, *without_pings(rendered, card.content)] if card is not None else rendered
        async with contextlib.AsyncExitStack() as own:
            tx = db if db is not None else await own.enter_async_context(self.store.write())
            tx.add(row)
            await tx.flush()
            await self.dice.audit_now(tx, roller, RollContext(guild_id, channel_id, organiser_id, session_id))
            await enqueue(tx, info, outgoing)
            if state.finished and state.outcome is not None:
                await enqueue(tx, info, await self._finish(tx, info, state.outcome))
            event.listen(
                tx.sync_session, "after_commit", lambda _db: self._opened(info, state, row), once=True
            )
        return StepResult(info, state, events)

    def _opened(self, info: SessionInfo, state: Any, row: GameSession) -> None:
        self._remember(info, state, row.state)
        self.delivery.kick()

    async def act(
        self,
        session_id: str,
        user_id: int,
        make_action: Callable[[SessionInfo, Any], Action | None],
        deliver: bool = True,
        known: tuple[SessionInfo, Any] | None = None,
        while_storing: WhileStoring | None = None,
    ) -> StepResult | None:
        """Apply the action a player's input makes, retrying on a concurrent change.

        `make_action` sees the freshest state each try; it may raise RuleError (nothing changes) or
        return None (nothing to do: so does this). The step is stored with its render job; with
        `deliver` False the caller renders its messages (`rendered`) once it has answered, else
        they are rendered here. `known`: the session as the caller just loaded and checked it, used
        on the first try (the versioned write still checks). `while_storing` is given each step
        made while it is written (its result stands only if this returns it)."""
        fresh = False
        for _try in range(MAX_CONFLICT_RETRIES):
            if known is not None and not fresh:
                (info, state), known = known, None
            else:
                info, state = await self.load(session_id, fresh=fresh)
            if info.status != "open":
                raise SessionClosed(info.status)
            try:
                action = make_action(info, state)
            except ValidationError as invalid:  # typed input the action's own model refuses
                where = invalid.errors()[0]["loc"] if invalid.errors() else ()
                raise RuleError(code="answer.invalid", field=".".join(map(str, where)) or "answer") from None
            if action is None:
                return None
            result = await self._step(info, state, action, user_id, while_storing)
            if result is None:
                fresh = True  # someone else stepped first: retry on their state
                continue
            if deliver:
                await self.rendered(result)
            return result
        raise RuleError(code="session.busy")

    async def _step(
        self, info: SessionInfo, state: Any, action: Action, user_id: int, while_storing: WhileStoring | None
    ) -> StepResult | None:
        """Step the rules and store the state with its render job (None: the version moved on)."""
        adapter = self.games.get(info.system)
        roller = self.dice.roller()
        new_state, events = adapter.procedure.step(state, action, roller)
        new_state, events, auto = answer_the_only_choices(adapter, new_state, events, roller)
        new_info = replace(info, version=info.version + 1, status=status_of(new_state))
        before = self._dumped(adapter, info.id, state)
        write = StepWrite(
            session_id=info.id,
            expected_version=info.version,
            state=adapter.procedure.dump(new_state),
            version=new_info.version,
            status=new_info.status,
            status_changes=new_info.status != info.status,
            at=utcnow(),
            dice=audit_rows(roller.rolls, RollContext(info.guild_id, info.table_id, user_id, info.id)),
            jobs=[job_row(adapter.procedure, info.id, new_info.version, before, events, auto)],
        )
        result = StepResult(new_info, new_state, events, state, auto)
        self.renderer.reserve(info.id, new_info.version)  # rendered once answered, not by a pass before that
        try:
            if while_storing is not None and self.store.steps_wait:
                stored = await self._write_beside(write, result, while_storing)
            else:
                stored = await self._write(write, result)
                if stored and while_storing is not None:
                    await _beside(while_storing, result)
        except BaseException:
            self.renderer.release(info.id, new_info.version)
            raise
        if not stored:
            self.renderer.release(info.id, new_info.version)
            return None
        self._remember(new_info, new_state, write.state)
        return result

    async def _write_beside(self, write: StepWrite, result: StepResult, work: WhileStoring) -> bool:
        """Store the step while `work` runs. If the click's handler is cancelled meanwhile (the bot
        stopping), the write is not: it finishes on its own, and a step it stored has its messages
        sent by a render pass (kicked then); a write that fails with nobody awaiting it is logged,
        not left for asyncio to report as an exception never retrieved."""
        writing = asyncio.ensure_future(self._write(write, result))
        try:
            await asyncio.sleep(0)  # the write on its way first: the two overlap
            await _beside(work, result)
            return await asyncio.shield(writing)
        except asyncio.CancelledError:
            writing.add_done_callback(partial(self._orphan_written, write.session_id))
            raise

    def _orphan_written(self, session_id: str, writing: asyncio.Future[bool]) -> None:
        """A step's write whose click was cancelled has finished: send what it stored, or log why not."""
        if writing.cancelled():
            return
        error = writing.exception()
        if error is not None:
            log.error("game %s: its click cancelled, a step's write failed", session_id, exc_info=error)
            return
        if writing.result():
            self._cache.pop(session_id, None)  # stored without being remembered here
            self.delivery.kick()

    async def _write(self, write: StepWrite, result: StepResult) -> bool:
        outcome = result.state.outcome if result.state.finished else None
        if outcome is not None:
            return await self._commit_finishing_step(write, result.info, outcome)
        return await self.store.commit_step(write)

    async def rendered(self, step: StepResult, shown: Shown | None = None) -> None:
        """Render a stored step's messages (`shown`: one its answer redrew), kick the delivery."""
        await self.renderer.after_step(step.info, step.before, step.state, step.events, step.auto, shown)

    async def answer(
        self,
        session_id: str,
        answer: Answer,
        deliver: bool = True,
        known: tuple[SessionInfo, Any] | None = None,
        while_storing: WhileStoring | None = None,
    ) -> StepResult | None:
        """Step with a player's answer to a question, checked against what the game asks in the
        freshest state (so an answer to a question already answered is refused, changing nothing)."""

        def action(info: SessionInfo, state: Any) -> Action:
            return self.games.get(info.system).procedure.action_for(state, answer)

        return await self.act(session_id, answer.actor, action, deliver, known, while_storing)

    async def cancel(self, session_id: str, user_id: int, may_manage: bool) -> SessionInfo:
        info, _state = await self.load(session_id, fresh=True)
        if info.status != "open":
            raise SessionClosed(info.status)
        if not (may_manage or user_id == info.organiser_id):
            raise RuleError(code="session.cancel_not_allowed")
        with speaking(await self.languages.of_server(info.guild_id)):
            said = Outgoing(content=_("This game was cancelled by {user}.", user=f"<@{user_id}>"))
        async with self.store.write() as db:
            version = await db.scalar(
                update(GameSession)
                .where(GameSession.id == session_id, GameSession.status == "open")
                .values(status="cancelled", version=GameSession.version + 1, updated_at=utcnow())
                .returning(GameSession.version)
            )
            if version is None:
                raise SessionClosed("finished")  # it ended while we were asking
            # Behind the steps whose messages are still to be rendered (bot/play/rendering.py).
            await db.execute(extras_only(session_id, version, _payloads(info, [said])))
        # The version moved on, so any copy of the old state (here or in another process) is stale.
        self._cache.pop(session_id, None)
        self.delivery.kick()
        return info

    # ------------------------------------------------------------------ internals

    async def _commit_finishing_step(self, write: StepWrite, info: SessionInfo, outcome: GameOutcome) -> bool:
        """The last step of a game also stores its result (through async result hooks); what the
        hooks say is sent after the step's own messages, so it waits in the step's render job."""
        async with self.store.write(step=True) as db:
            if not await db.run_sync(partial(apply_step, write)):
                return False
            said = await self._finish(db, info, outcome)
            if said:
                await db.execute(with_extra(info.id, info.version, _payloads(info, said)))
        return True

    async def _finish(self, db: AsyncSession, info: SessionInfo, outcome: GameOutcome) -> list[Outgoing]:
        """Store the result of a game that just finished; returns the messages the hooks add."""
        said: list[Outgoing] = []
        for hook in self.result_hooks:
            said.extend(await hook(db, info, outcome))
        return said

    async def queue(self, info: SessionInfo | None, outgoing: list[Outgoing]) -> None:
        """Queue messages outside a step (e.g. a reminder, an announcement)."""
        async with self.store.write() as db:
            await enqueue(db, info, outgoing)
        self.delivery.kick()


async def _beside(work: WhileStoring, result: StepResult) -> None:
    """Work beside a step's write: what fails there is only logged, as the step may be stored."""
    try:
        await work(result)
    except Exception:
        log.exception("game %s: the work beside its step's write failed", result.info.id)


def _payloads(info: SessionInfo, outgoing: list[Outgoing]) -> list[str]:
    """Messages as a render job keeps them, already rendered (their outbox rows' payloads)."""
    return [str(row["payload"]) for row in outbox_rows(info, outgoing)]
