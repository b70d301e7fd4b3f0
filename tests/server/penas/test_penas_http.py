"""Peñas over HTTP through the real app (docs/penas.md; the store's part is in
tests/server/store/test_penas.py): a peña's life, and every refusal with its code, its
Spanish and English texts, and nothing changed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer, Player
from tests.server.support.http_helpers import client, database_url, live, register, server
from tranque.server.accounts.sessions import SESSION_COOKIE
from tranque.server.store import GamePlayerRow, GameRow

__all__ = ["database_url", "server"]  # the fixtures, from http_helpers


@pytest.fixture(scope="module")
def memory_server() -> Iterator[LiveServer]:
    with live(registrations_per_address_per_hour=1000) as running:
        yield running


_serial = iter(range(1, 10_000))


@contextlib.contextmanager
def accounts(server: LiveServer, *names: str) -> Iterator[list[httpx.Client]]:
    """A logged-in HTTP client for each of `names` (made unique on the module's server)."""
    with contextlib.ExitStack() as stack:
        https = [stack.enter_context(client(server)) for _ in names]
        for http, name in zip(https, names, strict=True):
            assert register(http, name).status_code == 201, name
        yield https


def unique(name: str) -> str:
    return f"{name}{next(_serial)}"


def refused(answer: httpx.Response, status: int, code: str) -> dict[str, Any]:
    body: dict[str, Any] = answer.json()
    assert (answer.status_code, body.get("code")) == (status, code), answer.text
    assert body["message"] and body["message_en"] and body["message"] != body["message_en"]
    return body


def create(http: httpx.Client, name: str, access: str = "open", **extra: Any) -> dict[str, Any]:
    body = {"name": name, "crest": "gallo", "description": "Los martes en casa de Kike.", "access": access}
    answer = http.post("/api/penas", json={**body, **extra})
    assert answer.status_code == 201, answer.text
    page: dict[str, Any] = answer.json()
    return page


def people(page: dict[str, Any]) -> list[tuple[str, str]]:
    return [(person["name"], person["role"]) for person in page["people"]]


def page_of(http: httpx.Client, slug: str) -> dict[str, Any]:
    answer = http.get(f"/api/penas/{slug}")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_a_penas_life_on_every_backend(server: LiveServer) -> None:
    with accounts(server, "ana", "beto", "carla") as (ana, beto, carla):
        made = create(ana, "Los del Martes", access="invite")
        assert (made["slug"], made["role"], made["crest"], made["members"]) == (
            "los-del-martes",
            "leader",
            "gallo",
            1,
        )
        assert people(made) == [("ana", "leader")]
        # By invitation: a link from a leader lets beto in.
        link = ana.post("/api/penas/los-del-martes/invitations", json={})
        assert link.status_code == 201
        token = link.json()["token"]
        assert link.json()["url"] == f"/#/penas/los-del-martes?invitacion={token}"
        joined = beto.post("/api/penas/los-del-martes/join", json={"invitation": token})
        assert joined.status_code == 200 and joined.json()["role"] == "member"
        assert people(page_of(carla, "los-del-martes")) == [("ana", "leader"), ("beto", "member")]
        # Who is online: for members only.
        assert [p["online"] for p in page_of(carla, "los-del-martes")["people"]] == [None, None]
        assert all(p["online"] is not None for p in page_of(beto, "los-del-martes")["people"])
        assert [p["slug"] for p in beto.get("/api/me/penas").json()] == ["los-del-martes"]
        # Open now: carla asks, ana approves.
        changed = ana.patch(
            "/api/penas/los-del-martes", json={"crest": "loro", "description": "", "access": "open"}
        )
        assert (changed.json()["crest"], changed.json()["access"]) == ("loro", "open")
        assert carla.post("/api/penas/los-del-martes/requests", json={}).json()["requested"] is True
        assert [r["name"] for r in page_of(ana, "los-del-martes")["requests"]] == ["carla"]
        assert page_of(beto, "los-del-martes")["requests"] == []  # for leaders only
        approved = ana.post("/api/penas/los-del-martes/requests/carla/approve", json={})
        assert ("carla", "member") in people(approved.json()) and approved.json()["requests"] == []
        # A leader names another; the first leader may then leave.
        assert ("beto", "leader") in people(
            ana.post("/api/penas/los-del-martes/leaders", json={"name": "beto"}).json()
        )
        assert ana.post("/api/penas/los-del-martes/leave", json={}).json() == {"outcome": "left"}
        removed = beto.request("DELETE", "/api/penas/los-del-martes/members/carla", json={})
        assert people(removed.json()) == [("beto", "leader")]
        # The only member leaving dissolves it.
        assert beto.post("/api/penas/los-del-martes/leave", json={}).json() == {"outcome": "dissolved"}
        refused(beto.get("/api/penas/los-del-martes"), 404, "no_such_pena")
        assert beto.get("/api/me/penas").json() == []


def test_pena_names_follow_the_account_rules(memory_server: LiveServer) -> None:
    with accounts(memory_server, unique("nombres")) as (ana,):
        first = unique("Peña Mango")
        create(ana, first)
        before = ana.get("/api/penas", params={"q": "mango"}).json()
        refused(ana.post("/api/penas", json={"name": first.upper(), "crest": "sol"}), 409, "pena_name_taken")
        confusable = first.replace("o", "0", 1)  # a zero for an o
        body = refused(
            ana.post("/api/penas", json={"name": confusable, "crest": "sol"}), 409, "pena_name_confusable"
        )
        assert first in body["message"] and first in body["message_en"]
        refused(ana.post("/api/penas", json={"name": "ab", "crest": "sol"}), 422, "pena_name")
        refused(ana.post("/api/penas", json={"name": "x" * 41, "crest": "sol"}), 422, "pena_name")
        refused(ana.post("/api/penas", json={"name": "Peña <script>", "crest": "sol"}), 422, "pena_name")
        refused(ana.post("/api/penas", json={"name": unique("Buena"), "crest": "dragon"}), 422, "pena_crest")
        long = {"name": unique("Larga"), "crest": "sol", "description": "d" * 301}
        refused(ana.post("/api/penas", json=long), 422, "pena_description")
        refused(
            ana.post("/api/penas", json={"name": unique("Rara"), "crest": "sol", "access": "x"}),
            422,
            "pena_access",
        )
        assert ana.get("/api/penas", params={"q": "mango"}).json() == before
        assert len(ana.get("/api/me/penas").json()) == 1
    with client(memory_server) as guest:
        refused(
            guest.post("/api/penas", json={"name": unique("Sin Cuenta"), "crest": "sol"}),
            401,
            "login_required",
        )


def test_joining_a_pena_by_invitation_needs_a_live_link(memory_server: LiveServer) -> None:
    with accounts(memory_server, unique("lider"), unique("otro")) as (leader, other):
        slug = create(leader, unique("Cerrada"), access="invite")["slug"]
        other_slug = create(leader, unique("Otra"), access="invite")["slug"]
        foreign = leader.post(f"/api/penas/{other_slug}/invitations", json={}).json()["token"]
        refused(other.post(f"/api/penas/{slug}/requests", json={}), 403, "pena_invite_only")
        refused(other.post(f"/api/penas/{slug}/join", json={}), 403, "pena_invite_only")
        refused(
            other.post(f"/api/penas/{slug}/join", json={"invitation": "nope"}), 403, "pena_bad_invitation"
        )
        refused(
            other.post(f"/api/penas/{slug}/join", json={"invitation": foreign}), 403, "pena_bad_invitation"
        )
        page = page_of(other, slug)
        assert (page["role"], page["requested"], page["members"]) == (None, False, 1)
        token = leader.post(f"/api/penas/{slug}/invitations", json={}).json()["token"]
        assert other.post(f"/api/penas/{slug}/join", json={"invitation": token}).status_code == 200
        refused(other.post(f"/api/penas/{slug}/join", json={"invitation": token}), 409, "pena_already_member")


def test_requests_are_refused_twice_and_leaders_answer_them(memory_server: LiveServer) -> None:
    with accounts(memory_server, unique("lider"), unique("pide")) as (leader, asker):
        asker_name = asker.get("/api/me").json()["name"]
        slug = create(leader, unique("Abierta"))["slug"]
        assert asker.post(f"/api/penas/{slug}/requests", json={}).status_code == 200
        refused(asker.post(f"/api/penas/{slug}/requests", json={}), 409, "pena_already_requested")
        refused(
            asker.post(f"/api/penas/{slug}/requests/{asker_name}/approve", json={}), 403, "pena_leader_only"
        )
        assert (
            leader.request("DELETE", f"/api/penas/{slug}/requests/{asker_name}", json={}).status_code == 200
        )
        refused(
            leader.post(f"/api/penas/{slug}/requests/{asker_name}/approve", json={}), 404, "pena_no_request"
        )
        assert page_of(asker, slug)["role"] is None


def test_the_last_leader_cannot_leave_while_others_remain(memory_server: LiveServer) -> None:
    with accounts(memory_server, unique("lider"), unique("miembro")) as (leader, member):
        slug = create(leader, unique("Ultimo"), access="invite")["slug"]
        token = leader.post(f"/api/penas/{slug}/invitations", json={}).json()["token"]
        member.post(f"/api/penas/{slug}/join", json={"invitation": token})
        refused(leader.post(f"/api/penas/{slug}/leave", json={}), 409, "pena_last_leader")
        assert page_of(leader, slug)["role"] == "leader" and page_of(leader, slug)["members"] == 2
        assert member.post(f"/api/penas/{slug}/leave", json={}).json() == {"outcome": "left"}
        refused(member.post(f"/api/penas/{slug}/leave", json={}), 404, "pena_not_member")


def test_leader_actions_are_refused_to_members(memory_server: LiveServer) -> None:
    with accounts(memory_server, unique("lider"), unique("miembro"), unique("tercero")) as (
        leader,
        member,
        third,
    ):
        leader_name = leader.get("/api/me").json()["name"]
        third_name = third.get("/api/me").json()["name"]
        slug = create(leader, unique("Mandos"), access="invite")["slug"]
        token = leader.post(f"/api/penas/{slug}/invitations", json={}).json()["token"]
        member.post(f"/api/penas/{slug}/join", json={"invitation": token})
        third.post(f"/api/penas/{slug}/join", json={"invitation": token})
        before = page_of(leader, slug)
        refused(member.post(f"/api/penas/{slug}/invitations", json={}), 403, "pena_leader_only")
        refused(member.post(f"/api/penas/{slug}/leaders", json={"name": third_name}), 403, "pena_leader_only")
        refused(
            member.request("DELETE", f"/api/penas/{slug}/members/{third_name}", json={}),
            403,
            "pena_leader_only",
        )
        change = {"crest": "sol", "description": "", "access": "open"}
        refused(member.patch(f"/api/penas/{slug}", json=change), 403, "pena_leader_only")
        # A leader is never removed by another; naming one twice is refused.
        leader.post(f"/api/penas/{slug}/leaders", json={"name": third_name})
        refused(
            third.request("DELETE", f"/api/penas/{slug}/members/{leader_name}", json={}),
            409,
            "pena_remove_leader",
        )
        refused(
            leader.post(f"/api/penas/{slug}/leaders", json={"name": third_name}), 409, "pena_already_leader"
        )
        after = page_of(leader, slug)
        assert (after["crest"], after["access"]) == (before["crest"], before["access"])
        assert len(after["people"]) == 3


def test_a_pena_table_seats_only_members(memory_server: LiveServer) -> None:
    with accounts(memory_server, unique("lider"), unique("fuera")) as (leader, outsider):
        page = create(leader, unique("Mesa Propia"))
        refused(
            outsider.post("/api/tables", json={"preset": "clasico", "players": 2, "pena_id": page["id"]}),
            403,
            "pena_members_only",
        )
        made = leader.post("/api/tables", json={"preset": "clasico", "players": 2, "pena_id": page["id"]})
        assert made.status_code == 201 and made.json()["kind"] == "private"
        invite = made.json()["invite"]
        listed = page_of(leader, page["slug"])["tables"]
        assert [(t["table"], t["invite_url"]) for t in listed] == [
            (made.json()["table"], made.json()["invite_url"])
        ]
        assert page_of(outsider, page["slug"])["tables"][0]["invite_url"] is None  # not for outsiders

        async def scenario() -> None:
            async with Player(memory_server, headers=cookie(outsider)) as socket:
                answer = await socket.request({"type": "sit", "invite": invite})
                assert (answer["type"], answer["code"]) == ("error", "pena_members_only")
                assert page["name"] in answer["message"] and page["name"] in answer["message_en"]
            async with Player(memory_server, headers=cookie(leader)) as socket:
                assert (await socket.request({"type": "sit", "invite": invite}))["type"] == "ack"

        asyncio.run(scenario())
        seats = page_of(leader, page["slug"])["tables"][0]["seats"]
        assert seats.count(None) == 1  # the leader sat; the outsider did not


def cookie(http: httpx.Client) -> dict[str, str]:
    return {"Cookie": f"{SESSION_COOKIE}={http.cookies[SESSION_COOKIE]}"}


def test_a_pena_tournament_is_created_and_entered_by_members_only(memory_server: LiveServer) -> None:
    with accounts(memory_server, unique("lider"), unique("miembro"), unique("fuera")) as (
        leader,
        member,
        outsider,
    ):
        page = create(leader, unique("Torneos"), access="invite")
        token = leader.post(f"/api/penas/{page['slug']}/invitations", json={}).json()["token"]
        member.post(f"/api/penas/{page['slug']}/join", json={"invitation": token})
        config = {
            "name": "Copa de la peña",
            "format": "minitorneo",
            "entry": "duel",
            "size": 4,
            "rated": False,
        }
        refused(
            outsider.post("/api/tournaments", json={**config, "pena_id": page["id"]}),
            403,
            "pena_members_only",
        )
        refused(leader.post("/api/tournaments", json={**config, "pena_id": "x"}), 422, "tournament_config")
        made = leader.post("/api/tournaments", json={**config, "pena_id": page["id"]})
        assert made.status_code == 201, made.text
        event = made.json()["tournament"]["id"]
        body = refused(outsider.post(f"/api/tournaments/{event}/register", json={}), 403, "pena_members_only")
        assert page["name"] in body["message"] and page["name"] in body["message_en"]
        assert member.post(f"/api/tournaments/{event}/register", json={}).status_code == 200
        listed = leader.get(f"/api/penas/{page['slug']}/tournaments").json()
        assert [item["id"] for item in listed] == [event]
        other = leader.post("/api/tournaments", json=config).json()["tournament"]["id"]  # not the peña's
        assert other not in [
            item["id"] for item in leader.get(f"/api/penas/{page['slug']}/tournaments").json()
        ]


def _save_game(server: LiveServer, game_id: str, seated: list[tuple[int, str]], at: float) -> None:
    """A finished public duel between the accounts of `seated` (id, name), the first one winning."""
    summary = {
        "seats": [
            {"seat": i, "name": name, "kind": "human", "user_id": uid, "bot_level": None, "face": None}
            for i, (uid, name) in enumerate(seated)
        ],
        "scores": [100, 40],
        "goals": [100, 100],
        "winners": [0],
        "rounds": 3,
        "hints": [0, 0],
    }
    game = GameRow(
        game_id,
        game_id.split(".")[0],
        1,
        at,
        "clasico",
        "duel",
        2,
        "public",
        False,
        False,
        False,
        "friendly",
        summary,
        {},
    )
    players = [
        GamePlayerRow(game_id, uid, i, at, "clasico", "duel", False, i == 0, False, 0)
        for i, (uid, _) in enumerate(seated)
    ]

    async def keep() -> None:
        await server.state.store.save_game(game, players, [], [])

    server.on_server(keep)


def test_a_penas_recent_games_are_those_between_its_members(memory_server: LiveServer) -> None:
    names = unique("ana"), unique("beto"), unique("fuera")
    with accounts(memory_server, *names) as (ana, beto, outsider):
        ids = [http.get("/api/me").json()["id"] for http in (ana, beto, outsider)]
        page = create(ana, unique("Partidas"), access="invite")
        token = ana.post(f"/api/penas/{page['slug']}/invitations", json={}).json()["token"]
        beto.post(f"/api/penas/{page['slug']}/join", json={"invitation": token})
        _save_game(memory_server, f"{names[0]}t1.1", [(ids[0], names[0]), (ids[1], names[1])], 1000.0)
        _save_game(memory_server, f"{names[0]}t2.1", [(ids[0], names[0]), (ids[2], names[2])], 2000.0)
        _save_game(memory_server, f"{names[0]}t3.1", [(ids[1], names[1]), (ids[0], names[0])], 3000.0)
        games = outsider.get(f"/api/penas/{page['slug']}/games").json()
        assert [game["game_id"] for game in games] == [f"{names[0]}t3.1", f"{names[0]}t1.1"]
        assert [seat["name"] for seat in games[1]["seats"]] == [names[0], names[1]]
        assert "user_id" not in games[1]["seats"][0]  # no account numbers
