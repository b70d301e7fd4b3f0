"""The limits at the HTTP edge (docs/protocol.md, «HTTP limits»), each against a real uvicorn:
what a refusal says (status, `code`, Spanish and English message), and that it left nothing
behind (no table, no claim, no event).

Most servers here have small limits of their own (`Limits(...)`), so that reaching one takes
a few requests; `test_the_document_gives_the_servers_limits` pins the real ones. Clients on
other addresses are the test's own requests with `X-Forwarded-For`, which uvicorn takes from
a loopback peer, as from a proxy in front of the site.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import random
import re
import secrets
import socket
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any, NamedTuple

import httpx
import pytest

from tests import services
from tests.server.support.harness import LiveServer, Player, fast_settings
from tests.server.support.http_helpers import client, register
from tranque import Game, Rules
from tranque.engine.fairness import commitment_of
from tranque.engine.presets import PRESETS
from tranque.engine.record import to_record
from tranque.server.accounts.sessions import SESSION_COOKIE
from tranque.server.http.body_limit import size_text
from tranque.server.lobby.limits import Limits
from tranque.server.table.choices import target_choices

ROOT = Path(__file__).resolve().parents[3]
STATUSES = ("waiting", "playing", "between_rounds", "finished", "annulled")
SMALL = Limits(live_games_per_address=2, live_games_per_account=1, waiting_tables_per_account=2)


def live(limits: Limits = SMALL, database_url: str = "memory://") -> LiveServer:
    return LiveServer(fast_settings(database_url, limits=limits))


@pytest.fixture
def server() -> Iterator[LiveServer]:
    with live() as running:
        yield running


def from_address(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


# What the server keeps ---------------------------------------------------------------------


class Kept(NamedTuple):
    live: list[str]  # the registry's tables
    claims: dict[str, frozenset[str]]
    stored: list[str]  # the store's tables, whatever their status
    events: int  # of every table (its bots may be playing: compare `tables` then)

    @property
    def tables(self) -> tuple[list[str], dict[str, frozenset[str]], list[str]]:
        return self.live, self.claims, self.stored


NOTHING = Kept([], {}, [], 0)


def kept(server: LiveServer) -> Kept:
    async def look() -> Kept:
        state = server.state
        rows = await state.store.tables(STATUSES)
        events = [len(await state.store.load_events(row.table_id)) for row in rows]
        return Kept(
            sorted(state.registry.tables),
            dict(state.registry.claims),
            sorted(row.table_id for row in rows),
            sum(events),
        )

    return server.on_server(look)


def assert_refused(answer: httpx.Response, status: int, code: str, *words: str) -> dict[str, Any]:
    """The refusal's status and code, a Spanish message naming `words`, and an English one."""
    body: dict[str, Any] = answer.json()
    assert (answer.status_code, body["code"]) == (status, code), body
    for word in words:
        assert word in body["message"], body["message"]
        assert word in body["message_en"], body["message_en"]
    assert body["message"] != body["message_en"]
    return body


# Raw HTTP, for what a well-behaved client never sends --------------------------------------


class Answer(NamedTuple):
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


def connect(server: LiveServer) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=15)


