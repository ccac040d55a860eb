"""The sliding window of `RateLimiter`, on a clock the test moves: never more
than ``calls`` admitted in any window of ``per`` seconds, the exact wait until
the next call fits, each (tool, tenant, principal) its own window, a refused
call takes no place, a place given back is free again, a reload's new limit
applies to the calls already counted, and quiet windows are dropped."""

from __future__ import annotations

import pytest

from mcp_harbor.config.model import RateLimitSpec
from mcp_harbor.runctx.ratelimit import Admission, RateLimiter, retry_after


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_sliding_window_admits_at_most_calls_per_window() -> None:
    clock, limit = Clock(), RateLimitSpec(calls=2, per=10)
    rates = RateLimiter(clock)
    assert isinstance(rates.admit(limit, "t", "acme", "alice"), Admission)
    clock.now += 4
    assert isinstance(rates.admit(limit, "t", "acme", "alice"), Admission)
    clock.now += 1
    assert rates.admit(limit, "t", "acme", "alice") == pytest.approx(5)  # the first leaves at 10
    assert rates.admit(limit, "t", "acme", "alice") == pytest.approx(5)  # refused: no place taken
    clock.now += 5
    assert isinstance(rates.admit(limit, "t", "acme", "alice"), Admission)
    assert rates.admit(limit, "t", "acme", "alice") == pytest.approx(4)  # now the second


def test_each_tool_tenant_and_principal_has_its_own_window() -> None:
    limit = RateLimitSpec(calls=1, per=10)
    rates = RateLimiter(Clock())
    assert isinstance(rates.admit(limit, "t", "acme", "alice"), Admission)
    assert isinstance(rates.admit(limit, "t", "acme", "bob"), Admission)
    assert isinstance(rates.admit(limit, "t", "other", "alice"), Admission)
    assert isinstance(rates.admit(limit, "u", "acme", "alice"), Admission)
    assert isinstance(rates.admit(limit, "t", "acme", "alice"), float)


def test_a_place_given_back_is_free_again() -> None:
    limit = RateLimitSpec(calls=1, per=10)
    rates = RateLimiter(Clock())
    admission = rates.admit(limit, "t", "acme", "alice")
    assert isinstance(admission, Admission)
    rates.give_back(admission)
    rates.give_back(admission)  # twice: a no-op
    assert isinstance(rates.admit(limit, "t", "acme", "alice"), Admission)


def test_a_lowered_limit_counts_the_calls_already_made() -> None:
    clock = Clock()
    rates = RateLimiter(clock)
    for _ in range(3):
        assert isinstance(rates.admit(RateLimitSpec(calls=3, per=10), "t", "a", "p"), Admission)
        clock.now += 1
    # Three calls at 0, 1, 2 s; now 3 s; one allowed: room when the third leaves, at 12 s.
    assert rates.admit(RateLimitSpec(calls=1, per=10), "t", "a", "p") == pytest.approx(9)


def test_quiet_windows_are_dropped() -> None:
    clock, limit = Clock(), RateLimitSpec(calls=1, per=1)
    rates = RateLimiter(clock)
    for i in range(1024):
        rates.admit(limit, "t", "acme", f"p{i}")
    clock.now += 2
    for i in range(1024):
        rates.admit(limit, "t", "acme", f"q{i}")
    assert len(rates._windows) <= 1024


def test_retry_after_rounds_up_to_a_whole_second() -> None:
    assert [retry_after(s) for s in (0.001, 0.5, 1.0, 1.01, 59.99)] == [1, 1, 1, 2, 60]


def test_rate_limited_is_in_the_one_vocabulary() -> None:
    from mcp_harbor.cli._app import exit_code_of
    from mcp_harbor.runctx import ENVELOPE_SCHEMA
    from mcp_harbor.status import CALL_STATUSES, NOTHING_RAN, finish_reason_of

    assert "rate_limited" in CALL_STATUSES and "rate_limited" in NOTHING_RAN
    assert finish_reason_of("rate_limited") == "refused"
    assert "rate_limited" in ENVELOPE_SCHEMA["properties"]["status"]["enum"]
    assert exit_code_of("rate_limited") == 1
