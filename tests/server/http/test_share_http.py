"""Share cards and share pages over HTTP on a real server (SQLite): a finished game's card is
a PNG and its page carries Open Graph tags with absolute URLs; a game still being played is
refused and its page shows no tile (R17); a private or unknown game or tournament is a 404
with its code; the security headers still hold on the share pages.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from PIL import Image

from tests.server.support.harness import LiveServer, fast_settings
from tests.server.support.http_helpers import register
from tests.server.support.players_helpers import Seat, save_game
from tests.server.support.scenario_helpers import make_account
from tests.server.support.scripted import ScriptedClient
from tranque.bots import arena, make_bot
from tranque.engine import Game, Rules
from tranque.engine.record import to_record

META = re.compile(r'<meta (?:property|name)="((?:og|twitter):[a-z:]+)" content="([^"]*)">')
TILE = re.compile(r"\b\d-\d\b")
ACCOUNTS = itertools.count(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    database = tmp_path_factory.mktemp("share") / "tranque.db"
    settings = fast_settings(
        f"sqlite+aiosqlite:///{database}",
        auto_move_seconds=0.05,  # as scripted.game_settings: forced moves at once
        between_rounds_seconds=3600,
        registrations_per_address_per_hour=1000,
        tournament_director=False,
    )
    with LiveServer(settings) as live:
        yield live


def get(server: LiveServer, path: str, **kwargs: Any) -> httpx.Response:
    return httpx.get(f"{server.http}{path}", timeout=60, **kwargs)


def tags(page: str) -> dict[str, str]:
    return dict(META.findall(page))


def refused(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["code"] == code
    assert body["message"] and body["message_en"] and body["message"] != body["message_en"]


def played_out(server: LiveServer) -> str:
    """A practice game played to its end over a WebSocket and kept: its id."""
    seated = server.post("/api/practice", {"preset": "clasico", "players": 2, "bot_level": "greedy"})

    async def play() -> None:
        async with ScriptedClient(server, seated["table"], seated["token"], rng=random.Random(5)) as client:
            await client.play()

    asyncio.run(play())
    server.recorded()
    return f"{seated['table']}.1"


def table_in_play(server: LiveServer, kind: str) -> tuple[str, set[str]]:
    """A table of `kind` with an account and a bot, its first round being played: its id and
    every tile in a hand."""
    user_id, _ = make_account(server, f"mesa_{kind}_{next(ACCOUNTS)}")
    registry = server.state.registry

    async def make() -> tuple[str, set[str]]:
        rules = Rules.from_options("clasico", players=2)
        table = await registry.create(rules, registry.options(kind=kind, bot_level="greedy"))
        await table.take_seat(table.seats[0], "ana", user_id)
        await table.give_to_bot(table.seats[1], "greedy")
        await table.start_game()
        game = table.state.playing_game()
        return table.table_id, {str(tile) for hand in game.round.hands for tile in hand}

    return server.on_server(make)


@pytest.fixture(scope="module")
def finished(server: LiveServer) -> str:
    return played_out(server)


class TestGameCard:
    def test_a_finished_games_card_is_a_png(self, server: LiveServer, finished: str) -> None:
        response = get(server, f"/api/share/games/{finished}.png")
        assert response.status_code == 200, response.text
        assert response.headers["content-type"] == "image/png"
        assert response.headers["cache-control"] == "public, max-age=86400"
        assert response.headers["x-content-type-options"] == "nosniff"
        image = Image.open(io.BytesIO(response.content))
        assert image.format == "PNG" and image.size == (1200, 630)
        out = Path(__file__).resolve().parents[3] / "test-output" / "share"
        out.mkdir(parents=True, exist_ok=True)
        (out / "http-game.png").write_bytes(response.content)

    def test_a_crawler_may_ask_with_head(self, server: LiveServer, finished: str) -> None:
        for path, kind in (
            (f"/api/share/games/{finished}.png", "image/png"),
            (f"/partida/{finished}", "text/html"),
        ):
            response = httpx.head(f"{server.http}{path}", timeout=60)
            assert response.status_code == 200 and response.headers["content-type"].startswith(kind)
            assert response.content == b""

    def test_a_page_for_an_id_too_long_is_the_sites_page(self, server: LiveServer) -> None:
        response = get(server, "/partida/" + "x" * 200)
        assert response.status_code == 200 and "og:image" not in tags(response.text)
        assert tags(response.text)["og:title"] == "Tranque · Dominó"

    def test_the_card_is_drawn_once_per_language(self, server: LiveServer, finished: str) -> None:
        first = get(server, f"/api/share/games/{finished}.png").content
        drawn = server.state.share.drawn
        assert get(server, f"/api/share/games/{finished}.png").content == first
        english = get(server, f"/api/share/games/{finished}.png?lang=en").content
        assert english != first
        assert server.state.share.drawn == drawn + 1

    def test_unknown_and_private_games_are_404_with_a_code(self, server: LiveServer) -> None:
        refused(get(server, "/api/share/games/nope.1.png"), 404, "share_no_game")
        refused(get(server, "/api/share/games/x.png"), 404, "share_no_game")
        rules = Rules.from_options("clasico", players=2)
        game = arena.play_out(Game(rules, seed=1), [make_bot("greedy", seed=s) for s in range(2)])
        seats = [Seat(None, "Ana", won=0 in game.winners), Seat(None, "Beto", won=1 in game.winners)]
        save_game(server, "privada.1", seats, private=True, record=to_record(game))
        save_game(server, "publica.1", seats, private=False, record=to_record(game))
        refused(get(server, "/api/share/games/privada.1.png"), 404, "share_no_game")
        assert get(server, "/api/share/games/publica.1.png").status_code == 200
        assert "og:image" not in tags(get(server, "/partida/privada.1").text)


class TestR17LiveTable:
    def test_R17_a_game_in_play_has_no_card(self, server: LiveServer) -> None:
        table, _ = table_in_play(server, "public")
        refused(get(server, f"/api/share/games/{table}.1.png"), 409, "share_game_in_play")

    def test_R17_a_game_in_plays_page_shows_no_tile(self, server: LiveServer) -> None:
        table, hands = table_in_play(server, "public")
        assert len(hands) == 14
        response = get(server, f"/partida/{table}.1")
        assert response.status_code == 200
        found = tags(response.text)
        assert "og:image" not in found and found["twitter:card"] == "summary"
        assert not any(TILE.search(value) for value in found.values())
        assert not any(f">{tile}<" in response.text or f'"{tile}"' in response.text for tile in hands)

    def test_a_private_tables_game_in_play_is_as_unknown(self, server: LiveServer) -> None:
        table, _ = table_in_play(server, "practice")
        refused(get(server, f"/api/share/games/{table}.1.png"), 404, "share_no_game")


class TestGamePage:
    def test_the_page_carries_open_graph_tags_with_absolute_urls(
        self, server: LiveServer, finished: str
    ) -> None:
        response = get(server, f"/partida/{finished}")
        assert response.status_code == 200
        assert response.headers["content-type"] == "text/html; charset=utf-8"
        found = tags(response.text)
        assert found["og:image"] == f"{server.http}/api/share/games/{finished}.png"
        assert found["og:url"] == f"{server.http}/partida/{finished}"
        assert found["twitter:card"] == "summary_large_image"
        assert found["og:title"].startswith("¡Gan") and found["og:title"].endswith(" · Tranque")
        assert "Invitado" in found["og:description"] and "Clásico" in found["og:description"]
        assert f"<title>{found['og:title']}</title>" in response.text
        image = get(server, found["og:image"].removeprefix(server.http))
        assert image.status_code == 200 and image.headers["content-type"] == "image/png"
        english = tags(get(server, f"/partida/{finished}?lang=en").text)
        assert english["og:image"].endswith(".png?lang=en") and english["og:title"].endswith(
            " won! · Tranque"
        )

    def test_the_page_is_the_app_under_the_sites_security_headers(
        self, server: LiveServer, finished: str
    ) -> None:
        home, shared = get(server, "/"), get(server, f"/partida/{finished}")
        assert shared.headers["content-security-policy"] == home.headers["content-security-policy"]
        assert "'unsafe-inline'" not in shared.headers["content-security-policy"]
        for header in ("x-frame-options", "x-content-type-options", "referrer-policy"):
            assert shared.headers[header] == home.headers[header]
        assert '<script type="importmap">' in shared.text and "/static/js/main." in shared.text

    def test_a_name_is_escaped_in_the_tags(self, server: LiveServer) -> None:
        rules = Rules.from_options("clasico", players=2)
        game = arena.play_out(Game(rules, seed=2), [make_bot("greedy", seed=s) for s in range(2)])
        seats = [Seat(None, '"><script>x', won=0 in game.winners), Seat(None, "Beto", won=1 in game.winners)]
        save_game(server, "rara.1", seats, record=to_record(game))
        page = get(server, "/partida/rara.1").text
        assert "<script>x" not in page and "&quot;&gt;&lt;script&gt;x" in page


class TestTournament:
    def test_a_tournaments_card_and_page(self, server: LiveServer) -> None:
        with httpx.Client(base_url=server.http, timeout=20) as http:
            assert register(http, "organiza").status_code == 201
            made = http.post(
                "/api/tournaments",
                json={
                    "name": "Copa ¡Ñapa!",
                    "format": "minitorneo",
                    "entry": "duel",
                    "size": 4,
                    "rated": False,
                },
            )
            assert made.status_code == 201, made.text
            secret = http.post(
                "/api/tournaments",
                json={"name": "Privado", "format": "minitorneo", "entry": "duel", "size": 4, "private": True},
            )
            assert secret.status_code == 201, secret.text
        tid, hidden = made.json()["tournament"]["id"], secret.json()["tournament"]["id"]
        response = get(server, f"/api/share/tournaments/{tid}.png")
        assert response.status_code == 200 and response.headers["content-type"] == "image/png"
        assert Image.open(io.BytesIO(response.content)).size == (1200, 630)
        found = tags(get(server, f"/torneo/{tid}").text)
        assert found["og:title"] == "Copa ¡Ñapa! · Torneo en Tranque"
        assert found["og:image"] == f"{server.http}/api/share/tournaments/{tid}.png"
        assert found["og:url"] == f"{server.http}/torneo/{tid}"
        refused(get(server, f"/api/share/tournaments/{hidden}.png"), 404, "share_no_tournament")
        refused(get(server, "/api/share/tournaments/nada.png"), 404, "share_no_tournament")
        assert "og:image" not in tags(get(server, f"/torneo/{hidden}").text)


def test_a_configured_public_url_makes_the_links(finished: str, server: LiveServer) -> None:
    """With `public_url` set, the tags name it, whatever `Host` the request came with."""
    server.state.settings.public_url = "https://tranque.example/"
    try:
        page = get(server, f"/partida/{finished}", headers={"Host": "evil.example"}).text
    finally:
        server.state.settings.public_url = None
    found = tags(page)
    assert found["og:url"] == f"https://tranque.example/partida/{finished}"
    assert found["og:image"] == f"https://tranque.example/api/share/games/{finished}.png"
