"""Peña against peña over HTTP through the real app: an arena created with two peñas, a
member registering for their peña (a non-member refused), and the Detail's peña standing with
each peña's name."""

from __future__ import annotations

from tests.server.penas.test_penas_http import accounts, create, memory_server, refused, unique
from tests.server.support.harness import LiveServer

__all__ = ["memory_server"]  # the fixture


def test_an_arena_between_two_penas_takes_their_members_and_shows_the_pena_standing(
    memory_server: LiveServer,
) -> None:
    server = memory_server
    with accounts(server, unique("ana"), unique("beto"), unique("caro")) as (ana, beto, caro):
        roja = create(ana, unique("Roja "))
        azul = create(beto, unique("Azul "))
        body = {
            "name": "Roja contra Azul",
            "format": "arena",
            "entry": "duel",
            "window_seconds": 1800,
            "starts_at": server.settings.clock.now() + 3600,
            "battle_penas": [roja["id"], azul["id"]],
            "battle_counting": 3,
        }
        made = ana.post("/api/tournaments", json=body)
        assert made.status_code == 201, made.text
        tournament = made.json()["tournament"]
        assert tournament["config"]["battle_penas"] == [roja["id"], azul["id"]]
        path = f"/api/tournaments/{tournament['id']}"
        refused(caro.post(f"{path}/register", json={"pena": roja["id"]}), 409, "tournament_battle_member")
        refused(caro.post(f"{path}/register", json={}), 409, "tournament_battle_pena")
        assert ana.post(f"{path}/register", json={"pena": roja["id"]}).status_code == 200
        assert beto.post(f"{path}/register", json={"pena": azul["id"]}).status_code == 200
        detail = caro.get(path).json()
        assert [
            (row["name"], row["slug"], row["rank"], row["score"], row["entrants"]) for row in detail["battle"]
        ] == [
            (roja["name"], roja["slug"], 1, 0, 1),
            (azul["name"], azul["slug"], 1, 0, 1),
        ]
        assert {e["pena_id"] for e in detail["entrants"]} == {roja["id"], azul["id"]}
        refused(
            ana.post("/api/tournaments", json={**body, "battle_penas": [roja["id"], 99999]}),
            409,
            "tournament_battle_no_pena",
        )
        plain = ana.post(
            "/api/tournaments", json={k: v for k, v in body.items() if not k.startswith("battle")}
        )
        assert plain.json()["tournament"]["battle"] is None
