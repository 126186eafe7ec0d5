"""Settings for the whole suite."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest


def _bytecode_outside_the_checkout() -> None:
    """Cache compiled modules in a folder of the machine's temporary directory when the environment
    forbids writing them beside the source (PYTHONDONTWRITEBYTECODE, as on the CI machines).

    The suite starts some 150 processes (bots, shards, the web site, the CLI), each importing the
    project and its dependencies: compiling every module from source cost each about 0.35 s of
    CPU, and each test worker as much again. Python's PYTHONPYCACHEPREFIX keeps the compiled files in a
    mirror tree instead, so the checkout stays as clean as the setting meant it to, and a file is
    compiled again whenever its source changes. Set here, before xdist starts its workers, it
    holds for them and for every process a test starts."""
    if not sys.dont_write_bytecode or os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    prefix = str(Path(tempfile.gettempdir()) / f"muster-pycache-{os.getuid()}")
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = prefix
    sys.pycache_prefix = prefix
    sys.dont_write_bytecode = False


_bytecode_outside_the_checkout()


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: one test process more than the cores this process may run on. An end-to-end test
    spends part of its time waiting (on a bot process starting, on the emulator's timers), time a
    core can give another test: on the 2-core machine three processes ran the suite in 338 s where
    two took 400 s. PYTEST_XDIST_AUTO_NUM_WORKERS, when set, still decides (xdist's own hook)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return len(os.sched_getaffinity(0)) + 1
