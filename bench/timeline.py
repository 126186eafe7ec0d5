"""Marks on the bot's path from an interaction's gateway frame to its answer, for
`bench/seal_timeline.py`.

`install()` wraps a few functions of discord.py and of the bot (in the bench's bot process only) so
that each notes the moment it starts, or starts and returns, on `time.perf_counter`: on Linux
that is CLOCK_MONOTONIC, one clock for every process on the machine, so the marks line up with the
emulator's own times for the same interaction (when it sent the frame, when the answer arrived).
"""

from __future__ import annotations

import functools
import inspect
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

MARKS: list[tuple[str, float]] = []


def _marked(function: Callable[..., Any], name: str, *, returns: bool) -> Callable[..., Any]:
    """`function` noting when it starts (as `name`) and, with `returns`, when it returns."""
    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def waited(*args: Any, **kwargs: Any) -> Any:
            MARKS.append((name, time.perf_counter()))
            try:
                return await function(*args, **kwargs)
            finally:
                if returns:
                    MARKS.append((f"{name} returned", time.perf_counter()))

        return waited

    @functools.wraps(function)
    def called(*args: Any, **kwargs: Any) -> Any:
        MARKS.append((name, time.perf_counter()))
        try:
            return function(*args, **kwargs)
        finally:
            if returns:
                MARKS.append((f"{name} returned", time.perf_counter()))

    return called


def _wrap(owner: Any, attribute: str, name: str, *, returns: bool = False) -> None:
    setattr(owner, attribute, _marked(getattr(owner, attribute), name, returns=returns))


def install() -> None:
    """Mark: the gateway frame read, the interaction parsed (its payload made an `Interaction`), a
    question's handler entered, the step (its rules, the questions answered for the players, the
    state's dump, its render job) and its store (SQLite's own statements; PostgreSQL's statement
    built), the clicked message redrawn (the player's DMs rendered, then made Discord's JSON), and
    the answer handed to discord.py's webhook adapter."""
    import discord.gateway
    import discord.interactions
    import discord.state
    import discord.webhook.async_

    from bot.chat import router
    from bot.db.step_write import PostgresStepStatement, SqliteStepWriter
    from bot.db.store import Store
    from bot.play import in_place, sessions
    from bot.play.sessions import SessionService
    from rules.session import Procedure

    _wrap(discord.gateway.DiscordWebSocket, "received_message", "frame read")
    _wrap(discord.state.ConnectionState, "parse_interaction_create", "parsing", returns=True)
    _wrap(router, "on_question", "question handler")
    _wrap(SessionService, "answer", "step", returns=True)
    _wrap(Procedure, "step", "rules", returns=True)
    _wrap(sessions, "answer_the_only_choices", "only choices", returns=True)
    _wrap(sessions, "job_row", "job row", returns=True)
    _wrap(router, "redraw_clicked", "redraw", returns=True)
    _wrap(Store, "commit_step", "store", returns=True)
    _wrap(discord.interactions.Interaction, "_from_data", "interaction", returns=True)
    _wrap(Procedure, "dump", "dump", returns=True)
    _wrap(SqliteStepWriter, "apply", "SQLite's apply", returns=True)
    _wrap(PostgresStepStatement, "build", "PostgreSQL's statement", returns=True)
    _wrap(in_place, "player_dms", "the player's DMs", returns=True)
    _wrap(in_place, "message_json", "as JSON", returns=True)
    _wrap(discord.webhook.async_.AsyncWebhookAdapter, "create_interaction_response", "answer sent")


def write(path: str) -> None:
    """The marks so far, as JSON, to `path` (whole: written aside, then moved)."""
    Path(path + ".part").write_text(json.dumps(MARKS))
    Path(path + ".part").replace(path)
