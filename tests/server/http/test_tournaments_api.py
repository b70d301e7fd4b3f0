"""Tournaments over HTTP against a live server, on every backend (memory, SQLite,
PostgreSQL): created, listed, entered and read back; every bad request refused with its code
and its status, the event left exactly as it was; a private event hidden without its
invitation; the attendance bar; a player's tournaments on their profile.

There is no director here (tournaments/director.py): where a test needs the event started it
steps the machine itself, as the director does (load, `step`, save by compare-and-set); but
for duplicado's seeds, withheld while a round is played and shown after it, whose bots-only
event the director plays out as the test moves the clock.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, database_url, live, register
from tranque.cli import main
from tranque.server.tournaments.service import loaded, save

__all__ = ["database_url"]  # the fixture, from http_helpers


@pytest.fixture
def server(database_url: str) -> Iterator[LiveServer]:
    # A few accounts per test, all from 127.0.0.1.
    # No director: a test steps the machine itself where it needs the event started.
    with live(database_url, registrations_per_address_per_hour=1000, tournament_director=False) as running:
        yield running


class Person(httpx.Client):
    """A signed-in client: registered first, then used in a `with` that closes it."""

    def __enter__(self) -> Person:
        return self


def player(server: LiveServer, name: str) -> Person:
    http = Person(base_url=server.http, timeout=20)
    made = register(http, name)
    assert made.status_code == 201, made.text
    return http


def minitorneo(**changes: Any) -> dict[str, Any]:
    return {
        "name": "Relámpago",
        "format": "minitorneo",
        "entry": "duel",
        "size": 4,
        "rated": False,
        **changes,
    }


def suizo(**changes: Any) -> dict[str, Any]:
    return {
        "name": "Suizo de los martes",
        "format": "suizo",
        "entry": "duel",
        "size": 8,
        "rounds": 3,
        **changes,
    }


def create(http: httpx.Client, config: dict[str, Any]) -> dict[str, Any]:
    made = http.post("/api/tournaments", json=config)
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return body


def detail(server: LiveServer, tournament_id: str, invite: str | None = None) -> dict[str, Any]:
    """The event's page as a guest reads it (the invitation on a private one)."""
    params = {} if invite is None else {"invite": invite}
    found = httpx.get(f"{server.http}/api/tournaments/{tournament_id}", params=params, timeout=20)
    assert found.status_code == 200, found.text
    body: dict[str, Any] = found.json()
    return body


def version(server: LiveServer, tournament_id: str) -> int:
    async def read() -> int:
        row = await server.state.store.tournament(tournament_id)
        assert row is not None
        return int(row.version)

    return server.on_server(read)


