"""What the players see of a game at the table, counted: posts in the parent channel and in the game's
thread, edits, pings per player, and question components left on messages once the game is over.

A ping is a mention in a message's content when it is posted (Discord notifies on a post's content
mentions, not on embeds, and not on edits). Interaction answers (ephemeral or not) are the players'
own doing and not counted as the bot's posts.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tests.emulator import Emulator
from tests.emulator.emulator import RecordedRequest
from tests.emulator.model import Channel, Message, User

QUESTION_IDS = re.compile(r"(q|qf|qs|qm|qp):")
ACTIONS = ("slash", "click", "select", "submit_modal")  # what a player does, in the emulator's words
MESSAGE_PATH = re.compile(r"/channels/(\d+)/messages/(\d+)")


@dataclass
class TableCounts:
    parent_posts: int
    thread_posts: int
    edits: int
    pings: dict[int, int] = field(default_factory=dict)
    live_questions: list[str] = field(default_factory=list)  # custom_ids still clickable
    repeated_edits: int = 0  # edits that showed what the message already showed

    def line(self) -> str:
        pings = ", ".join(f"{n}" for n in self.pings.values())
        return (
            f"parent {self.parent_posts} posts, thread {self.thread_posts} posts, {self.edits} edits, "
            f"pings per player {pings}"
        )


def first_content(message: Message) -> str:
    return message.history[0].content if message.history else message.content


def repeats(message: Message) -> int:
    """How many of a message's edits left it showing what it showed before (content, embeds,
    components): calls that changed nothing."""
    versions = [*message.history, message.snapshot()]
    return sum(
        (a.content, a.embeds, a.components) == (b.content, b.embeds, b.components)
        for a, b in itertools.pairwise(versions)
    )


def bot_posts(emu: Emulator, channel: Channel, since: int = 0) -> list[Message]:
    return [
        m
        for m in emu.messages(channel)
        if m.interaction_id is None and m.author.bot and m.id > since and m.type == 0
    ]


def count_table(
    emu: Emulator, parent: Channel, table: Channel, players: list[User], *, since: int = 0
) -> TableCounts:
    """Count what the bot posted for one game since message id `since` (a snowflake before the start)."""
    parent_posts = bot_posts(emu, parent, since)
    thread_posts = bot_posts(emu, table, since) if table.id != parent.id else []
    every = parent_posts + thread_posts
    for user in players:
        every += [m for m in emu.dms(user) if m.id > since and m.interaction_id is None]
    pings = {
        user.id: sum(f"<@{user.id}>" in first_content(m) for m in parent_posts + thread_posts)
        for user in players
    }
    live = [
        str(c.get("custom_id"))
        for m in every
        for c in m.walk_components()
        if QUESTION_IDS.match(str(c.get("custom_id", ""))) and not c.get("disabled")
    ]
    return TableCounts(
        parent_posts=len(parent_posts),
        thread_posts=len(thread_posts),
        edits=sum(len(m.history) for m in every),
        pings=pings,
        live_questions=live,
        repeated_edits=sum(repeats(m) for m in every),
    )


@contextmanager
def before_each_action(emu: Emulator, before: Callable[[], Awaitable[None]]) -> Iterator[None]:
    """Run `before` ahead of each action a player takes (a slash command, a click, a select, a form
    sent) while inside; nests (the outer wrapper is restored on the way out)."""
    saved = {name: emu.__dict__.get(name) for name in ACTIONS}

    def wrapped(name: str) -> Callable[..., Any]:
        real = getattr(emu, name)

        async def act(*args: Any, **kwargs: Any) -> Any:
            await before()
            return await real(*args, **kwargs)

        return act

    for name in ACTIONS:
        setattr(emu, name, wrapped(name))
    try:
        yield
    finally:
        for name, outer in saved.items():
            if outer is None:
                delattr(emu, name)
            else:
                setattr(emu, name, outer)


@contextmanager
def actions_marked(emu: Emulator, marks: list[int]) -> Iterator[None]:
    """Note where each action starts in `emu.requests`: what follows, up to the next, is its doing.
    Nests (an outer mark is kept)."""

    async def mark() -> None:
        marks.append(len(emu.requests))

    with before_each_action(emu, mark):
        yield


CALLBACK_PATH = re.compile(r"/interactions/(\d+)/[^/]+/callback")
UPDATE_MESSAGE = 7


def is_thread_edit(emu: Emulator, request: RecordedRequest) -> bool:
    """An edit of a message in a thread (a game's table): by the outbox, or by the answer to a click
    on it (the message redrawn in place, bot/play/in_place.py)."""
    found = MESSAGE_PATH.fullmatch(request.path)
    channel = emu.channels.get(int(found.group(1))) if found is not None else None
    if request.method == "PATCH":
        return channel is not None and channel.is_thread and not channel.is_dm
    answered = CALLBACK_PATH.fullmatch(request.path)
    if answered is None or not isinstance(request.json, dict) or request.json.get("type") != UPDATE_MESSAGE:
        return False
    record = emu.interactions.get(int(answered.group(1)))
    return record is not None and record.channel.is_thread and not record.channel.is_dm


def thread_edits_per_action(emu: Emulator, marks: list[int]) -> list[int]:
    """How many thread edits each marked action caused (the edits sent up to the next action)."""
    bounds = [*marks, len(emu.requests)]
    return [
        sum(is_thread_edit(emu, r) for r in emu.requests[begin:end])
        for begin, end in itertools.pairwise(bounds)
    ]


def latest_lines(message: Message) -> str:
    """A board's "Latest" lines as it shows them now: what the last step did, and what was answered."""
    return "\n".join(
        str(f.get("value", ""))
        for e in message.embeds
        for f in e.get("fields", [])
        if f.get("name") == "Latest"
    )


def custom_ids_on(message: Message) -> set[str]:
    """The custom_ids of every component a message shows now."""
    return {str(c.get("custom_id")) for c in message.walk_components() if c.get("custom_id")}
