"""A sealed bid's own work, each piece timed once right after the CPU's caches were emptied: what
bench/seal_warm.py's pieces cost when everything they touch must come from memory again.

A paced seal (bench/killteam_sealed.py) costs several times its pieces measured warm; the stretches
of bench/seal_timeline.py show it, but a whole paced run takes minutes and moves by a tenth of a
millisecond from one run to the next. Here, before each piece runs, the bench writes a buffer several
times the size of the CPU's last cache, so the piece finds none of its code or data cached, as a
click after a pause nearly does. Each figure is the p50 of ROUNDS such runs, steady to a few
microseconds, so a change to one piece can be judged in seconds. "nothing" is an empty call: what
the timing itself costs just after the buffer is written.

Set beside bench/seal_timeline.py's stretches, it shows how close a paced seal comes to this worst
case, and so how much of the seal's extra time over a pong is the work itself, fetched again.

Usage: python bench/seal_emptied.py [ROUNDS] [BUFFER_MB]   (prints figures; asserts nothing)
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.seal_warm import another_write, first_seal, pure_pieces, step_write, store

Piece = tuple[Callable[[], Any], Callable[[], Any] | None]  # the work, and what comes before it


def emptied_p50(pieces: dict[str, Piece], rounds: int, buffer_mb: int) -> dict[str, float]:
    """Each piece's p50 in µs over `rounds` runs, each run right after the buffer was written (and,
    before that, the piece's untimed preparation)."""
    buffer, source = bytearray(buffer_mb << 20), bytes(buffer_mb << 20)
    times: dict[str, list[int]] = {name: [] for name in pieces}
    for _round in range(rounds):
        for name, (work, before) in pieces.items():
            if before is not None:
                before()
            buffer[:] = source  # every cache line of the buffer written: the caches hold only it
            started = time.perf_counter_ns()
            work()
            times[name].append(time.perf_counter_ns() - started)
    return {name: statistics.median(spent) / 1000 for name, spent in times.items()}


def main(rounds: int, buffer_mb: int) -> None:
    first = first_seal()
    pieces: dict[str, Piece] = {"nothing": (lambda: None, None)}
    pieces |= {name: (work, None) for name, work in pure_pieces(first).items()}
    with tempfile.TemporaryDirectory() as folder:
        writer, other = store(folder)
        write = step_write(writer, first)
        pieces["SQLite's apply, after another's write"] = (write, partial(another_write, other))
        figures = emptied_p50(pieces, rounds, buffer_mb)
        writer.close()
        other.close()
    print(f"A Kill Team bid sealed, each piece just after {buffer_mb} MB were written (the caches emptied),")
    print(f"p50 of {rounds} runs, in µs:")
    for name, figure in figures.items():
        print(f"  {name:<46} {figure:8.1f}")


if __name__ == "__main__":
    main(
        int(sys.argv[1]) if len(sys.argv) > 1 else 60,
        int(sys.argv[2]) if len(sys.argv) > 2 else 96,
    )
