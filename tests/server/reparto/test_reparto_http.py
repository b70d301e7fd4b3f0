"""El reparto del día over HTTP on a live server (its clock a FakeClock the test moves): the
day's commitment is public and stable, two accounts and a guest get the same deals, an account
plays for the board once, the board ranks against par, the seed stays back until the day is
over and then checks out against the commitment and every table's deals."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer, fast_settings
from tests.server.support.http_helpers import database_url
from tests.server.support.scenario_helpers import make_account
from tranque.server.reparto.deals import commitment

HANDS = 2


__all__ = ["database_url"]  # the fixture: every test on memory, SQLite and PostgreSQL


@pytest.fixture
def server(database_url: str) -> Iterator[LiveServer]:
    settings = fast_settings(
        database_url,
        reparto_bot_level="heuristic",
        reparto_in_processes=False,
        reparto_hands=HANDS,
        deserted_game_seconds=10**9,  # nobody follows the tables: the clock plays for the person
    )
    with LiveServer(settings) as running:
        yield running


def http(server: LiveServer, headers: dict[str, str] | None = None) -> httpx.Client:
    return httpx.Client(base_url=server.http, timeout=20, headers=headers or {})


def play_out(server: LiveServer, table_id: str) -> None:
    """Move the clock on until the table's game is over (the clock plays the person's turns)."""
    deadline = time.monotonic() + 60
    while (table := server.state.registry.tables.get(table_id)) is not None and not table.state.phase.is_over:
        assert time.monotonic() < deadline, "the game did not end"
        server.advance(31)
        time.sleep(0.01)


def record(server: LiveServer, table_id: str) -> dict[str, Any]:
    """The table's last game's record, once the store has it (written just after the end)."""
    deadline = time.monotonic() + 20
    while True:
        found: dict[str, Any] | None = server.on_server(lambda: server.state.store.load_record(table_id))
        if found is not None and len(found.get("rounds", ())) == HANDS:
            return found
        assert time.monotonic() < deadline, "the record was not kept"
        time.sleep(0.05)


def board(client: httpx.Client, day: str, mode: str = "individual") -> dict[str, Any]:
    answer = client.get(f"/api/reparto/{day}/{mode}/board")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def wait_for(check: Any, what: str) -> Any:
    deadline = time.monotonic() + 30
    while not (found := check()):
        assert time.monotonic() < deadline, what
        time.sleep(0.05)
    return found


def test_two_accounts_and_a_guest_play_the_same_deals_and_are_ranked_against_par(server: LiveServer) -> None:
    guest = http(server)
    first = guest.get("/api/reparto").json()
    today = first["today"]
    assert guest.get("/api/reparto").json()["today"]["commitment"] == today["commitment"]
    assert today["seed"] is None and not today["revealed"] and first["yesterday"] is None
    day = today["day"]
    # R17: the seed is nobody's before the day is over.
    refused = guest.get(f"/api/reparto/{day}/seed")
    assert refused.status_code == 403 and refused.json()["code"] == "reparto_not_revealed"

    _, ana_cookie = make_account(server, "ana")
    _, bea_cookie = make_account(server, "bea")
    ana, bea = http(server, ana_cookie), http(server, bea_cookie)
    tables = {}
    for name, client in (("ana", ana), ("bea", bea), ("guest", guest)):
        started = client.post("/api/reparto/play", json={"mode": "individual"})
        assert started.status_code == 200, started.text
        assert started.json()["day"] == day
        assert started.json()["ranked"] is (name != "guest")
        tables[name] = started.json()["table"]
    again = ana.post("/api/reparto/play", json={"mode": "individual"})
    assert again.status_code == 409 and again.json()["code"] == "reparto_played"
    assert ana.get("/api/reparto").json()["me"]["individual"] == {"finished": False, "diff": None}
    assert (
        guest.post("/api/reparto/play", json={"mode": "individual"}).status_code == 200
    )  # guests: unranked, again

    for table_id in tables.values():
        play_out(server, table_id)
    records = {name: record(server, table_id) for name, table_id in tables.items()}
    for name, kept in records.items():
        rounds = kept["rounds"]
        assert len(rounds) == HANDS, name
        assert [round_data["commitment"] for round_data in rounds] == today["modes"]["individual"][
            "commitments"
        ]
        assert [round_data["hands"] for round_data in rounds] == [
            r["hands"] for r in records["ana"]["rounds"]
        ]

    # Each round's seed is withheld from the players until the reveal (each commitment kept).
    answer = ana.get(f"/api/tables/{tables['ana']}/record")
    assert answer.status_code == 200, answer.text  # (once seen failing on PostgreSQL: say why)
    own = answer.json()
    assert [r["seed"] for r in own["rounds"]] == [None] * HANDS
    assert [r["commitment"] for r in own["rounds"]] == today["modes"]["individual"]["commitments"]

    # The par: the expert's own game on the same deals, worked out once.
    par = wait_for(lambda: board(guest, day)["par"], "the par was not worked out")
    rows = wait_for(lambda: len(board(guest, day)["rows"]) == 2 and board(guest, day)["rows"], "no board")
    assert [row["name"] for row in rows] != ["guest"]
    assert sorted(row["name"] for row in rows) == ["ana", "bea"]
    assert [row["diff"] for row in rows] == sorted((row["diff"] for row in rows), reverse=True)
    for row in rows:
        assert row["against_par"] == row["diff"] - par["diff"]
        assert row["diff"] == sum(points[0] - points[1] for points in row["points"])
    assert rows[0]["place"] == 1
    assert ana.get("/api/reparto").json()["me"]["individual"]["finished"] is True

    # The replays: one's own, and the day's best once one's own is over.
    server.recorded()
    mine = ana.get(f"/api/reparto/{day}/individual/replay/mine")
    assert mine.status_code == 200, mine.text
    assert mine.json()["game"]["game_id"] == f"{tables['ana']}.1"
    best = bea.get(f"/api/reparto/{day}/individual/replay/best")
    assert best.status_code == 200, best.text
    assert best.json()["game"]["game_id"].startswith(
        tables["ana"] if rows[0]["name"] == "ana" else tables["bea"]
    )
    _, cata_cookie = make_account(server, "cata")
    cata = http(server, cata_cookie)
    early = cata.get(f"/api/reparto/{day}/individual/replay/best")
    assert early.status_code == 403 and early.json()["code"] == "reparto_play_first"
    # A reparto game is private: its hands are nobody else's before the reveal.
    assert cata.get(f"/api/games/{tables['ana']}.1/record").status_code == 404

    # The next day in Bogotá: yesterday's seed is revealed and checks out.
    server.advance(86400)
    after = guest.get("/api/reparto").json()
    assert after["today"]["day"] != day
    yesterday = after["yesterday"]
    assert yesterday["day"] == day and yesterday["revealed"]
    seed = bytes.fromhex(yesterday["seed"])
    assert commitment(seed, day, HANDS) == today["commitment"]
    assert hashlib.sha256(seed + yesterday["parameters"].encode()).hexdigest() == today["commitment"]
    revealed = guest.get(f"/api/reparto/{day}/seed").json()["modes"]["individual"]["deals"]
    for number, deal in enumerate(revealed):
        assert deal["commitment"] == today["modes"]["individual"]["commitments"][number]
        assert (
            hashlib.sha256(bytes.fromhex(deal["seed"]) + bytes.fromhex(deal["salt"])).hexdigest()
            == deal["commitment"]
        )
        assert deal["hands"] == [sorted_tiles(hand) for hand in records["ana"]["rounds"][number]["hands"]]
    assert board(guest, day)["final"] is True
    late = guest.get(f"/api/reparto/{day}/individual/replay/best")
    assert late.status_code == 200, late.text  # after the reveal, anyone
    assert after["today"]["commitment"] != today["commitment"]
    for client in (guest, ana, bea, cata):
        client.close()


def sorted_tiles(hand: list[str]) -> list[str]:
    def key(tile: str) -> tuple[int, int]:
        high, low = sorted((int(half) for half in tile.split("-")), reverse=True)
        return high, low

    return [f"{high}-{low}" for high, low in sorted(key(tile) for tile in hand)]


def test_refusals_are_clear_and_change_nothing(server: LiveServer) -> None:
    guest = http(server)
    day = guest.get("/api/reparto").json()["today"]["day"]
    cases = [
        ("/api/reparto/2026-13-40", 422, "reparto_bad_day"),
        ("/api/reparto/2001-01-01", 404, "reparto_no_day"),
        ("/api/reparto/2999-01-01", 404, "reparto_no_day"),
        (f"/api/reparto/{day}/trios/board", 422, "reparto_bad_mode"),
        (f"/api/reparto/{day}/individual/replay/best", 403, "reparto_play_first"),
        (f"/api/reparto/{day}/individual/replay/mine", 401, "login_required"),
        (f"/api/reparto/{day}/individual/replay/other", 404, "reparto_no_game"),
    ]
    for path, status, code in cases:
        answer = guest.get(path)
        assert (answer.status_code, answer.json()["code"]) == (status, code), path
        assert answer.json()["message"] and answer.json()["message_en"]
    bad = guest.post("/api/reparto/play", json={"mode": "trios"})
    assert bad.status_code == 422
    assert guest.get("/api/reparto").json()["today"]["day"] == day
    guest.close()


def test_a_game_of_the_day_gives_no_hints_and_its_socket_no_seed(server: LiveServer) -> None:
    """Everybody plays the day's deals alone: the sync says a game gives no hints and «Pista» is
    refused, with its own words. R17: the player's socket gets each hand's commitment (the
    day's) and never its seed or salt while the day is on, not even at the hand's end."""
    import asyncio

    from tests.server.support.harness import Player

    with http(server) as guest:
        today = guest.get("/api/reparto").json()["today"]
        seated = guest.post("/api/reparto/play", json={"mode": "individual"}).json()

    async def play() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        async with Player(server) as player:
            await player.request({"type": "hello", "table": seated["table"], "token": seated["token"]})
            table = server.state.registry.tables[seated["table"]]
            deadline = time.monotonic() + 10
            while not (table.state.turn and table.state.turn.seat == 0):
                assert time.monotonic() < deadline, "seat 0 never had the turn"
                server.advance(1)  # a bot's move is due a moment after its turn starts
                await asyncio.sleep(0.01)
            answer: dict[str, Any] = await player.request({"type": "hint"})
            while not table.state.phase.is_over:  # the clock plays the rest for the person
                assert time.monotonic() < deadline + 50, "the game did not end"
                server.advance(31)
                await asyncio.sleep(0.01)
            await player.expect(lambda m: m.get("kind") == "game_ended")
            return answer, list(player.frames)

    answer, frames = asyncio.run(play())
    assert answer["type"] == "error" and answer["code"] == "too_many_hints"
    assert "reparto" in answer["message"] and "reparto" in answer["message_en"]
    events = [frame for frame in frames if frame.get("type") == "event"]
    started = [e["data"] for e in events if e["kind"] == "round_started"]
    ended = [e["data"] for e in events if e["kind"] == "round_ended"]
    committed = today["modes"]["individual"]["commitments"]
    # The first hand was dealt before the socket came: its commitment came in the `sync`.
    sync = next(frame for frame in frames if frame.get("type") == "sync")
    assert committed[0] in json.dumps(sync)
    # The sync says no hints are given (the client shows no «Pista») and whose deals these are.
    assert sync["hints"] == {"per_game": 0, "left": 0}
    assert sync["deals"] == f"reparto:{today['day']}:individual"
    assert [data["commitment"] for data in started] == committed[len(committed) - len(started) :]
    assert len(ended) == HANDS
    assert all(data.get("seed") is None and data.get("salt") is None for data in ended)


def test_pairs_seat_the_person_with_an_expert_partner_against_two(server: LiveServer) -> None:
    """Parejas: four seats, the person at 0 with a bot partner at 2; every table of the mode
    deals the same four hands; the attempt is ranked by its side's points against par."""
    _, cookie = make_account(server, "ana")
    with http(server, cookie) as ana, http(server) as guest:
        today = guest.get("/api/reparto").json()["today"]
        tables = [
            client.post("/api/reparto/play", json={"mode": "pairs"}).json()["table"]
            for client in (ana, guest)
        ]
        table = server.state.registry.tables[tables[0]]
        assert table.rules.players == 4 and table.rules.is_pairs
        assert [seat.kind.value for seat in table.seats] == ["human", "bot", "bot", "bot"]
        for table_id in tables:
            play_out(server, table_id)
        records = [record(server, table_id) for table_id in tables]
        assert [r["hands"] for r in records[0]["rounds"]] == [r["hands"] for r in records[1]["rounds"]]
        commitments = [r["commitment"] for r in records[0]["rounds"]]
        assert commitments == today["modes"]["pairs"]["commitments"]
        assert commitments != today["modes"]["individual"]["commitments"]
        rows = wait_for(lambda: board(guest, today["day"], "pairs")["rows"], "no board")
        par = wait_for(lambda: board(guest, today["day"], "pairs")["par"], "no par")
        assert [row["name"] for row in rows] == ["ana"]
        scores = records[0]["scores"]
        assert rows[0]["diff"] == scores[0] - scores[1]
        assert rows[0]["against_par"] == rows[0]["diff"] - par["diff"]
        assert board(guest, today["day"], "individual")["rows"] == []
