"""A sign-up's password estimate never holds up the server (accounts/password_checks.py): it
runs in a worker process after the cheap checks and the place's quota, on a bounded part of
the password, within a time budget. Against a real uvicorn; the estimates are counted and, where
the test must know one is under way, held at a gate (a file) in the worker itself."""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from tests.server.support.harness import LiveServer, Player
from tests.server.support.http_helpers import PASSWORD, client, live, register
from tranque.server.accounts.passwords import (
    ESTIMATED_MAX,
    LOOKALIKES,
    LOOKALIKES_MAX,
    estimated_part,
    estimated_weakness,
    weakness,
)

# zxcvbn's l33t matcher is exponential in the look-alikes it finds: ~10 s for this, shown whole.
HOSTILE = ("4@8({[<369!|1705$+%2" * 4)[:72]


def gated(gate: str, password: str, name: str) -> str | None:
    """The real estimate, once the file `gate` exists (run in the server's worker process)."""
    while not Path(gate).exists():
        time.sleep(0.01)
    return estimated_weakness(password, name)


def estimates_under_way(server: LiveServer) -> int:
    async def look() -> int:
        return int(server.state.passwords.under_way)

    under_way: int = server.on_server(look)
    return under_way


def test_N1_hostile_password_leaves_the_loop_free(tmp_path: Path) -> None:
    """While the hostile password's estimate is under way, a socket's `ping` is answered, before
    the sign-up is; and the estimate of that password is bounded: it gives a verdict."""
    gate = tmp_path / "gate"
    with live(password_check_seconds=120.0) as server:
        server.state.passwords.estimate = functools.partial(gated, str(gate))
        answers: list[httpx.Response] = []
        signing_up = threading.Thread(
            target=lambda: answers.append(
                httpx.post(
                    f"{server.http}/api/register",
                    json={"name": "Hostil_1", "password": HOSTILE},
                    timeout=120,
                )
            )
        )
        signing_up.start()
        try:
            while estimates_under_way(server) == 0:
                time.sleep(0.01)

            async def ping() -> dict[str, object]:
                async with Player(server) as player:
                    return await player.request({"type": "ping"})

            assert asyncio.run(ping()).get("pong") is True
            assert answers == []  # the sign-up is still being estimated: the pong came first
        finally:
            gate.touch()
            signing_up.join(timeout=120)
        assert answers and answers[0].status_code == 201, answers  # the verdict: strong enough
        assert server.state.passwords.estimates == 1
    part = estimated_part(HOSTILE)
    assert len(part) <= ESTIMATED_MAX and len(set(part) & LOOKALIKES) <= LOOKALIKES_MAX
    assert part == HOSTILE[:10]
    assert weakness(HOSTILE, "pedro") is None  # a verdict, estimated on `part`


def test_N1_an_estimate_past_its_budget_is_a_refusal_not_a_wait(tmp_path: Path) -> None:
    """The budget is respected: an estimate that has not ended (held at its gate) is a refusal."""
    gate = tmp_path / "gate"
    with live(password_check_seconds=0.3, password_check_in_processes=False) as server:
        server.state.passwords.estimate = functools.partial(gated, str(gate))
        try:
            with client(server) as http:
                refused = register(http, "Hostil_2", HOSTILE)
                assert (refused.status_code, refused.json()["code"]) == (422, "weak_password")
                assert refused.json()["message_en"].startswith("We could not assess that password in time")
                assert http.get("/api/me").status_code == 401  # no account, no session
        finally:
            gate.touch()  # the worker thread ends, so the server can stop


def test_N1c_refused_sign_ups_never_reach_the_estimator() -> None:
    settings: dict[str, Any] = {"registrations_per_address_per_hour": 1, "password_check_in_processes": False}
    with live(**settings) as server, client(server) as http:
        assert register(http, "Ana_1").status_code == 201
        used = server.state.passwords.estimates
        taken = register(http, "ana_1", HOSTILE)
        assert (taken.status_code, taken.json()["code"]) == (409, "name_taken")
        confusable = register(http, "Ana_l", HOSTILE)
        assert (confusable.status_code, confusable.json()["code"]) == (409, "name_confusable")
        over = register(http, "Beto_1", HOSTILE)
        assert (over.status_code, over.json()["code"]) == (429, "too_many_registrations")
        short = register(http, "Beto_2", "corta")
        assert (short.status_code, short.json()["code"]) == (422, "bad_password")
        assert server.state.passwords.estimates == used  # none of them was estimated


def test_N1c_a_weak_password_uses_one_registration_of_the_quota() -> None:
    settings: dict[str, Any] = {"registrations_per_address_per_hour": 1, "password_check_in_processes": False}
    with live(**settings) as server, client(server) as http:
        weak = register(http, "Ana_1", "12345678")
        assert (weak.status_code, weak.json()["code"]) == (422, "weak_password")
        over = register(http, "Ana_1", PASSWORD)
        assert (over.status_code, over.json()["code"]) == (429, "too_many_registrations")
