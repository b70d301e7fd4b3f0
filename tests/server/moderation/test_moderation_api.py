"""The moderators' API and players' reports over real HTTP and real sockets
(docs/protocol.md, «Moderation»): roles, report rules, permissions, each sanction and its
undo, the audit log, and a banned account hidden from the rankings."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tests.server.moderation.helpers import OPEN, account, playing_table, seat_state
from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, database_url, live, login, register
from tests.server.support.players_helpers import Seat, save_game
from tranque.cli import main
from tranque.server.accounts.sessions import LOGGED_OUT_CLOSE, SESSION_COOKIE
from tranque.server.moderation.standing import utc_text

__all__ = ["database_url"]  # the fixture, from http_helpers


def fresh(server: LiveServer) -> httpx.Client:
    """A new HTTP client (no session), closed after the test."""
    http = client(server)
    OPEN.append(http)
    return http


def queue(moderator: httpx.Client) -> list[dict[str, Any]]:
    response = moderator.get("/api/moderation/queue")
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


def audit(moderator: httpx.Client) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = moderator.get("/api/moderation/log").json()["entries"]
    return entries


def sanction(moderator: httpx.Client, **body: Any) -> httpx.Response:
    return moderator.post("/api/moderation/sanctions", json={"reason": "pruebas", **body})


def test_the_admin_command_grants_roles_and_refuses_unknown_names_and_roles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    with live(url) as server, client(server) as http:
        assert register(http, "Dueña").status_code == 201
        assert http.get("/api/me").json()["role"] == "player"
        refused = http.get("/api/moderation/queue")
        assert (refused.status_code, refused.json()["code"]) == (403, "not_a_moderator")
        capsys.readouterr()
        assert main(["admin", "grant", "Dueña", "admin", "--db", url]) == 0
        assert "admin" in capsys.readouterr().out
        assert http.get("/api/me").json()["role"] == "admin"
        assert http.get("/api/moderation/queue").status_code == 200
        # Unknown names and roles: one line, exit 2, nothing changed.
        assert main(["admin", "grant", "Nadie", "moderator", "--db", url]) == 2
        assert "Nadie" in capsys.readouterr().err
        assert main(["--lang", "en", "admin", "grant", "Dueña", "boss", "--db", url]) == 2
        assert "no role «boss»" in capsys.readouterr().err
        assert http.get("/api/me").json()["role"] == "admin"
        grants = [entry for entry in audit(http) if entry["action"] == "grant"]
        assert [(entry["player"], entry["moderator"], entry["details"]["role"]) for entry in grants] == [
            ("Dueña", None, "admin")
        ]
        # Demoted: the moderators' API is closed to it again.
        assert main(["admin", "grant", "dueña", "player", "--db", url]) == 0
        assert http.get("/api/moderation/queue").status_code == 403


def test_reports_one_per_game_and_person_never_oneself_nor_a_bot() -> None:
    with live(reports_per_day=4) as server:
        ana, beto = account(server, "Ana"), account(server, "Beto")
        moderator = account(server, "Mod", "moderator")
        assert ana.post("/api/me/bots", json={"name": "Robotina"}).status_code == 201
        made = ana.post("/api/reports", json={"player": "Beto", "reason": "abuse", "note": "insultos"})
        assert made.status_code == 201, made.text
        refusals = [
            ({"player": "Beto", "reason": "abuse"}, 409, "already_reported"),
            ({"player": "Ana", "reason": "cheating"}, 422, "report_self"),
            ({"player": "Robotina", "reason": "bot_use"}, 422, "report_bot"),
            ({"player": "Nadie", "reason": "cheating"}, 404, "no_such_player"),
            ({"player": "Beto", "reason": "grosero"}, 422, "bad_report_reason"),
            ({"player": "Beto", "reason": "other", "note": "x" * 501}, 422, "report_note_too_long"),
            ({"player": "Beto", "reason": "cheating", "game": "t-nada.1"}, 404, "report_no_game"),
        ]
        for body, status, code in refusals:
            answer = ana.post("/api/reports", json=body)
            assert (answer.status_code, answer.json()["code"]) == (status, code), body
            assert answer.json()["message"] and answer.json()["message_en"]
        assert [
            (item["kind"], item["reporter"], item["reason"], item["note"]) for item in queue(moderator)
        ] == [("report", "Ana", "abuse", "insultos")]
        assert queue(moderator)[0]["subjects"] == [{"id": beto.get("/api/me").json()["id"], "name": "Beto"}]
        # A game they played together: one report for it, besides the one from the profile.
        ana_id, beto_id = ana.get("/api/me").json()["id"], beto.get("/api/me").json()["id"]
        save_game(server, "t-juntos.1", [Seat(ana_id, "Ana"), Seat(beto_id, "Beto", won=True)])
        about = {"player": "Beto", "reason": "stalling", "game": "t-juntos.1"}
        assert ana.post("/api/reports", json=about).status_code == 201
        assert ana.post("/api/reports", json=about).json()["code"] == "already_reported"
        game = queue(moderator)[1]["game"]
        assert game == {
            "id": "t-juntos.1",
            "record": "/api/games/t-juntos.1/record",
            "replay": "/#/partida/t-juntos.1",
        }
        # A guest cannot report; the day's quota holds.
        assert (
            httpx.post(server.http + "/api/reports", json={"player": "Beto", "reason": "abuse"}).status_code
            == 401
        )
        # Mod did not play that game: not about it.
        other = ana.post("/api/reports", json={"player": "Mod", "reason": "other", "game": "t-juntos.1"})
        assert other.json()["code"] == "report_no_game"
        assert len(queue(moderator)) == 2


def test_the_report_quota_per_day() -> None:
    with live(reports_per_day=2) as server:
        ana = account(server, "Ana")
        for name in ("Beto", "Caro", "Dani"):
            account(server, name)
        assert ana.post("/api/reports", json={"player": "Beto", "reason": "abuse"}).status_code == 201
        assert ana.post("/api/reports", json={"player": "Caro", "reason": "abuse"}).status_code == 201
        over = ana.post("/api/reports", json={"player": "Dani", "reason": "abuse"})
        assert (over.status_code, over.json()["code"]) == (429, "too_many_reports")
        server.advance(24 * 3600)
        assert ana.post("/api/reports", json={"player": "Dani", "reason": "abuse"}).status_code == 201


def test_a_player_gets_403_on_every_moderation_endpoint() -> None:
    with live() as server:
        ana = account(server, "Ana")
        account(server, "Beto")
        calls = [
            ana.get("/api/moderation/queue"),
            ana.get("/api/moderation/log"),
            ana.get("/api/moderation/accounts/Beto"),
            sanction(ana, player="Beto", kind="ban"),
            ana.post("/api/moderation/sanctions/1/lift", json={"reason": "x"}),
            ana.post("/api/moderation/items/1/close", json={"resolution": "x"}),
        ]
        assert [(call.status_code, call.json()["code"]) for call in calls] == [(403, "not_a_moderator")] * 6
        guest = httpx.get(server.http + "/api/moderation/queue")
        assert (guest.status_code, guest.json()["code"]) == (401, "login_required")
        assert login(ana, "Beto").status_code == 200  # Beto was not banned by any of it


def test_suspending_closes_sockets_covers_the_seat_refuses_login_and_undo_restores() -> None:
    with live() as server:
        moderator = account(server, "Mod", "moderator")
        pedro = account(server, "Pedro")
        pedro_id = pedro.get("/api/me").json()["id"]
        table_id, token = playing_table(server, pedro_id, "Pedro")
        cookie = {"Cookie": f"{SESSION_COOKIE}={pedro.cookies[SESSION_COOKIE]}"}

        async def scenario() -> tuple[int, str, httpx.Response]:
            async with websockets.connect(server.ws, additional_headers=cookie) as socket:
                await socket.send(json.dumps({"type": "hello", "table": table_id, "token": token, "id": 1}))
                while json.loads(await socket.recv()).get("id") != 1:
                    pass
                answer = await asyncio.to_thread(
                    sanction, moderator, player="Pedro", kind="suspend", minutes=60
                )
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    while True:
                        await socket.recv()
                assert closed.value.rcvd is not None
                return closed.value.rcvd.code, closed.value.rcvd.reason, answer

        code, reason, answer = asyncio.run(scenario())
        assert answer.status_code == 201, answer.text
        assert (code, reason) == (LOGGED_OUT_CLOSE, "account_suspended")
        assert seat_state(server, table_id, 0)["state"] == "covered"
        assert pedro.get("/api/me").status_code == 401  # the session ended
        refused = login(fresh(server), "Pedro")
        assert (refused.status_code, refused.json()["code"]) == (403, "account_suspended")
        assert utc_text(answer.json()["until"]) in refused.json()["message_en"]
        assert "suspendida hasta el" in refused.json()["message"]

        # The old seat token no longer opens the seat.
        async def old_token() -> dict[str, Any]:
            async with websockets.connect(server.ws) as socket:
                await socket.send(json.dumps({"type": "hello", "table": table_id, "token": token, "id": 1}))
                while True:
                    frame = json.loads(await socket.recv())
                    if frame.get("id") == 1:
                        return dict(frame)

        assert asyncio.run(old_token()).get("seat") is None
        state = moderator.get("/api/moderation/accounts/Pedro").json()
        assert (state["barred"], state["sanctions"][0]["holds"]) == ("suspend", True)
        lift = moderator.post(
            f"/api/moderation/sanctions/{answer.json()['id']}/lift", json={"reason": "error"}
        )
        assert lift.status_code == 200 and lift.json()["lifted_by"] == "Mod"
        again = moderator.post(
            f"/api/moderation/sanctions/{answer.json()['id']}/lift", json={"reason": "error"}
        )
        assert again.json()["code"] == "sanction_lifted"
        assert login(pedro, "Pedro").status_code == 200
        seats = pedro.get("/api/me/seats").json()
        assert [(seat["table"], seat["seat"]) for seat in seats] == [(table_id, 0)]
        assert [(e["action"], e["player"], e["moderator"], e["reason"]) for e in audit(moderator)[:2]] == [
            ("unsuspend", "Pedro", "Mod", "error"),
            ("suspend", "Pedro", "Mod", "pruebas"),
        ]


def test_a_banned_account_leaves_its_seat_at_a_waiting_table() -> None:
    with live() as server:
        moderator = account(server, "Mod", "moderator")
        pedro = account(server, "Pedro")
        table_id, _ = playing_table(server, pedro.get("/api/me").json()["id"], "Pedro", start=False)
        assert seat_state(server, table_id, 0)["kind"] == "human"
        assert sanction(moderator, player="Pedro", kind="ban").status_code == 201
        assert seat_state(server, table_id, 0)["kind"] == "empty"
        assert pedro.get("/api/me/seats").status_code == 401


def test_a_suspension_ends_by_itself() -> None:
    with live() as server:
        moderator = account(server, "Mod", "moderator")
        account(server, "Pedro")
        assert sanction(moderator, player="Pedro", kind="suspend", minutes=10).status_code == 201
        assert login(fresh(server), "Pedro").json()["code"] == "account_suspended"
        server.advance(10 * 60)
        assert login(fresh(server), "Pedro").status_code == 200


def test_bad_sanctions_are_refused_and_change_nothing() -> None:
    with live() as server:
        moderator = account(server, "Mod", "moderator")
        account(server, "Otra", "moderator")
        account(server, "Pedro")
        cases: list[tuple[dict[str, Any], int, str]] = [
            ({"player": "Pedro", "kind": "azotes"}, 422, "bad_sanction"),
            ({"player": "Pedro", "kind": "suspend"}, 422, "sanction_minutes"),
            ({"player": "Pedro", "kind": "suspend", "minutes": 0}, 422, "sanction_minutes"),
            ({"player": "Pedro", "kind": "ban", "reason": "  "}, 422, "sanction_reason_missing"),
            ({"player": "Mod", "kind": "ban"}, 422, "sanction_self"),
            ({"player": "Otra", "kind": "ban"}, 409, "sanction_moderator"),
            ({"player": "Nadie", "kind": "ban"}, 404, "no_such_player"),
        ]
        for body, status, code in cases:
            answer = sanction(moderator, **body)
            assert (answer.status_code, answer.json()["code"]) == (status, code), body
        assert {entry["action"] for entry in audit(moderator)} == {"grant"}  # the roles given above
        assert login(fresh(server), "Pedro").status_code == 200
        assert moderator.post("/api/moderation/sanctions/99/lift", json={"reason": "x"}).json()["code"] == (
            "no_such_sanction"
        )


def test_muting_refuses_the_accounts_phrases_until_undone() -> None:
    with live() as server:
        moderator = account(server, "Mod", "moderator")
        pedro = account(server, "Pedro")
        table_id, token = playing_table(server, pedro.get("/api/me").json()["id"], "Pedro")
        cookie = {"Cookie": f"{SESSION_COOKIE}={pedro.cookies[SESSION_COOKIE]}"}

        async def say(phrase: str) -> dict[str, Any]:
            async with websockets.connect(server.ws, additional_headers=cookie) as socket:
                await socket.send(json.dumps({"type": "hello", "table": table_id, "token": token, "id": 1}))
                await socket.send(json.dumps({"type": "phrase", "phrase": phrase, "id": 2}))
                while True:
                    frame = json.loads(await socket.recv())
                    if frame.get("id") == 2:
                        return dict(frame)

        muted = sanction(moderator, player="Pedro", kind="mute", minutes=30)
        assert muted.status_code == 201
        answer = asyncio.run(say("buena"))
        assert (answer["type"], answer["code"]) == ("error", "account_muted")
        assert login(fresh(server), "Pedro").status_code == 200  # a mute keeps nobody out
        moderator.post(f"/api/moderation/sanctions/{muted.json()['id']}/lift", json={"reason": "ya"})
        server.advance(5)  # past the table's phrase interval
        assert asyncio.run(say("gracias"))["type"] == "ack"
        assert [entry["action"] for entry in audit(moderator)[:2]] == ["unmute", "mute"]


def _ranked(server: LiveServer) -> list[str]:
    rows = httpx.get(server.http + "/api/rankings", params={"by": "rating", "pool": "duel"}).json()["rows"]
    return [row["name"] for row in rows]


def test_a_banned_account_is_hidden_from_the_rankings_until_unbanned(database_url: str) -> None:
    with live(database_url) as server:
        moderator = account(server, "Mod", "moderator")
        ana, beto = account(server, "Ana"), account(server, "Beto")
        ids = [http.get("/api/me").json()["id"] for http in (ana, beto)]
        seats = [
            Seat(ids[0], "Ana", won=True, xp=20, rating=(25.0, 8.0, 28.0, 7.0)),
            Seat(ids[1], "Beto", xp=5, rating=(25.0, 8.0, 22.0, 7.0)),
        ]
        save_game(server, "t-uno.1", seats, rated=True)
        assert _ranked(server) == ["Ana", "Beto"]
        banned = sanction(moderator, player="Ana", kind="ban")
        assert banned.status_code == 201 and banned.json()["until"] is None
        assert _ranked(server) == ["Beto"]
        again = sanction(moderator, player="Ana", kind="ban")  # twice: what was withheld stays so
        assert again.status_code == 201
        refused = login(fresh(server), "Ana")
        assert (refused.status_code, refused.json()["code"]) == (403, "account_banned")
        xp = httpx.get(server.http + "/api/rankings", params={"by": "xp", "period": "all"}).json()["rows"]
        assert [row["name"] for row in xp] == ["Beto"]
        moderator.post(f"/api/moderation/sanctions/{banned.json()['id']}/lift", json={"reason": "apelación"})
        assert _ranked(server) == ["Beto"]  # the second ban still holds
        moderator.post(f"/api/moderation/sanctions/{again.json()['id']}/lift", json={"reason": "apelación"})
        assert _ranked(server) == ["Ana", "Beto"]
        assert login(fresh(server), "Ana").status_code == 200


def test_items_of_other_kinds_fit_the_queue_and_closing_one_is_logged() -> None:
    with live() as server:
        moderator = account(server, "Mod", "moderator")
        ids = [account(server, name).get("/api/me").json()["id"] for name in ("Ana", "Beto")]

        async def raise_item() -> int:
            evidence = {"games": 12, "points_moved": 840}
            item: int = await server.state.store.add_review("pair_boosting", ids, evidence, "t-x.1", at=5.0)
            return item

        item_id = server.on_server(raise_item)
        (item,) = queue(moderator)
        assert (item["id"], item["kind"], item["reporter"], item["evidence"]) == (
            item_id,
            "pair_boosting",
            None,
            {"games": 12, "points_moved": 840},
        )
        assert [subject["name"] for subject in item["subjects"]] == ["Ana", "Beto"]
        closed = moderator.post(f"/api/moderation/items/{item_id}/close", json={"resolution": "sin pruebas"})
        assert closed.status_code == 200 and closed.json()["status"] == "closed"
        assert queue(moderator) == []
        again = moderator.post(f"/api/moderation/items/{item_id}/close", json={"resolution": "otra vez"})
        assert again.json()["code"] == "item_closed"
        (entry,) = [entry for entry in audit(moderator) if entry["action"] == "close"]
        assert (entry["moderator"], entry["player"], entry["item"], entry["reason"]) == (
            "Mod",
            "Ana",
            item_id,
            "sin pruebas",
        )
