"""`muster run` starts the bot; `muster web` serves the league web site; `muster migrate` upgrades
the database and exits; `muster doctor` checks a deployment and says what to fix."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from collections.abc import Coroutine, Sequence
from typing import Any

import discord
from pydantic import ValidationError

from bot import logs
from bot.config import Settings, StoreSettings, WebSettings
from bot.lang.i18n import DOMAINS

EXIT_CONFIG = 2


def run_async(main: Coroutine[Any, Any, int]) -> int:
    """Run `main` on uvloop where it is installed (it is on Linux and macOS): every click waits on
    network round trips, to Discord and to the database, and uvloop's are markedly cheaper than
    asyncio's own loop's. Elsewhere, asyncio's loop."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)


def _config_problem(error: ValidationError) -> str:
    problems = []
    for item in error.errors():
        name = str(item["loc"][0]).upper() if item["loc"] else "configuration"
        if item["type"] == "missing":
            problems.append(f"{name} is not set")
        else:
            problems.append(f"{name}: {item['msg'].removeprefix('Value error, ')}")
    return "muster: " + "; ".join(problems) + " (see README: Configuration)"


async def _run(settings: Settings) -> int:
    from bot.app import MusterBot

    bot = MusterBot(settings, settle_heap=True)
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stopping.set)
    runner = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()))
    stopper = asyncio.create_task(stopping.wait())
    done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
    if stopper in done:
        await bot.close()
        runner.cancel()
        try:
            await runner
        except (asyncio.CancelledError, Exception):
            pass
        return 0
    stopper.cancel()
    try:
        runner.result()
    except discord.LoginFailure:
        print(
            "muster: Discord rejected DISCORD_TOKEN; check the token in the Developer Portal", file=sys.stderr
        )
        await bot.close()
        return EXIT_CONFIG
    finally:
        if not bot.is_closed():
            await bot.close()
    return 0


async def _migrate(settings: StoreSettings) -> int:
    from bot.db.engine import make_engine
    from bot.migrate import upgrade

    engine = make_engine(settings.database_url)
    try:
        await upgrade(engine)
    finally:
        await engine.dispose()
    print("muster: database is up to date")
    return 0


async def _doctor(settings: StoreSettings, max_servers: int) -> int:
    from bot.doctor.checkup import DoctorSettings, diagnose

    assert isinstance(settings, DoctorSettings)
    # The report is the output: discord.py's start-up notices and Alembic's context lines are noise here.
    logging.getLogger("discord").setLevel(logging.ERROR)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    healthy = await diagnose(settings, lambda check: print(check.line(), flush=True), max_servers=max_servers)
    print("muster: all checks passed" if healthy else "muster: some checks failed (✘ above)")
    return 0 if healthy else 1


async def _web(settings: WebSettings) -> int:
    from bot.db.engine import make_engine
    from bot.migrate import upgrade
    from bot.web.app import serve

    engine = make_engine(settings.database_url)
    try:
        await upgrade(engine)  # the site reads the bot's tables: the same schema, whichever starts first
    finally:
        await engine.dispose()
    return await serve(settings)


def _settings(command: str) -> StoreSettings:
    if command == "run":
        return Settings()  # type: ignore[call-arg]
    if command == "web":
        return WebSettings()
    if command == "doctor":
        from bot.doctor.checkup import DoctorSettings

        return DoctorSettings()
    return StoreSettings()


def _i18n(action: str, domains: list[str] | None) -> int:
    """`muster i18n`: extract, update, compile or check the catalogue (no settings needed)."""
    from bot.lang import i18n_tools

    chosen = domains or i18n_tools.in_catalogue()
    unknown = set(chosen) - set(DOMAINS)
    if unknown:
        print(f"unknown domain(s): {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    if action == "check":
        found = i18n_tools.check(chosen)
        print("\n".join(found) or "the catalogue is complete")
        return 1 if found else 0
    work = {"extract": i18n_tools.do_extract, "update": i18n_tools.do_update}
    changed = work.get(action, i18n_tools.do_compile)(chosen)
    print("\n".join(changed) or "nothing changed")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="muster", description="Muster, the wargame night bot for Discord.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="start the bot (needs DISCORD_TOKEN)")
    sub.add_parser("web", help="serve the league web site (MUSTER_WEB_HOST, MUSTER_WEB_PORT)")
    sub.add_parser("migrate", help="upgrade the database to the latest schema")
    doctor = sub.add_parser(
        "doctor", help="check the database, its migrations, the settings and the bot's permissions"
    )
    doctor.add_argument(
        "--servers",
        type=int,
        default=100,
        metavar="N",
        help="check the permissions in at most N servers (0: every server; default 100)",
    )
    words = sub.add_parser("i18n", help="keep the message catalogue (docs/LANGUAGES.md)")
    words.add_argument("action", choices=["extract", "update", "compile", "check"])
    words.add_argument("--domain", action="append", help="only this domain (repeatable; starts a new one)")
    args = parser.parse_args(argv)
    if args.command == "i18n":
        return _i18n(args.action, args.domain)
    try:
        settings = _settings(args.command)
    except ValidationError as error:
        print(_config_problem(error), file=sys.stderr)
        return EXIT_CONFIG
    logs.configure(settings.log_level, settings.log_format)
    if args.command == "run":
        assert isinstance(settings, Settings)
        return run_async(_run(settings))
    if args.command == "doctor":
        return run_async(_doctor(settings, args.servers))
    if args.command == "web":
        assert isinstance(settings, WebSettings)
        return run_async(_web(settings))
    return run_async(_migrate(settings))


if __name__ == "__main__":
    sys.exit(main())
