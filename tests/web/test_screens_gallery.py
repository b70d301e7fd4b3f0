"""Screenshots of every main screen at the three sizes of the issue (1280×800, 360×640 and
390×844), saved under test-output/screenshots/<size>/ for review: home, options, login,
the table in the middle of a hand, the round end, the game end and the lobby with a
public table in it. Each screenshot is taken once the screen is there (its element is
waited for), so a screen that never appears fails the test."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import SIZES, Size
from tests.web.driver import play_moves, play_to_round_end, play_until, start_practice

SCREENS = ("home", "options", "login", "table", "round-end", "game-end", "lobby")


def host_a_public_table(live: LiveServer) -> str:
    """Someone else's account with a public table waiting for players (made over HTTP, as
    the site's own page would)."""
    with httpx.Client(base_url=live.http, timeout=20) as client:
        client.post(
            "/api/register", json={"name": "anfitriona", "password": "dominó-seguro-123"}
        ).raise_for_status()
        created = client.post("/api/tables", json={"preset": "clasico", "players": 4, "mode": "pairs"})
        created.raise_for_status()
        table: str = created.json()["table"]
        return table


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
def test_every_main_screen_is_photographed_at_each_size(
    open_page: Callable[[Size], Any], live_paused: LiveServer, screenshots: Path, size: Size
) -> None:
    folder = screenshots / size.name
    folder.mkdir(parents=True, exist_ok=True)
    page = open_page(size)

    def shoot(screen: str) -> None:
        page.screenshot(path=folder / f"{screen}.png", full_page=True)

    host_a_public_table(live_paused)
    page.goto(live_paused.http + "/")
    page.wait_for_selector("#practice")
    page.wait_for_selector(".lobby li button")  # the public table, with its "Sentarse"
    shoot("home")
    page.locator(".lobby").first.scroll_into_view_if_needed()
    page.screenshot(path=folder / "lobby.png")

    page.goto(live_paused.http + "/#/entrar")
    page.wait_for_selector("input[name=password]")
    shoot("login")

    page.goto(live_paused.http + "/")
    page.click("#practice")
    page.wait_for_selector("#start")
    shoot("options")

    seen: Counter[str] = Counter()
    start_practice(page, live_paused.http)
    play_moves(page, 3, seen)
    shoot("table")
    play_to_round_end(page, seen)
    shoot("round-end")
    play_until(page, ".overlay.game-end", seen)
    shoot("game-end")

    assert sorted(path.stem for path in folder.glob("*.png")) == sorted(SCREENS)
