"""A peña's seasons over HTTP through the real app (docs/penas.md#seasons): a leader opens one,
anyone reads it, a game between members shows in its table, and the refusals answer with
their code in Spanish and English."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Iterator

import pytest
from PIL import Image

from tests.server.http.test_share_http import META
from tests.server.penas.test_penas_http import accounts, create, refused, unique
from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import live
from tests.server.support.players_helpers import Seat, save_game
from tranque.server.seasons.service import ZONE


@pytest.fixture(scope="module")
def memory_server() -> Iterator[LiveServer]:
    with live(registrations_per_address_per_hour=1000) as running:
        yield running


def today(server: LiveServer) -> dt.date:
    return dt.datetime.fromtimestamp(server.settings.clock.now(), ZONE).date()


def user_id(server: LiveServer, name: str) -> int:
    async def find() -> int:
        found = await server.state.store.find_user(name)
        assert found is not None
        return int(found.user_id)

    found: int = server.on_server(find)
    return found


def test_a_leader_opens_a_season_and_a_members_game_fills_its_table(memory_server: LiveServer) -> None:
    server = memory_server
    ana_name, beto_name = unique("ana"), unique("beto")
    with accounts(server, ana_name, beto_name) as (ana, beto):
        pena = create(ana, unique("Peña Temporada "), access="invite")
        slug = pena["slug"]
        token = ana.post(f"/api/penas/{slug}/invitations", json={}).json()["token"]
        assert beto.post(f"/api/penas/{slug}/join", json={"invitation": token}).status_code == 200
        first = today(server)
        body = {
            "name": "Apertura",
            "starts": first.isoformat(),
            "ends": (first + dt.timedelta(days=30)).isoformat(),
        }
        refused(beto.post(f"/api/penas/{slug}/seasons", json=body), 403, "pena_leader_only")
        refused(
            ana.post(f"/api/penas/{slug}/seasons", json={**body, "points": "cinco"}), 422, "season_points"
        )
        answer = ana.post(f"/api/penas/{slug}/seasons", json={**body, "points": "tres_uno"})
        assert answer.status_code == 201, answer.text
        season = answer.json()
        assert (season["name"], season["state"], season["scope"], season["points"]) == (
            "Apertura",
            "live",
            "rated",
            "tres_uno",
        )
        refused(ana.post(f"/api/penas/{slug}/seasons", json=body), 409, "season_open")

        users = {p["name"] for p in ana.get(f"/api/penas/{slug}").json()["people"]}
        assert users == {ana_name, beto_name}
        ids = [user_id(server, name) for name in (ana_name, beto_name)]
        save_game(
            server,
            f"{unique('t')}.1",
            [Seat(ids[0], ana_name, won=True), Seat(ids[1], beto_name)],
            rated=True,
        )
        server.advance(60)  # the game ended a minute ago
        listing = beto.get(f"/api/penas/{slug}/seasons").json()
        assert listing["may_open"] is False and listing["past"] == []
        rows = [
            (r["name"], r["played"], r["won"], r["lost"], r["tantos_for"], r["tantos_against"], r["points"])
            for r in listing["current"]["rows"]
        ]
        assert rows == [(ana_name, 1, 1, 0, 100, 40, 3), (beto_name, 1, 0, 1, 40, 100, 1)]
        one = ana.get(f"/api/penas/{slug}/seasons/{season['id']}").json()
        assert one["rows"] == listing["current"]["rows"]
        refused(ana.get(f"/api/penas/{slug}/seasons/99999"), 404, "no_such_season")
        refused(ana.get("/api/penas/no-hay-tal/seasons"), 404, "no_such_pena")

        # Shared: the season's table as a card, and the peña's share page with its tags.
        card = ana.get(f"/api/share/penas/{slug}.png")
        assert card.status_code == 200 and card.headers["content-type"] == "image/png"
        assert Image.open(io.BytesIO(card.content)).size == (1200, 630)
        found = dict(META.findall(ana.get(f"/pena/{slug}").text))
        assert found["og:image"] == f"{server.http}/api/share/penas/{slug}.png"
        assert found["og:title"] == f"{pena['name']} · Apertura · Tranque"
        assert found["og:description"].endswith(f"1.º {ana_name}")
        lonely = create(ana, unique("Peña Sola "), access="invite")["slug"]
        refused(ana.get(f"/api/share/penas/{lonely}.png"), 404, "share_no_season")
        refused(ana.get("/api/share/penas/no-hay-tal.png"), 404, "share_no_season")
        assert "og:image" not in dict(META.findall(ana.get(f"/pena/{lonely}").text))
