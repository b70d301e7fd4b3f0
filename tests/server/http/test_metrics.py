"""GET /metrics (metrics.py, http/health.py) scraped from a real uvicorn: a move played moves the
counters and histograms; `metrics_token` guards the page."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families

from tests.server.support.harness import LiveServer, Player
from tests.server.support.http_helpers import live

METRICS = (
    "tranque_tables",
    "tranque_open_sockets",
    "tranque_actions_total",
    "tranque_act_event_seconds_count",
    "tranque_store_append_seconds_count",
    "tranque_database_errors_total",
    "tranque_redis_errors_total",
    "tranque_lease_takeovers_total",
    "tranque_bot_thinking_seconds_count",
    "tranque_analysis_queue_depth",
    "tranque_refusals_total",
)


def scrape(server: LiveServer, **headers: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of the page: (name, labels) → value."""
    answer = httpx.get(server.http + "/metrics", headers=headers, timeout=20)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def value(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_a_move_moves_the_counters_and_histograms() -> None:
    with live() as server:
        before = scrape(server)
        names = {name for name, _ in before}
        for metric in METRICS:
            assert metric in names or metric in ("tranque_tables", "tranque_refusals_total"), metric
        seated = server.post("/api/practice", {"preset": "clasico"})

        async def play() -> dict[str, Any]:
            async with Player(server) as player:
                hello = {"type": "hello", "table": seated["table"], "token": seated["token"]}
                assert (await player.request(hello))["type"] == "ack"
                options = next((m for m in player.frames if m["type"] == "options"), None)
                options = options or await player.expect(lambda m: m["type"] == "options")
                move = {"type": "act", "action": options["legal_actions"][0], "turn_id": options["turn_id"]}
                acked = await player.request(move)
                assert acked["type"] == "ack", acked
                refused = await player.request({"type": "act", "turn_id": options["turn_id"]})
                assert refused["type"] == "error"
                while_open = await asyncio.to_thread(scrape, server)
                return {"code": refused["code"], "while_open": while_open}

        played = asyncio.run(play())
        after = scrape(server)
    while_open, code = played["while_open"], played["code"]
    assert value(after, "tranque_actions_total") >= value(before, "tranque_actions_total") + 1
    assert (
        value(after, "tranque_act_event_seconds_count")
        >= value(before, "tranque_act_event_seconds_count") + 1
    )
    assert value(after, "tranque_act_event_seconds_sum") > value(before, "tranque_act_event_seconds_sum")
    assert value(after, "tranque_store_append_seconds_count") > value(
        before, "tranque_store_append_seconds_count"
    )
    assert value(after, "tranque_bot_thinking_seconds_count") > value(
        before, "tranque_bot_thinking_seconds_count"
    )
    assert value(while_open, "tranque_open_sockets") >= value(before, "tranque_open_sockets") + 1
    assert value(while_open, "tranque_tables", phase="playing") >= 1
    assert (
        value(after, "tranque_refusals_total", code=code)
        >= value(before, "tranque_refusals_total", code=code) + 1
    )


def test_a_token_guards_the_metrics() -> None:
    with live(metrics_token="metrics-Secret-9") as server, httpx.Client(base_url=server.http) as http:
        missing = http.get("/metrics")
        assert missing.status_code == 401 and missing.json()["code"] == "metrics_token"
        wrong = http.get("/metrics", headers={"Authorization": "Bearer guessed"})
        assert wrong.status_code == 403 and wrong.json()["code"] == "metrics_token"
        assert "metrics-Secret-9" not in missing.text + wrong.text
        assert "tranque_actions_total" in scrape(server, Authorization="Bearer metrics-Secret-9").__repr__()


def test_each_request_has_an_id_a_proxys_plain_one_kept() -> None:
    with live() as server, httpx.Client(base_url=server.http) as http:
        first, second = http.get("/healthz"), http.get("/api/bots")
        assert first.headers["x-request-id"] != second.headers["x-request-id"]
        assert (
            http.get("/healthz", headers={"X-Request-Id": "nginx-42"}).headers["x-request-id"] == "nginx-42"
        )
        odd = http.get("/healthz", headers={"X-Request-Id": "a b\tc"}).headers["x-request-id"]
        assert odd != "a b\tc" and odd