def refused(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code
    assert body["message"] and body["message_en"] and body["message"] != body["message_en"]


def unchanged(server: LiveServer, tournament_id: str, attempt: Any, status: int, code: str) -> None:
    """`attempt()` is refused with `code` and changes nothing of the event."""
    before, at = document(server, tournament_id), version(server, tournament_id)
    refused(attempt(), status, code)
    assert document(server, tournament_id) == before
    assert version(server, tournament_id) == at


def document(server: LiveServer, tournament_id: str) -> dict[str, Any]:
    """The event's stored document."""

    async def read() -> dict[str, Any]:
        row = await server.state.store.tournament(tournament_id)
        assert row is not None
        return dict(row.doc)

    return server.on_server(read)


def step(server: LiveServer, tournament_id: str) -> list[Any]:
    """What the director does on its tick: load, step, save (its effects are not carried out
    here: the tables stay planned, which is enough for what these tests read)."""

    async def stepped() -> list[Any]:
        store = server.state.store
        row = await store.tournament(tournament_id)
        assert row is not None
        found = loaded(row)
        numbers = iter(range(1, 1000))
        effects = found.tournament.step(
            server.settings.clock.now(), random.Random(7), lambda: f"{tournament_id}-m{next(numbers)}"
        )
        assert await save(store, found, server.settings.clock.now())
        return list(effects)

    return server.on_server(stepped)


class TestCreateListRegister:
    def test_an_event_is_created_listed_entered_and_read_back(self, server: LiveServer) -> None:
        with player(server, "Organiza") as host, player(server, "Ana") as ana:
            made = create(host, minitorneo())
            assert made["invite"] is None
            tournament = made["tournament"]
            tid = tournament["id"]
            assert tournament["name"] == "Relámpago" and tournament["creator"] == "Organiza"
            assert (tournament["status"], tournament["entrants"], tournament["size"]) == ("open", [], 4)
            assert tournament["me"] == {
                "registered": False,
                "can_register": True,
                "can_withdraw": False,
                "can_cancel": True,
                "table": None,
                "seat": None,
                "invite": None,
            }
            listed = httpx.get(f"{server.http}/api/tournaments", timeout=20).json()
            assert listed["page"] == 1 and listed["pages"] == 1
            [summary] = listed["tournaments"]
            assert summary == {
                "id": tid,
                "name": "Relámpago",
                "format": "minitorneo",
                "entry": "duel",
                "status": "open",
                "size": 4,
                "entrants": 0,
                "starts_at": None,
                "rated": False,
                "private": False,
                "creator": "Organiza",
                "round": 0,
                "rounds": 2,
            }
            assert (
                httpx.get(f"{server.http}/api/tournaments?status=live", timeout=20).json()["tournaments"]
                == []
            )
            entered = ana.post(f"/api/tournaments/{tid}/register", json={})
            assert entered.status_code == 200, entered.text
            page = entered.json()
            assert page["entrants"] == [{"no": 1, "names": ["Ana"], "bot": False, "status": "active"}]
            assert page["me"]["registered"] and page["me"]["can_withdraw"] and not page["me"]["can_register"]
            assert not page["me"]["can_cancel"]
            assert detail(server, tid)["entrants"] == page["entrants"]  # a guest reads it too
            assert detail(server, tid)["me"]["registered"] is False
            assert ana.get(f"/api/tournaments/{tid}").json()["me"]["registered"] is True
            assert ana.get("/api/players/ana/tournaments").json() == {
                "tournaments": [
                    {
                        "id": tid,
                        "name": "Relámpago",
                        "format": "minitorneo",
                        "status": "open",
                        "finished_at": None,
                        "place": None,
                        "entrants": 1,
                    }
                ]
            }
            # Withdrawing before the start undoes the entry.
            left = ana.post(f"/api/tournaments/{tid}/withdraw", json={})
            assert left.status_code == 200 and left.json()["entrants"] == []
            assert ana.get("/api/players/ana/tournaments").json() == {"tournaments": []}

    def test_the_creator_cancels_before_the_start_and_it_is_listed_as_finished(
        self, server: LiveServer
    ) -> None:
        with player(server, "Organiza") as host, player(server, "Ana") as ana:
            tid = create(host, minitorneo())["tournament"]["id"]
            unchanged(
                server,
                tid,
                lambda: ana.post(f"/api/tournaments/{tid}/cancel", json={}),
                409,
                "tournament_creator",
            )
            cancelled = host.post(f"/api/tournaments/{tid}/cancel", json={})
            assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
            assert httpx.get(f"{server.http}/api/tournaments", timeout=20).json()["tournaments"] == []
            finished = httpx.get(f"{server.http}/api/tournaments?status=finished", timeout=20).json()
            assert [(t["id"], t["status"]) for t in finished["tournaments"]] == [(tid, "cancelled")]
            unchanged(
                server,
                tid,
                lambda: ana.post(f"/api/tournaments/{tid}/register", json={}),
                409,
                "tournament_over",
            )

    def test_the_service_wakes_the_director_after_each_change(self, server: LiveServer) -> None:
        woken: list[str] = []
        server.state.tournaments.changed = woken.append
        with player(server, "Organiza") as host:
            tid = create(host, minitorneo())["tournament"]["id"]
            host.post(f"/api/tournaments/{tid}/register", json={})
            host.post(f"/api/tournaments/{tid}/register", json={})  # refused: no change, no wake
        assert woken == [tid, tid]


class TestRefusals:
    def test_registering_twice_after_the_start_or_when_full(self, server: LiveServer) -> None:
        names = ["Organiza", "Ana", "Beto", "Carla", "Dario"]
        http = [player(server, name) for name in names]
        try:
            host = http[0]
            tid = create(host, minitorneo())["tournament"]["id"]
            for one in http[:4]:
                assert one.post(f"/api/tournaments/{tid}/register", json={}).status_code == 200
            again = http[1]
            unchanged(
                server,
                tid,
                lambda: again.post(f"/api/tournaments/{tid}/register", json={}),
                409,
                "tournament_registered",
            )
            late = http[4]
            unchanged(
                server,
                tid,
                lambda: late.post(f"/api/tournaments/{tid}/register", json={}),
                409,
                "tournament_full",
            )
            assert detail(server, tid)["me"]["can_register"] is False
            assert late.get(f"/api/tournaments/{tid}").json()["me"]["can_register"] is False
            step(server, tid)  # full: it starts
            assert detail(server, tid)["status"] == "running"
            leaving = http[1]
            host.post(f"/api/tournaments/{tid}/withdraw", json={})  # the creator plays: mid-game too
            unchanged(
                server,
                tid,
                lambda: late.post(f"/api/tournaments/{tid}/register", json={}),
                409,
                "tournament_started",
            )
            unchanged(
                server,
                tid,
                lambda: leaving.post(f"/api/tournaments/{tid}/withdraw", json={}),
                409,
                "tournament_mid_game",
            )
            unchanged(
                server,
                tid,
                lambda: host.post(f"/api/tournaments/{tid}/cancel", json={}),
                409,
                "tournament_started",
            )
        finally:
            for one in http:
                one.close()

    def test_a_player_sees_the_table_and_seat_of_their_game(self, server: LiveServer) -> None:
        names = ["Ana", "Beto", "Carla", "Dario"]
        http = [player(server, name) for name in names]
        try:
            tid = create(http[0], minitorneo())["tournament"]["id"]
            for one in http:
                one.post(f"/api/tournaments/{tid}/register", json={})
            step(server, tid)
            page = detail(server, tid)
            games = page["rounds"][0]["games"]
            assert len(games) == 2 and all(game["state"] == "planned" for game in games)
            for name, one in zip(names, http, strict=True):
                mine = one.get(f"/api/tournaments/{tid}").json()["me"]
                [game] = [g for g in games if any(name in side["names"] for side in g["sides"])]
                assert mine["table"] == game["table"] and mine["seat"] in (0, 1)
                assert mine["can_withdraw"] is False  # mid-game
            assert page["me"]["table"] is None
        finally:
            for one in http:
                one.close()

    def test_the_creator_cannot_leave_before_the_start_but_cancels(self, server: LiveServer) -> None:
        with player(server, "Organiza") as host:
            tid = create(host, minitorneo())["tournament"]["id"]
            assert host.post(f"/api/tournaments/{tid}/register", json={}).status_code == 200
            me = host.get(f"/api/tournaments/{tid}").json()["me"]
            assert (me["can_withdraw"], me["can_cancel"]) == (False, True)
            unchanged(
                server,
                tid,
                lambda: host.post(f"/api/tournaments/{tid}/withdraw", json={}),
                409,
                "tournament_creator",
            )

    def test_withdrawing_without_an_entry(self, server: LiveServer) -> None:
        with player(server, "Organiza") as host, player(server, "Ana") as ana:
            tid = create(host, minitorneo())["tournament"]["id"]
            unchanged(
                server,
                tid,
                lambda: ana.post(f"/api/tournaments/{tid}/withdraw", json={}),
                409,
                "tournament_not_registered",
            )

    def test_a_private_event_needs_its_invitation(self, server: LiveServer) -> None:
        with player(server, "Organiza") as host, player(server, "Ana") as ana, player(server, "Beto") as beto:
            made = create(host, suizo(private=True))
            tid, invite = made["tournament"]["id"], made["invite"]
            assert isinstance(invite, str) and len(invite) >= 16
            assert made["tournament"]["me"]["invite"] == invite
            assert invite not in str(detail(server, tid, invite))  # nobody else is shown it
            assert httpx.get(f"{server.http}/api/tournaments", timeout=20).json()["tournaments"] == []
            refused(httpx.get(f"{server.http}/api/tournaments/{tid}", timeout=20), 403, "tournament_private")
            refused(
                ana.get(f"/api/tournaments/{tid}", params={"invite": "x" * 20}), 403, "tournament_private"
            )
            unchanged(
                server,
                tid,
                lambda: ana.post(f"/api/tournaments/{tid}/register", json={}),
                403,
                "tournament_private",
            )
            bad = {"invite": invite[:-1] + ("a" if invite[-1] != "a" else "b")}
            unchanged(
                server,
                tid,
                lambda: ana.post(f"/api/tournaments/{tid}/register", json=bad),
                403,
                "tournament_private",
            )
            entered = ana.post(f"/api/tournaments/{tid}/register", json={"invite": invite})
            assert entered.status_code == 200 and entered.json()["me"]["invite"] is None
            assert ana.get(f"/api/tournaments/{tid}").status_code == 200  # in it: no invitation needed
            assert host.post(f"/api/tournaments/{tid}/register", json={}).status_code == 200  # its creator
            assert beto.get(f"/api/tournaments/{tid}", params={"invite": invite}).status_code == 200
            # On profiles: only on the player's own list.
            assert [t["id"] for t in ana.get("/api/players/ana/tournaments").json()["tournaments"]] == [tid]
            assert beto.get("/api/players/ana/tournaments").json()["tournaments"] == []
            assert beto.get("/api/players/ana").json()["tournaments"] == []

    def test_a_rated_event_with_nobody_in_it_does_not_start(self, server: LiveServer) -> None:
        with player(server, "Organiza") as host, player(server, "Ana") as ana:
            tid = create(host, suizo(rated=True))["tournament"]["id"]
            unchanged(
                server,
                tid,
                lambda: host.post(f"/api/tournaments/{tid}/start", json={}),
                409,
                "tournament_bots_only",
            )
            unchanged(
                server,
                tid,
                lambda: ana.post(f"/api/tournaments/{tid}/start", json={}),
                409,
                "tournament_creator",
            )

    def test_a_barred_player_is_refused_by_events_requiring_attendance(self, server: LiveServer) -> None:
        with player(server, "Organiza") as host, player(server, "Ana") as ana:
            strict = create(host, suizo(requires_attendance=True))["tournament"]["id"]
            lenient = create(host, suizo(name="Suizo abierto"))["tournament"]["id"]
            ana_id = ana.get("/api/me").json()["id"]
            until = server.settings.clock.now() + 7 * 86400

            async def bar() -> None:
                await server.state.store.bar(ana_id, until)

            server.on_server(bar)

            def attempt() -> httpx.Response:
                return ana.post(f"/api/tournaments/{strict}/register", json={})

            unchanged(server, strict, attempt, 403, "tournament_barred")
            assert ana.get(f"/api/tournaments/{strict}").json()["me"]["can_register"] is False
            assert ana.get(f"/api/tournaments/{lenient}").json()["me"]["can_register"] is True
            body = attempt().json()
            assert "UTC" in body["message"] and "UTC" in body["message_en"]
            assert ana.post(f"/api/tournaments/{lenient}/register", json={}).status_code == 200
            server.advance(7 * 86400 + 1)  # the bar is over
            assert attempt().status_code == 200

    def test_a_bad_configuration_names_its_field_and_makes_nothing(self, server: LiveServer) -> None:
        with player(server, "Organiza") as host:
            for config, parameter in [
                (minitorneo(size=6), "size"),
                (minitorneo(name="x"), "name"),
                (suizo(rounds=None), "rounds"),
                ({**minitorneo(), "color": "rojo"}, "color"),
                (minitorneo(rated="sí"), "rated"),
            ]:
                answer = host.post("/api/tournaments", json=config)
                refused(answer, 422, "tournament_config")
                assert answer.json()["parameter"] == parameter
            refused(host.post("/api/tournaments", json=[1]), 422, "bad_request")
        for status in ("upcoming", "live", "finished"):
            listed = httpx.get(f"{server.http}/api/tournaments", params={"status": status}, timeout=20).json()
            assert listed["tournaments"] == []

    def test_unknown_events_lists_and_guests(self, server: LiveServer) -> None:
        refused(httpx.get(f"{server.http}/api/tournaments/nada", timeout=20), 404, "tournament_not_found")
        refused(
            httpx.get(f"{server.http}/api/tournaments?status=pronto", timeout=20), 422, "bad_tournament_list"
        )
        refused(httpx.get(f"{server.http}/api/tournaments?page=0", timeout=20), 422, "bad_request")
        guest = httpx.post(f"{server.http}/api/tournaments", json=minitorneo(), timeout=20)
        refused(guest, 401, "login_required")
        with player(server, "Ana") as ana:
            refused(ana.post("/api/tournaments/nada/register", json={}), 404, "tournament_not_found")
            refused(ana.get("/api/players/nadie/tournaments"), 404, "no_such_player")


class TestProfile:
    def test_places_are_listed_on_the_profile_the_latest_first(self, server: LiveServer) -> None:
        with player(server, "Organiza") as host, player(server, "Ana") as ana:
            first = create(host, suizo(name="Primero"))["tournament"]["id"]
            ana.post(f"/api/tournaments/{first}/register", json={})
            server.advance(60)
            second = create(host, suizo(name="Segundo"))["tournament"]["id"]
            ana.post(f"/api/tournaments/{second}/register", json={})
            ana_id = ana.get("/api/me").json()["id"]

            async def placed() -> None:
                await server.state.store.set_places(first, {ana_id: 2})

            server.on_server(placed)
            listed = httpx.get(f"{server.http}/api/players/ana/tournaments", timeout=20).json()["tournaments"]
            assert [(t["name"], t["place"]) for t in listed] == [("Segundo", None), ("Primero", 2)]
            profile = httpx.get(f"{server.http}/api/players/Ana", timeout=20).json()
            assert profile["tournaments"] == listed
            assert httpx.get(f"{server.http}/api/players/organiza", timeout=20).json()["tournaments"] == []


@pytest.fixture
def directed(database_url: str) -> Iterator[LiveServer]:
    """A live server with its director: it plays a bots-only event out as the clock is moved."""
    with live(database_url, registrations_per_address_per_hour=1000, between_rounds_seconds=0) as running:
        yield running


class TestDuplicadoSeeds:
    def test_a_rounds_seeds_are_withheld_while_played_and_shown_after(
        self, directed: LiveServer, tmp_path: Path
    ) -> None:
        server = directed
        config = {
            "name": "Duplicado de prueba",
            "format": "duplicado",
            "entry": "duel",
            "size": 4,
            "rounds": 2,
            "hands": 2,
            "target": 2,
            "rated": False,
            "bot_fill": True,
            "bot_level": "greedy",
        }
        with player(server, "Organiza") as host:
            tid = create(host, config)["tournament"]["id"]
            started = host.post(f"/api/tournaments/{tid}/start", json={})
            assert started.status_code == 200, started.text
        withheld = 0
        for _ in range(5000):
            rounds = detail(server, tid)["rounds"]
            for plan in rounds:
                if any(game["state"] == "playing" for game in plan["games"]):
                    assert plan["seeds"] is None  # never while a table of the round plays
                    withheld += 1
            if rounds and rounds[0]["seeds"] is not None:
                break
            server.advance(1.0)
        else:
            raise AssertionError("round 1 was never revealed")
        assert withheld > 0
        first = rounds[0]
        seeds = first["seeds"]
        assert first["commitments"] and len(seeds) == len(first["commitments"]) == 2
        assert all(set(shown) == {"seed", "salt", "commitment"} for shown in seeds)  # never the master
        for shown, commitment in zip(seeds, first["commitments"], strict=True):
            made = hashlib.sha256(bytes.fromhex(shown["seed"]) + bytes.fromhex(shown["salt"])).hexdigest()
            assert made == shown["commitment"] == commitment
        # The very deals every table of the round was dealt, as their records hold them.
        table_ids = [game["table"] for game in first["games"]]

        async def dealt() -> list[list[dict[str, str]]]:
            found = []
            for table_id in table_ids:
                events = await server.state.store.load_events(table_id)
                found.append(
                    [
                        {key: event.data[key] for key in ("seed", "salt", "commitment")}
                        for event in events
                        if event.kind == "round_started"
                    ]
                )
            return found

        assert table_ids and all(deals == seeds for deals in server.on_server(dealt))
        master = document(server, tid)["secret"]
        assert master not in json.dumps(detail(server, tid))  # the master secret is never shown
        # Each table's record of the round, as anyone downloads it, checks out with `tranque
        # verify`: every deal against the commitment published before the round, every move.
        with client(server) as http:
            for number, table_id in enumerate(table_ids):
                answer = http.get(f"/api/tables/{table_id}/record")
                assert answer.status_code == 200, answer.text
                record = answer.json()
                assert [hand["seed"] for hand in record["rounds"]] == [shown["seed"] for shown in seeds]
                path = tmp_path / f"mesa{number}.json"
                path.write_text(json.dumps(record))
                assert main(["verify", str(path)]) == 0


FORMATS: dict[str, dict[str, Any]] = {
    "minitorneo-pairs": {"format": "minitorneo", "entry": "pairs", "size": 4, "fill_wait_seconds": 0},
    "suizo-duel": {"format": "suizo", "entry": "duel", "size": 8, "rounds": 3},
    "suizo-pairs": {"format": "suizo", "entry": "pairs", "size": 8, "rounds": 2},
    "suizo-rotating": {"format": "suizo", "entry": "rotating", "size": 8, "rounds": 3},
    "arena-duel": {"format": "arena", "entry": "duel", "size": 8, "window_seconds": 120},
}


class TestEveryFormatOnARealServer:
    """Each format, bots filling the field, played out by the director of a real server (its
    tables, store and clock) and read back as a guest reads the page: it finishes, every game
    was played at its own table to its end, the standings are the ones the games shown make
    (wins, then efectividad), and where the field allows it nobody meets the same opponent
    or, rotating, the same partner twice. (Bots fill a suizo to its least field: two duels,
    two pairs, four rotating players; big fields are the pairers' own property tests.)"""

    @pytest.mark.parametrize("name", list(FORMATS))
    def test_a_bot_filled_event_plays_out_to_standings_its_games_make(
        self, directed: LiveServer, name: str
    ) -> None:
        server = directed
        config = {"name": f"Prueba {name}", "target": 10, "rated": False, "bot_fill": True, **FORMATS[name]}
        config["bot_level"] = "greedy"
        with player(server, "Organiza") as host:
            tid = create(host, config)["tournament"]["id"]
            if config["format"] != "minitorneo":
                started = host.post(f"/api/tournaments/{tid}/start", json={})
                assert started.status_code == 200, started.text
        for _ in range(20_000):
            page = detail(server, tid)
            if page["status"] == "finished":
                break
            server.advance(1.0)
        else:
            raise AssertionError(f"{name} did not finish: {page['status']}")
        games = [game for plan in page["rounds"] for game in plan["games"]]
        assert games and all(game["state"] == "done" for game in games)
        assert len({game["table"] for game in games}) == len(games)  # a table of its own each
        # The standings are what the games shown make: wins (byes too) and efectividad.
        wins: dict[int, int] = {}
        effect: dict[int, int] = {}
        for game in games:
            points = [side["points"] for side in game["sides"]]
            for index, side in enumerate(game["sides"]):
                for entrant in side["entrants"]:
                    wins[entrant] = wins.get(entrant, 0) + int(side["won"])
                    effect[entrant] = effect.get(entrant, 0) + 2 * points[index] - sum(points)
        for plan in page["rounds"]:
            for entrant in plan["byes"]:
                wins[entrant] = wins.get(entrant, 0) + 1
        for row in page["standings"]:
            assert (row["wins"], row["efectividad"]) == (
                wins.get(row["entrant"], 0),
                effect.get(row["entrant"], 0),
            )
        if config["format"] == "suizo":
            ordered = [(row["wins"], row["efectividad"]) for row in page["standings"]]
            assert ordered == sorted(ordered, reverse=True)
        if config["format"] == "arena":
            assert len(games) >= 2  # paired again as each game ended, within the window
        else:
            # Each entrant played every round it was not given a bye (the field is all bots).
            rounds = len(page["rounds"])
            for row in page["standings"]:
                assert row["played"] + row["byes"] == rounds
        # Nobody met the same opponents (or, rotating, the same partner) twice where the field
        # can avoid it: n entrants meet n - 1 others; rotating, each has n - 1 partners to have.
        field_size, rounds_played = len(page["entrants"]), len(page["rounds"])
        if config["format"] == "suizo" and rounds_played <= field_size - 1:
            met: set[frozenset[int]] = set()
            for game in games:
                sides = [tuple(side["entrants"]) for side in game["sides"]]
                if config["entry"] == "rotating":
                    meetings = [frozenset(side) for side in sides]  # partners
                else:
                    meetings = [frozenset(sides[0] + sides[1])]  # opponents
                for meeting in meetings:
                    assert meeting not in met, f"{sorted(meeting)} met twice"
                    met.add(meeting)
