"""Web tests that take `database_url` run on every engine the suite has (see tests/databases.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.databases import ENGINES, fresh_database


@pytest.fixture(params=ENGINES)
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    async with fresh_database(request.param, tmp_path) as url:
        yield url
