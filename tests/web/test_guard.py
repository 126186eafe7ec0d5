"""The rate limit's token bucket, on a clock the test turns: a burst, a refill at the rate, each
address alone, and forgotten buckets only once they are full again."""

from __future__ import annotations

from bot.web.guard import BUCKETS_MAX, RateLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_burst_then_the_rate() -> None:
    clock = Clock()
    limiter = RateLimiter(rate=2.0, burst=3, clock=clock)
    assert [limiter.wait("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.wait("a") == 0.5  # one token comes back in half a second
    assert limiter.wait("b") == 0.0  # another address has its own bucket
    clock.now += 0.5
    assert limiter.wait("a") == 0.0
    assert limiter.wait("a") > 0
    clock.now += 10
    assert [limiter.wait("a") for _ in range(3)] == [0.0, 0.0, 0.0]  # refilled to the burst, no more
    assert limiter.wait("a") > 0


def test_no_limit_at_rate_zero() -> None:
    limiter = RateLimiter(rate=0, burst=1)
    assert all(limiter.wait("a") == 0 for _ in range(100))


def test_many_addresses_are_forgotten_full_first_and_memory_stays_bounded() -> None:
    clock = Clock()
    limiter = RateLimiter(rate=1.0, burst=2, clock=clock)
    for number in range(BUCKETS_MAX):  # each spends one token, so each bucket is half empty
        limiter.wait(f"10.0.{number // 256}.{number % 256}")
    clock.now += 0.1
    limiter.wait("busy")
    limiter.wait("busy")  # over the bound: the oldest half goes, the newest stay
    assert len(limiter._buckets) <= BUCKETS_MAX // 2 + 1
    assert limiter.wait("busy") > 0  # the address just seen was kept, still empty
    clock.now += 5
    for number in range(BUCKETS_MAX):
        limiter.wait(f"10.1.{number // 256}.{number % 256}")
    assert len(limiter._buckets) <= BUCKETS_MAX
    assert not any(address.startswith("10.0.") for address in limiter._buckets)  # full again: forgotten
