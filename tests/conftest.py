"""Settings for the whole suite."""

from __future__ import annotations

import os

import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: one test process more than the cores this process may run on. An end-to-end test
    spends part of its time waiting (on a bot process starting, on the emulator's timers), time a
    core can give another test: on the 2-core machine three processes ran the suite in 338 s where
    two took 400 s. PYTEST_XDIST_AUTO_NUM_WORKERS, when set, still decides (xdist's own hook)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return len(os.sched_getaffinity(0)) + 1
