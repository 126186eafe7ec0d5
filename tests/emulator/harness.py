"""Running a bot against the emulator: in this process (a task) or as a child process."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import signal
import sys
import tempfile
import types
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

import discord
import discord.gateway
import discord.http

from .emulator import Emulator

ClientT = TypeVar("ClientT", bound=discord.Client)


@contextlib.contextmanager
def discord_globals_restored() -> Iterator[None]:
    """Undo a bot's changes to discord.py's process-wide URLs (Route.BASE, DEFAULT_GATEWAY)."""
    base = discord.http.Route.BASE
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    try:
        yield
    finally:
        discord.http.Route.BASE = base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gateway


class ErrorRecords(logging.Handler):
    """Collects ERROR log records: discord.py's default handlers only log a failed command."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def describe(self) -> str:
        lines = []
        for record in self.records:
            lines.append(f"{record.name}: {record.getMessage()}")
            if record.exc_info and record.exc_info[1] is not None:
                lines.append(f"  {type(record.exc_info[1]).__name__}: {record.exc_info[1]}")
        return "\n".join(lines)


@contextlib.contextmanager
def capture_errors(*logger_names: str) -> Iterator[ErrorRecords]:
    handler = ErrorRecords()
    loggers = [logging.getLogger(name) for name in (logger_names or ("discord",))]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield handler
    finally:
        for logger in loggers:
            logger.removeHandler(handler)


@contextlib.asynccontextmanager
async def run_bot(bot: ClientT, emu: Emulator, *, ready_timeout: float = 10.0) -> AsyncIterator[ClientT]:
    """Start `bot.start(emu.token)` as a task, wait for its gateway session, close it on exit.

    The bot must already point discord.py at the emulator (Route.BASE = emu.api_base), as a bot
    configured with DISCORD_API_BASE does.
    """
    task = asyncio.create_task(bot.start(emu.token), name="bot-under-test")
    try:
        ready = asyncio.create_task(emu.wait_ready(ready_timeout))
        done, _ = await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            ready.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ready
            task.result()  # re-raises the start-up error
            raise RuntimeError("the bot stopped before connecting to the gateway")
        ready.result()
        yield bot
    finally:
        loaded = _extension_modules()
        closing = asyncio.ensure_future(bot.close())
        done, _ = await asyncio.wait({closing}, timeout=CLOSE_LIMIT)
        if not done:  # fail with what is stuck rather than hang the suite
            raise RuntimeError(f"the bot did not close within {CLOSE_LIMIT:.0f} s:\n{_task_stacks()}")
        closing.result()
        _kept_imported(loaded)
        try:
            await asyncio.wait_for(task, timeout=10)
        except asyncio.CancelledError:
            pass


CLOSE_LIMIT = 30.0
EXTENSIONS = "cogs"


def _extension_modules() -> dict[str, types.ModuleType]:
    """The modules of the bot's extensions (`cogs` and everything below it) as imported now."""
    return {
        name: module
        for name, module in sys.modules.items()
        if name == EXTENSIONS or name.startswith(EXTENSIONS + ".")
    }


def _kept_imported(modules: dict[str, types.ModuleType]) -> None:
    """Put back the extension modules a bot's close took out of `sys.modules`.

    discord.py's unload forgets an extension's modules so that a reload reads them afresh. A test
    process starts some hundreds of bots, one after another, and each compiled and ran every cog's
    modules again (about 0.1 s a bot). The next bot gets the modules already imported, as a
    production process has its own: discord.py runs only each extension's entry module again."""
    for name, module in modules.items():
        sys.modules.setdefault(name, module)


def _task_stacks() -> str:
    out = io.StringIO()
    for pending in asyncio.all_tasks():
        pending.print_stack(limit=12, file=out)
    return out.getvalue()


class BotProcess:
    """A bot running as a child process (e.g. `muster run`), its output kept in a file."""

    def __init__(self, process: asyncio.subprocess.Process, log_path: Path) -> None:
        self.process = process
        self.log_path = log_path
        self._final_output: str | None = None

    @property
    def returncode(self) -> int | None:
        return self.process.returncode

    def output(self) -> str:
        if self._final_output is not None:
            return self._final_output
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    async def stop(self, timeout: float = 10.0) -> int:  # noqa: ASYNC109
        """SIGTERM (a graceful shutdown), then SIGKILL if it does not exit in `timeout` seconds."""
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), timeout)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    self.process.kill()
                await self.process.wait()
        assert self.process.returncode is not None
        if self._final_output is None:
            self._final_output = self.output()
            self.log_path.unlink(missing_ok=True)
        return self.process.returncode


async def start_bot_process(
    argv: Sequence[str],
    emu: Emulator,
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    ready_timeout: float = 30.0,
    shards: Iterable[int] | None = None,
) -> BotProcess:
    """Start `argv` with DISCORD_TOKEN/DISCORD_API_BASE pointing at `emu`; wait for its session.

    With `shards`, the process runs only those (others may run the rest, or be starting too): wait
    for a new session of each of them instead of every shard's."""
    besides = set(emu.gateway.sessions)
    full_env = {**os.environ, **emu.env(), "PYTHONUNBUFFERED": "1", **(env or {})}
    log = tempfile.NamedTemporaryFile(prefix="bot-", suffix=".log", delete=False)
    log_path = Path(log.name)
    process = await asyncio.create_subprocess_exec(
        *argv, env=full_env, cwd=cwd, stdout=log, stderr=asyncio.subprocess.STDOUT
    )
    log.close()
    bot = BotProcess(process, log_path)
    waiter = asyncio.create_task(
        emu.wait_ready(ready_timeout)
        if shards is None
        else emu.wait_shards_ready(shards, ready_timeout, besides=besides)
    )
    exited = asyncio.create_task(process.wait())
    done, _ = await asyncio.wait({waiter, exited}, return_when=asyncio.FIRST_COMPLETED)
    if exited in done:
        waiter.cancel()
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await waiter
        await bot.stop()
        raise RuntimeError(f"bot process exited with {process.returncode} before connecting:\n{bot.output()}")
    exited.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await exited
    try:
        waiter.result()
    except TimeoutError:
        await bot.stop()
        raise RuntimeError(f"bot process did not connect within {ready_timeout} s:\n{bot.output()}") from None
    return bot
