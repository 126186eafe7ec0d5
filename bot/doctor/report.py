"""What every doctor check reports: one line each, and the first line of an error it met.

Its own module so that the store checks (`checkup`) and the Discord ones (`on_discord`) both use it
while `checkup` still calls `on_discord`: imports go one way."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.exc import DBAPIError


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool | None  # None: not checked, because something it depends on failed
    detail: str

    def line(self) -> str:
        mark = {True: "✔", False: "✘", None: "–"}[self.ok]
        return f"{mark} {self.name}: {self.detail}"


Report = Callable[[Check], None]


def first_line(error: BaseException) -> str:
    if isinstance(error, DBAPIError) and error.orig is not None:
        error = error.orig  # the driver's own words, without SQLAlchemy's "(module.Error)" prefix
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