def read_answer(sock: socket.socket) -> Answer:
    """One HTTP answer (its body by Content-Length)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed with no answer: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, value in (line.split(":", 1) for line in lines)}
    while len(body) < int(headers.get("content-length", 0)):
        chunk = sock.recv(65536)
        assert chunk, "the connection closed in the middle of the answer"
        body += chunk
    return Answer(int(status_line.split()[1]), headers, body)


def closed(sock: socket.socket) -> bool:
    """Whether the server has closed the connection (after what it sent, if anything)."""
    try:
        return sock.recv(65536) == b""
    except ConnectionResetError:
        return True


def post_head(path: str, length: int | None, extra: str = "") -> bytes:
    sized = f"Content-Length: {length}\r\n" if length is not None else "Transfer-Encoding: chunked\r\n"
    return f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{sized}{extra}\r\n".encode()


# Records to check --------------------------------------------------------------------------


def site_record(rules: Rules, rounds: int | None = None, seed: int = 1) -> dict[str, Any]:
    """A record as the site gives it (each round's seed, salt and commitment), of a game played
    by random legal moves to its end, or for `rounds` rounds."""
    rng = random.Random(seed)
    secrets_by_round: dict[int, tuple[bytes, bytes]] = {}

    def deal_secret(number: int) -> bytes:
        secrets_by_round[number] = (rng.randbytes(32), rng.randbytes(16))
        return secrets_by_round[number][0]

    game = Game(rules, seed_for_round=deal_secret)
    while not game.is_over and (rounds is None or game.round_number < rounds - 1 or not game.round.is_over):
        if game.round.is_over:
            game.start_next_round()
        else:
            game.apply(rng.choice(game.round.legal_actions()))
    record = to_record(game)
    for number, round_data in enumerate(record["rounds"]):
        seed_bytes, salt = secrets_by_round[number]
        round_data.update(salt=salt.hex(), commitment=commitment_of(seed_bytes, salt))
    record["table"] = secrets.token_urlsafe(9)
    return record


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    record = site_record(Rules.preset("clasico", players=2))
    assert len(record["rounds"]) >= 2 and record["winners"]
    return record


@pytest.fixture(scope="module")
def maximal() -> bytes:
    """As long a record as is checked (`Limits.record_rounds` rounds), of the largest rounds:
    six players with the double-nine."""
    rules = Rules.preset("clasico", players=6, mode="individual", target=10**9)
    record = site_record(rules, rounds=Limits().record_rounds)
    assert len(record["rounds"]) == Limits().record_rounds
    return json.dumps(record).encode()


# Bodies ------------------------------------------------------------------------------------


class TestBodies:
    def test_a_body_declared_over_the_limit_is_refused_before_it_is_read(self, server: LiveServer) -> None:
        before = kept(server)
        with connect(server) as sock:
            sock.sendall(post_head("/api/practice", Limits().body_bytes + 1))
            answer = read_answer(sock)
            assert closed(sock)
        body = assert_refused(
            httpx.Response(answer.status, content=answer.body), 413, "body_too_big", "64 KiB"
        )
        assert answer.headers["connection"] == "close"
        assert body["message"] == "La petición pasa de 64 KiB, lo más que se admite aquí; envía menos datos."
        assert before == kept(server) == NOTHING

    def test_a_body_that_grows_past_the_limit_is_refused_as_it_does(self, server: LiveServer) -> None:
        before = kept(server)
        limit = Limits().body_bytes
        with connect(server) as sock:
            sock.sendall(post_head("/api/practice", None))
            sock.sendall(b"%x\r\n%s\r\n" % (limit // 2, b" " * (limit // 2)))
            sock.sendall(b"%x\r\n%s\r\n" % (limit // 2 + 1, b" " * (limit // 2 + 1)))
            answer = read_answer(sock)
            assert closed(sock)
        assert (answer.status, answer.json()["code"]) == (413, "body_too_big")
        assert before == kept(server) == NOTHING

    def test_a_record_to_check_may_be_larger_but_not_without_bound(
        self, server: LiveServer, finished: dict[str, Any]
    ) -> None:
        record = json.dumps({**finished, "padding": " " * Limits().body_bytes}).encode()
        headers = {"Content-Type": "application/json"}
        checked = httpx.post(f"{server.http}/api/verify", content=record, headers=headers, timeout=30)
        assert (checked.status_code, checked.json()["ok"]) == (200, True)
        elsewhere = httpx.post(f"{server.http}/api/practice", content=record, headers=headers, timeout=30)
        assert_refused(elsewhere, 413, "body_too_big", "64 KiB")
        with connect(server) as sock:
            sock.sendall(post_head("/api/verify", Limits().verify_body_bytes + 1))
            answer = read_answer(sock)
        assert (answer.status, answer.json()["code"]) == (413, "body_too_big")
        assert "4 MiB" in answer.json()["message"]
        assert kept(server) == NOTHING

    def test_a_body_that_arrives_too_slowly_is_refused(self) -> None:
        with live(Limits(body_seconds=0.5)) as server:
            with connect(server) as sock:
                sock.sendall(post_head("/api/practice", 100) + b'{"preset": ')
                answer = read_answer(sock)
                assert closed(sock)
            assert_refused(httpx.Response(answer.status, content=answer.body), 408, "body_timeout", "0.5 s")
            assert kept(server) == NOTHING


# Headers -----------------------------------------------------------------------------------


class TestHeaders:
    def test_headers_over_the_limit_are_refused(self, server: LiveServer) -> None:
        limit = Limits().header_bytes
        with connect(server) as sock:
            sock.sendall(b"GET /api/bots HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * limit + b"\r\n\r\n")
            answer = read_answer(sock)
            assert closed(sock)
        body = assert_refused(httpx.Response(answer.status, content=answer.body), 431, "headers_too_big")
        assert size_text(limit) == "16 KiB" and "16 KiB" in body["message"]
        # Many small headers add up the same way.
        with connect(server) as sock:
            many = b"".join(b"X-H%d: %s\r\n" % (n, b"b" * 60) for n in range(400))
            sock.sendall(b"GET /api/bots HTTP/1.1\r\nHost: x\r\n" + many + b"\r\n")
            assert read_answer(sock).status == 431

    def test_headers_that_arrive_too_slowly_are_cut_off(self) -> None:
        with live(Limits(header_seconds=0.5)) as server:
            with connect(server) as sock:  # half a request, then nothing
                sock.sendall(b"GET /api/bots HTTP/1.1\r\nHost: x\r\n")
                answer = read_answer(sock)
                assert closed(sock)
            assert_refused(
                httpx.Response(answer.status, content=answer.body), 408, "headers_timeout", "0.5 s"
            )
            with connect(server) as sock:  # a connection that never says anything
                assert closed(sock)
            with connect(server) as sock:  # the next request on a kept-alive connection, too
                sock.sendall(b"GET /api/bots HTTP/1.1\r\nHost: x\r\n\r\n")
                assert read_answer(sock).status == 200
                sock.sendall(b"GET /api/bots HTTP/1.1\r\n")
                assert read_answer(sock).status == 408
                assert closed(sock)

    def test_a_websocket_outlives_the_header_time_limit(self) -> None:
        with live(Limits(header_seconds=0.3)) as server:

            async def scenario() -> None:
                async with Player(server) as player:
                    await asyncio.sleep(1.0)  # over three times the limit on reading headers
                    answer = await player.request({"type": "ping"})
                    assert (answer["type"], answer["pong"]) == ("ack", True)

            asyncio.run(scenario())


# Checking records --------------------------------------------------------------------------


class TestVerify:
    def test_an_honest_record_checks_out_deal_by_deal_and_move_by_move(
        self, server: LiveServer, finished: dict[str, Any]
    ) -> None:
        verdict = httpx.post(f"{server.http}/api/verify", json=finished, timeout=30).json()
        rounds = len(finished["rounds"])
        assert verdict == {
            "ok": True,
            "rounds": [{"round": n, "ok": True, "problems": [], "codes": []} for n in range(rounds)],
            "moves": {"ok": True, "code": None, "problem": None},
        }

    @pytest.mark.parametrize("change", ["a_tile_played", "an_action_removed", "the_scores", "the_winners"])
    def test_changed_moves_or_totals_do_not_check_out(
        self, server: LiveServer, finished: dict[str, Any], change: str
    ) -> None:
        record = copy.deepcopy(finished)
        actions = record["rounds"][0]["actions"]
        if change == "a_tile_played":
            played = next(action for action in actions[1:] if action["type"] == "play")
            played["tile"] = "6-6" if played["tile"] != "6-6" else "0-0"
        elif change == "an_action_removed":
            del actions[-1]
        elif change == "the_scores":
            record["scores"] = [999, 0]
        else:
            record["winners"] = [1 - finished["winners"][0]]
        verdict = httpx.post(f"{server.http}/api/verify", json=record, timeout=30).json()
        assert verdict["ok"] is False
        assert all(r["ok"] for r in verdict["rounds"])  # every deal is still the seed's
        moves = verdict["moves"]
        assert moves["ok"] is False and moves["code"].startswith("record_") and moves["problem"]
        if change in ("the_scores", "the_winners"):
            assert moves["code"] == "record_total_differs"
        english = httpx.post(f"{server.http}/api/verify", params={"lang": "en"}, json=record, timeout=30)
        assert english.json()["moves"]["code"] == moves["code"]
        assert english.json()["moves"]["problem"] != moves["problem"]

    def test_a_swapped_commitment_fails_its_round_by_code(
        self, server: LiveServer, finished: dict[str, Any]
    ) -> None:
        record = copy.deepcopy(finished)
        record["rounds"][1]["commitment"] = "0" * 64
        verdict = httpx.post(f"{server.http}/api/verify", json=record, timeout=30).json()
        assert verdict["ok"] is False and verdict["moves"]["ok"] is True
        assert [r["codes"] for r in verdict["rounds"][:2]] == [[], ["fair_commitment_differs"]]
        assert verdict["rounds"][1]["problems"][0]

    def test_a_record_over_the_round_limit_is_refused(
        self, server: LiveServer, finished: dict[str, Any]
    ) -> None:
        rounds = Limits().record_rounds + 1
        record = {**finished, "rounds": [finished["rounds"][0]] * rounds}
        answer = httpx.post(f"{server.http}/api/verify", json=record, timeout=30)
        body = assert_refused(answer, 422, "too_many_rounds", str(rounds), str(Limits().record_rounds))
        assert "tranque verify" in body["message"]

    @pytest.mark.parametrize(
        ("body", "code"),
        [
            (b'{"rules": ', "bad_json"),
            (b"[" * 100_000, "bad_json"),
            (b"[]", "not_a_record"),
            (b'{"rules": {}, "rounds": [{"actions": ["6-6"]}]}', "not_a_record"),
            (b'{"rules": {"preset_name": "clasico"}, "rounds": {}}', "not_a_record"),
        ],
    )
    def test_what_is_not_a_record_is_refused(self, server: LiveServer, body: bytes, code: str) -> None:
        headers = {"Content-Type": "application/json"}
        answer = httpx.post(f"{server.http}/api/verify", content=body, headers=headers, timeout=30)
        assert_refused(answer, 422, code)

    def test_other_requests_are_answered_while_a_maximal_record_is_checked(
        self, server: LiveServer, maximal: bytes, finished: dict[str, Any]
    ) -> None:
        headers = {"Content-Type": "application/json"}
        verifier = server.state.verifier
        big: Future[httpx.Response] = Future()

        def check_big() -> None:
            big.set_result(
                httpx.post(f"{server.http}/api/verify", content=maximal, headers=headers, timeout=120)
            )

        thread = threading.Thread(target=check_big)
        thread.start()
        while verifier.checking == 0:  # the server has the whole record and is checking it
            assert not big.done(), big.result().json()
            threading.Event().wait(0.01)
        # Started after the big check, all of these are answered before it.
        assert httpx.get(f"{server.http}/api/bots", timeout=30).status_code == 200
        seated = httpx.post(f"{server.http}/api/practice", json={"bot_level": "random"}, timeout=30)
        assert seated.status_code == 200
        mine_again = httpx.post(f"{server.http}/api/verify", json=finished, timeout=30)
        assert_refused(mine_again, 503, "verify_busy")
        someone_else = httpx.post(
            f"{server.http}/api/verify", json=finished, headers=from_address("203.0.113.9"), timeout=30
        )
        assert someone_else.json()["ok"] is True
        assert not big.done()
        thread.join()
        verdict = big.result().json()
        assert verdict["ok"] is True and len(verdict["rounds"]) == Limits().record_rounds
        assert verifier.checking == 0


# The practice target -------------------------------------------------------------------------


class TestPracticeTarget:
    @pytest.mark.parametrize(
        ("options", "choices"),
        [
            ({"target": 1_000_000_000}, "100, 150 o 200"),
            ({"target": 1}, "100, 150 o 200"),
            ({"preset": "ponce", "target": 100}, "a 20,"),
            ({"preset": "sin-pozo", "players": 2, "target": 100}, "a 50,"),
            ({"preset": "salon", "target": 350}, "50, 100, 150, 200, 250 o 300"),
            ({"preset": "clasico", "players": 6, "target": 250}, "100, 150 o 200"),
        ],
    )
    def test_a_target_the_table_form_does_not_offer_is_refused(
        self, server: LiveServer, options: dict[str, Any], choices: str
    ) -> None:
        answer = httpx.post(
            f"{server.http}/api/practice", json={"bot_level": "random", **options}, timeout=30
        )
        body = answer.json()
        assert (answer.status_code, body["code"], body["parameter"]) == (422, "bad_rules", "target")
        assert choices in body["message"] and f"no a {options['target']}" in body["message"]
        assert kept(server) == NOTHING

    @pytest.mark.parametrize(
        "options",
        [{"preset": "ponce", "target": 20}, {"preset": "sin-pozo", "players": 2, "target": 50}],
        ids=["ponce-20", "sin-pozo-1v1-50"],
    )
    def test_a_presets_own_target_is_played_in_practice_and_at_tables(
        self, server: LiveServer, options: dict[str, Any]
    ) -> None:
        practice = httpx.post(
            f"{server.http}/api/practice", json={"bot_level": "random", **options}, timeout=30
        )
        assert practice.status_code == 200
        assert server.state.registry.tables[practice.json()["table"]].rules.target == options["target"]
        with client(server) as http:
            register(http, "Anfitriona")
            created = http.post("/api/tables", json=options)
            assert created.status_code == 201
            assert http.get(f"/api/tables/{created.json()['table']}").json()["target"] == options["target"]

    def test_the_form_reads_the_choices_the_server_checks(self, server: LiveServer) -> None:
        presets = {p["name"]: p for p in httpx.get(f"{server.http}/api/presets", timeout=30).json()}
        for name, preset in PRESETS.items():
            for players in preset.seatings:
                offered = presets[name]["target_choices"][str(players)]
                assert offered == list(target_choices(name, players))
                assert presets[name]["targets"][str(players)] in offered
        assert presets["salon"]["target_choices"]["4"] == [50, 100, 150, 200, 250, 300]
        assert presets["ponce"]["target_choices"]["4"] == [20]


# Quotas ------------------------------------------------------------------------------------


def practice(server: LiveServer, **headers: str) -> httpx.Response:
    return httpx.post(
        f"{server.http}/api/practice", json={"bot_level": "random"}, headers=headers, timeout=30
    )


def annul(server: LiveServer, seated: dict[str, Any]) -> None:
    async def scenario() -> None:
        async with Player(server) as guest:
            await guest.request({"type": "hello", "table": seated["table"], "token": seated["token"]})

            def ended(message: dict[str, Any]) -> bool:
                return message.get("type") == "event" and message["kind"] == "game_ended"

            await guest.request({"type": "vote", "agree": True})
            if not any(ended(frame) for frame in guest.frames):  # it may come before the ack
                await guest.expect(ended)

    asyncio.run(scenario())


class TestQuotas:
    def test_live_games_per_address_until_one_ends(self, server: LiveServer) -> None:
        here = from_address("198.51.100.7")
        first, _second = (practice(server, **here).json() for _ in range(2))
        before = kept(server)
        refused = practice(server, **here)
        assert_refused(refused, 429, "too_many_games", "2")
        assert refused.json()["message"].startswith("Desde tu conexión ya hay 2 partidas en curso")
        assert kept(server).tables == before.tables
        assert practice(server, **from_address("198.51.100.8")).status_code == 200  # someone else
        annul(server, first)  # a game that has ended no longer counts
        assert practice(server, **here).status_code == 200

    def test_live_games_per_account_practice_and_quick_match(self, server: LiveServer) -> None:
        with client(server) as http:
            register(http, "Ana_23")
            cookie = {"Cookie": f"{SESSION_COOKIE}={http.cookies[SESSION_COOKIE]}"}
        assert practice(server, **cookie).status_code == 200
        before = kept(server)
        refused = practice(server, **cookie, **from_address("198.51.100.20"))  # from anywhere
        assert_refused(refused, 429, "too_many_games", "1")
        assert refused.json()["message"].startswith("Ya tienes 1 partida en curso")
        assert kept(server).tables == before.tables
        assert practice(server).status_code == 200  # the address, without the account, may
        before = kept(server)

        async def quick_match() -> None:
            async with Player(server, headers=cookie) as ana:
                answer = await ana.request({"type": "quick_match", "with_bots": True})
                assert (answer["type"], answer["code"]) == ("error", "too_many_games")
                assert answer["message"].startswith("Ya tienes 1 partida en curso")
                assert server.state.quick.waiting == []
                server.advance(60)  # past the quick match's wait: nobody is seated against a bot
                assert kept(server).tables == before.tables

        asyncio.run(quick_match())

    def test_waiting_tables_per_account(self, server: LiveServer) -> None:
        with client(server) as http:
            register(http, "Anfitrion")
            for _ in range(2):
                assert http.post("/api/tables", json={"private": True}).status_code == 201
            before = kept(server)
            refused = http.post("/api/tables", json={})
            assert_refused(refused, 429, "too_many_tables", "2")
            assert kept(server) == before
            assert len(before.live) == 2
        with client(server) as http:
            register(http, "Otra")
            assert http.post("/api/tables", json={}).status_code == 201

    def test_a_restart_counts_the_games_it_recovers(self, tmp_path: Path) -> None:
        if os.environ.get("TRANQUE_TEST_DB") == "postgresql":
            url = services.fresh_postgres_url()
        else:
            url = f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
        here = from_address("198.51.100.30")
        with live(SMALL, url) as server:
            assert all(practice(server, **here).status_code == 200 for _ in range(2))
        with live(SMALL, url) as server:
            assert len(server.state.registry.tables) == 2
            assert_refused(practice(server, **here), 429, "too_many_games")
            assert practice(server, **from_address("198.51.100.31")).status_code == 200


# The document ------------------------------------------------------------------------------


def test_the_document_gives_the_servers_limits() -> None:
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    found = re.search(r"^## HTTP limits\n(.*?)(?=^## |\Z)", doc, re.M | re.S)
    assert found is not None
    section = " ".join(found.group(1).split())
    limits = Limits()
    for shown in (
        f"**{size_text(limits.header_bytes)}**",
        f"**{limits.header_seconds:g} s**",
        f"**{limits.keep_alive_seconds} s**",
        f"**{size_text(limits.body_bytes)}**",
        f"**{size_text(limits.verify_body_bytes)}**",
        f"**{limits.body_seconds:g} s**",
        f"**{limits.record_rounds} rounds**",
        f"**{limits.checks_at_once}** at a time",
        f"**{limits.checks_per_address}** from one address",
        f"**{limits.live_games_per_address}** per address",
        f"**{limits.live_games_per_account}** per account",
        f"**{limits.waiting_tables_per_account}** per account",
    ):
        assert shown in section, shown
    for code in (
        "headers_too_big",
        "headers_timeout",
        "body_too_big",
        "body_timeout",
        "too_many_rounds",
        "verify_busy",
        "too_many_games",
        "too_many_tables",
    ):
        assert f"{code}`" in section, code  # `429 too_many_games` or `too_many_games`
