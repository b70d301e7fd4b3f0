"""The operator's API and `tranque admin ...` over real HTTP and real sockets
(docs/deploy.md, «Admin»): admins only, finding accounts and tables, a table's private log and
its check, ending a stuck table, closing an account's sockets, banning and unbanning, and the
admin token the CLI uses."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from tests.server.moderation.helpers import OPEN, account, playing_table
from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, live, login
from tranque.cli import main
from tranque.engine import Rules
from tranque.server.accounts.sessions import LOGGED_OUT_CLOSE, SESSION_COOKIE
from tranque.server.table.state import TableKind, TableOptions

ENDPOINTS = [
    ("GET", "/api/admin/players?prefix=a", None),
    ("GET", "/api/admin/tables/x", None),
    ("GET", "/api/admin/tables/x/log", None),
    ("POST", "/api/admin/tables/x/verify", {}),
    ("POST", "/api/admin/tables/x/end", {"reason": "r"}),
    ("POST", "/api/admin/accounts/Ana/close-sockets", {"reason": "r"}),
    ("POST", "/api/admin/ban", {"player": "Ana", "reason": "r"}),
    ("POST", "/api/admin/unban", {"player": "Ana", "reason": "r"}),
]


def fresh(server: LiveServer) -> httpx.Client:
    http = client(server)
    OPEN.append(http)
    return http


def call(http: httpx.Client, method: str, path: str, body: Any = None, **kwargs: Any) -> httpx.Response:
    return http.request(method, path, json=body, **kwargs)


def audit(admin: httpx.Client) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = admin.get("/api/moderation/log").json()["entries"]
    return entries


def admin_token(server: LiveServer, url: str, name: str, capsys: pytest.CaptureFixture[str]) -> str:
    """The token `tranque admin token` prints for `name`."""
    capsys.readouterr()
    assert main(["admin", "token", name, "--db", url]) == 0
    return capsys.readouterr().out.strip()


def cli(server: LiveServer, token: str, *args: str, monkeypatch: pytest.MonkeyPatch) -> int:
    monkeypatch.setenv("TRANQUE_ADMIN_TOKEN", token)
    return main(["admin", *args, "--site", server.http])


def test_only_admins_get_anything_and_a_bad_token_is_refused() -> None:
    with live() as server:
        account(server, "Ana")
        for role in ("player", "moderator"):
            http = account(server, f"Un_{role}", role)
            answers = [call(http, *endpoint) for endpoint in ENDPOINTS]
            assert [(a.status_code, a.json()["code"]) for a in answers] == [(403, "not_an_admin")] * len(
                ENDPOINTS
            )
            assert "administrators" in answers[0].json()["message_en"]
            assert "administradores" in answers[0].json()["message"]
        guest = fresh(server)
        assert [call(guest, *endpoint).json()["code"] for endpoint in ENDPOINTS] == ["login_required"] * len(
            ENDPOINTS
        )
        forged = {"Authorization": "Bearer tqa_nothing"}
        answers = [call(guest, *endpoint, headers=forged) for endpoint in ENDPOINTS]
        assert {(a.status_code, a.json()["code"]) for a in answers} == {(401, "bad_admin_token")}
        assert login(guest, "Ana").status_code == 200  # none of it banned Ana


def test_an_admin_finds_an_account_its_table_and_reads_the_private_log() -> None:
    with live() as server:
        admin = account(server, "Jefa", "admin")
        pedro = account(server, "Pedro")
        account(server, "Pedrito")
        account(server, "Ana")
        table_id, _ = playing_table(server, pedro.get("/api/me").json()["id"], "Pedro")
        found = admin.get("/api/admin/players", params={"prefix": "PED"}).json()["players"]
        assert [player["name"] for player in found] == ["Pedrito", "Pedro"]
        assert found[0]["seats"] == []
        assert [(s["table"], s["seat"], s["phase"]) for s in found[1]["seats"]] == [(table_id, 0, "playing")]
        assert (found[1]["role"], found[1]["barred"], found[1]["muted"]) == ("player", None, False)
        assert admin.get("/api/admin/players", params={"prefix": "zz"}).json() == {"players": []}

        for asked in (table_id, f"{table_id}.1"):  # the table, or its first game
            table = admin.get(f"/api/admin/tables/{asked}").json()
            assert (table["table"], table["status"], table["live"], table["owned_here"], table["kind"]) == (
                table_id,
                "playing",
                True,
                True,
                "public",
            )
            assert [(p["seat"], p["name"], p["kind"]) for p in table["players"]] == [
                (0, "Pedro", "human"),
                (1, table["players"][1]["name"], "bot"),
            ]
        missing = admin.get("/api/admin/tables/nada")
        assert (missing.status_code, missing.json()["code"]) == (404, "no_such_game_or_table")

        log = admin.get(f"/api/admin/tables/{table_id}/log").json()
        assert log["private"] is True
        kinds = [event["kind"] for event in log["events"]]
        assert "round_started" in kinds
        dealt = next(event for event in log["events"] if event["kind"] == "round_started")
        assert len(dealt["data"]["hands"]) == 2 and all(
            dealt["data"]["hands"]
        )  # every hand: the operator's view
        assert all("token_hash" not in event["data"] for event in log["events"])
        assert [c["commitment"] for c in log["commitments"]] == [dealt["data"]["commitment"]]
        assert log["commitments"][0]["revealed"] is False
        # Nothing finished yet: nothing to check.
        nothing = admin.post(f"/api/admin/tables/{table_id}/verify", json={})
        assert (nothing.status_code, nothing.json()["code"]) == (404, "no_record")


def bot_table(server: LiveServer) -> str:
    """A duel of two bots, played to its end."""
    state = server.state

    async def make() -> str:
        options = TableOptions(kind=TableKind.PUBLIC, bot_level="greedy", **state.settings.table_defaults())
        table = await state.registry.create(Rules.from_options("clasico", players=2), options)
        for seat in table.seats:
            await table.give_to_bot(seat, "greedy")
        await table.start_game()
        made: str = table.table_id
        return made

    table_id: str = server.on_server(make)

    async def over() -> bool:  # ...and its record stored (after the state, on a real database)
        return await state.store.load_record(table_id) is not None

    for _ in range(2000):
        if server.on_server(over):
            return table_id
        server.advance(10)
    raise AssertionError("the bots' game did not end")


def test_an_admin_checks_a_finished_games_deals_and_moves() -> None:
    with live() as server:
        admin = account(server, "Jefa", "admin")
        table_id = bot_table(server)
        verdict = admin.post(f"/api/admin/tables/{table_id}/verify", params={"lang": "en"}, json={})
        assert verdict.status_code == 200, verdict.text
        assert verdict.json()["ok"] is True and verdict.json()["rounds"]
        log = admin.get(f"/api/admin/tables/{table_id}/log").json()
        assert log["commitments"] and all(c["revealed"] for c in log["commitments"])
        assert admin.get(f"/api/admin/tables/{table_id}").json()["status"] == "finished"


async def _follow(server: LiveServer, table_id: str, token: str, cookie: dict[str, str]) -> Any:
    socket = await websockets.connect(server.ws, additional_headers=cookie)
    await socket.send(json.dumps({"type": "hello", "table": table_id, "token": token, "id": 1}))
    while json.loads(await socket.recv()).get("id") != 1:
        pass
    return socket


def test_ending_a_stuck_table_annuls_it_tells_its_players_why_and_is_logged() -> None:
    with live() as server:
        admin = account(server, "Jefa", "admin")
        pedro = account(server, "Pedro")
        table_id, token = playing_table(server, pedro.get("/api/me").json()["id"], "Pedro")
        cookie = {"Cookie": f"{SESSION_COOKIE}={pedro.cookies[SESSION_COOKIE]}"}
        reason = "La mesa se quedó trabada / the table got stuck"

        async def scenario() -> tuple[dict[str, Any], dict[str, Any], httpx.Response]:
            socket = await _follow(server, table_id, token, cookie)
            try:
                answer = await asyncio.to_thread(
                    admin.post, f"/api/admin/tables/{table_id}/end", json={"reason": reason}
                )
                while True:
                    frame = json.loads(await socket.recv())
                    if frame.get("kind") == "game_ended":
                        break
                await socket.send(json.dumps({"type": "act", "action": {"type": "pass"}, "id": 2}))
                while True:
                    refusal = json.loads(await socket.recv())
                    if refusal.get("id") == 2:
                        return frame, refusal, answer
            finally:
                await socket.close()

        ended, refusal, answer = asyncio.run(scenario())
        assert answer.status_code == 200, answer.text
        assert ended["data"]["reason"] == "annulled"
        assert ended["data"]["operator_reason"] == reason
        assert refusal["type"] == "error" and refusal["code"] == "not_playing"
        assert admin.get(f"/api/admin/tables/{table_id}").json()["status"] == "annulled"
        entry = audit(admin)[0]
        assert (entry["action"], entry["moderator"], entry["reason"], entry["details"]) == (
            "end_table",
            "Jefa",
            reason,
            {"table": table_id},
        )
        # A table that is over already: refused, and nothing more is logged.
        again = admin.post(f"/api/admin/tables/{table_id}/end", json={"reason": "otra vez"})
        assert (again.status_code, again.json()["code"]) == (409, "already_over")
        assert "nothing to annul" in again.json()["message_en"]
        assert len([e for e in audit(admin) if e["action"] == "end_table"]) == 1
        empty = admin.post(f"/api/admin/tables/{table_id}/end", json={"reason": "  "})
        assert empty.json()["code"] == "sanction_reason_missing"


def test_closing_an_accounts_sockets_leaves_its_seat_and_session() -> None:
    with live() as server:
        admin = account(server, "Jefa", "admin")
        pedro = account(server, "Pedro")
        table_id, token = playing_table(server, pedro.get("/api/me").json()["id"], "Pedro")
        cookie = {"Cookie": f"{SESSION_COOKIE}={pedro.cookies[SESSION_COOKIE]}"}

        async def scenario() -> tuple[int, str, httpx.Response]:
            socket = await _follow(server, table_id, token, cookie)
            answer = await asyncio.to_thread(
                admin.post, "/api/admin/accounts/pedro/close-sockets", json={"reason": "socket colgado"}
            )
            with pytest.raises(websockets.ConnectionClosed) as closed:
                while True:
                    await socket.recv()
            assert closed.value.rcvd is not None
            return closed.value.rcvd.code, closed.value.rcvd.reason, answer

        code, reason, answer = asyncio.run(scenario())
        assert answer.json() == {"name": "Pedro", "closed_here": 1}
        assert (code, reason) == (LOGGED_OUT_CLOSE, "closed_by_admin")
        assert pedro.get("/api/me").status_code == 200  # not a sanction: the session holds
        seat = server.state.registry.tables[table_id].state.seats[0]
        assert (seat.kind.value, seat.name) == ("human", "Pedro")
        entry = audit(admin)[0]
        assert (entry["action"], entry["player"], entry["moderator"]) == ("close_sockets", "Pedro", "Jefa")
        nobody = admin.post("/api/admin/accounts/Nadie/close-sockets", json={"reason": "x"})
        assert (nobody.status_code, nobody.json()["code"]) == (404, "no_such_player")


def test_the_cli_bans_and_unbans_with_an_admin_token_against_the_live_site(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    with live(url) as server:
        jefa = account(server, "Jefa")
        pedro = account(server, "Pedro")
        # Only an admin's account gets a token.
        assert main(["admin", "token", "Jefa", "--db", url]) == 2
        assert "no es admin" in capsys.readouterr().err
        assert main(["admin", "grant", "Jefa", "admin", "--db", url]) == 0
        token = admin_token(server, url, "Jefa", capsys)
        assert token.startswith("tqa_")
        assert cli(server, token, "ban", "Pedro", "--reason", "trampas", monkeypatch=monkeypatch) == 0
        assert "Pedro" in capsys.readouterr().out
        refused = login(fresh(server), "Pedro")
        assert (refused.status_code, refused.json()["code"]) == (403, "account_banned")
        assert pedro.get("/api/me").status_code == 401
        # Banning the banned again is one more ban; unbanning lifts every one in force.
        assert cli(server, token, "unban", "pedro", monkeypatch=monkeypatch) == 0
        assert login(fresh(server), "Pedro").status_code == 200
        assert cli(server, token, "unban", "Pedro", monkeypatch=monkeypatch) == 1
        assert "no tiene ninguna expulsión" in capsys.readouterr().err
        monkeypatch.setenv("TRANQUE_ADMIN_TOKEN", token)
        entries = jefa.get("/api/moderation/log").json()["entries"]
        assert [(e["action"], e["player"], e["moderator"]) for e in entries[:2]] == [
            ("unban", "Pedro", "Jefa"),
            ("ban", "Pedro", "Jefa"),
        ]
        # Finding, in English; a new token makes the old one useless.
        assert main(["--lang", "en", "admin", "find", "pe", "--site", server.http]) == 0
        assert "Pedro · role player" in capsys.readouterr().out
        newer = admin_token(server, url, "Jefa", capsys)
        assert cli(server, token, "find", "pe", monkeypatch=monkeypatch) == 1
        assert "bad_admin_token" in capsys.readouterr().err
        assert cli(server, newer, "find", "pe", monkeypatch=monkeypatch) == 0
        # Demoted: the token is worth nothing.
        assert main(["admin", "grant", "Jefa", "player", "--db", url]) == 0
        assert cli(server, newer, "find", "pe", monkeypatch=monkeypatch) == 1
        assert "not_an_admin" in capsys.readouterr().err


def test_the_cli_ends_a_table_and_says_so_in_one_line_when_it_cannot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    with live(url) as server:
        account(server, "Jefa", "admin")
        pedro = account(server, "Pedro")
        table_id, _ = playing_table(server, pedro.get("/api/me").json()["id"], "Pedro")
        token = admin_token(server, url, "Jefa", capsys)
        assert cli(server, token, "table", table_id, monkeypatch=monkeypatch) == 0
        assert "playing" in capsys.readouterr().out
        assert cli(server, token, "end", table_id, "--reason", "atascada", monkeypatch=monkeypatch) == 0
        assert table_id in capsys.readouterr().out
        assert cli(server, token, "end", table_id, "--reason", "atascada", monkeypatch=monkeypatch) == 1
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "already_over" in err
        assert cli(server, token, "log", table_id, monkeypatch=monkeypatch) == 0
        printed = capsys.readouterr()
        assert "Privado" in printed.err and json.loads(printed.out)["events"][-1]["kind"] == "game_ended"
    # Bad usage: 2; a site that does not answer: 1; each one line.
    gone = server.http  # stopped now: nothing answers there
    monkeypatch.delenv("TRANQUE_ADMIN_TOKEN")
    assert main(["admin", "end", "t1", "--reason", "x", "--site", gone]) == 2
    assert "TRANQUE_ADMIN_TOKEN" in capsys.readouterr().err
    monkeypatch.setenv("TRANQUE_ADMIN_TOKEN", "tqa_x")
    assert main(["admin", "end", "t1", "--reason", "x", "--site", gone]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no responde" in err
    assert main(["admin", "end", "t1"]) == 2
    assert "--reason" in capsys.readouterr().err


def test_the_processes_commands_speak_the_clusters_contract(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    with live(url) as server:
        account(server, "Jefa", "admin")
        token = admin_token(server, url, "Jefa", capsys)
        http = client(server, headers={"Authorization": f"Bearer {token}"})
        OPEN.append(http)
        if http.get("/api/admin/processes").status_code == 404:
            pytest.skip("GET /api/admin/processes is the cluster's, not in this tree")
        assert cli(server, token, "processes", monkeypatch=monkeypatch) == 0
        assert " *" in capsys.readouterr().out  # this process
