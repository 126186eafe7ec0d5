"""A bot process sets start-up's objects aside from the garbage collector once started
(bot/app.py `settle_heap`): what starting left as garbage is freed first, the rest is never walked
by a collection again."""

from __future__ import annotations

import gc
import weakref

from bot.app import settle_heap


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the garbage collector frees it


def test_start_up_garbage_is_freed_and_what_lives_is_set_aside() -> None:
    kept, dropped = Node(), Node()
    gone = weakref.ref(dropped)
    del dropped
    try:
        frozen = settle_heap()
        assert gone() is None  # collected before the freeze, not set aside for ever
        assert frozen == gc.get_freeze_count() > 0
        assert not any(o is kept for o in gc.get_objects())  # no collection walks it now
        later = Node()
        assert any(o is later for o in gc.get_objects())  # what comes after is collected as ever
    finally:
        gc.unfreeze()  # this test process starts many bots: nothing of theirs is set aside
    assert any(o is kept for o in gc.get_objects())
