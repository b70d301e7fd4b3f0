"""The in-process login limiter (throttle.py): one process's count of failed logins."""

from __future__ import annotations

import pytest

from tranque.server.accounts.throttle import LoginLimiter

pytestmark = pytest.mark.anyio


async def test_an_address_may_fail_per_account_on_a_name_and_per_address_on_all_names() -> None:
    limiter = LoginLimiter(2, 3, lambda: 0.0)
    assert [await limiter.attempt("10.0.0.1", "ana") for _ in range(3)] == [True, True, False]
    assert await limiter.attempt("10.0.0.2", "ana")  # another address counts alone
    assert await limiter.attempt("10.0.0.1", "luis")
    assert not await limiter.attempt("10.0.0.1", "pedro")  # the address's third failure on any name


async def test_a_success_takes_its_attempt_back() -> None:
    limiter = LoginLimiter(1, 3, lambda: 0.0)
    assert await limiter.attempt("10.0.0.1", "ana")
    await limiter.succeeded("10.0.0.1", "ana")
    assert await limiter.attempt("10.0.0.1", "ana")
    assert not await limiter.attempt("10.0.0.1", "ana")
