"""The pages that make accounts into players, in Chromium against a live server: the twelve
avatar drawings are served under the site's policy; the create form sends `competitive`
(casual unless chosen) and says what the choice means; a profile shows the account and lets
its owner change the avatar; another player's profile offers friendship and blocking; the
rankings list the rated players with «?» for a provisional rating and «Tu puesto».

The profile, friends and rankings tests need the endpoints of docs/protocol.md, «Players»
(GET /api/players/NAME, /api/rankings, /api/friends): where the server has none yet they
skip, saying which one is missing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import DESKTOP, PHONE, ConsoleErrors, Size
from tests.web.test_accounts import sign_up
from tranque.server.store import GamePlayerRow, GameRow, RatingRow

AVATARS_DIR = Path(__file__).resolve().parents[2] / "src" / "tranque" / "web" / "avatars"
# The contract's ids (server/accounts/avatars.py owns the list), in its order.
AVATAR_IDS = [
    "palma",
    "sol",
    "mar",
    "loro",
    "coco",
    "tambor",
    "guitarra",
    "gallo",
    "iguana",
    "tucan",
    "cafe",
    "mango",
]


def needs(base: str, path: str) -> None:
    """Skip when the server at `base` has no route for `path` yet (another branch brings it)."""
    routes = httpx.get(base + "/openapi.json", timeout=20).json()["paths"]
    if not any(re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", route), path) for route in routes):
        pytest.skip(f"the server has no {path} yet (docs/protocol.md, «Players»)")


def created_bodies(page: Any) -> list[dict[str, Any]]:
    """The bodies of every POST /api/tables the page sends, as they are sent."""
    bodies: list[dict[str, Any]] = []

    def note(request: Any) -> None:
        if request.method == "POST" and request.url.endswith("/api/tables"):
            bodies.append(json.loads(request.post_data or "{}"))

    page.on("request", note)
    return bodies


# The drawings ---------------------------------------------------------------------------


def test_every_avatar_is_drawn_and_served_under_the_sites_policy(browser: Any, live: LiveServer) -> None:
    assert sorted(path.stem for path in AVATARS_DIR.glob("*.svg")) == sorted(AVATAR_IDS)
    for avatar in AVATAR_IDS:
        response = httpx.get(f"{live.http}/avatars/{avatar}.svg", timeout=20)
        assert response.status_code == 200, avatar
        assert response.headers["content-type"].startswith("image/svg+xml"), avatar
        assert "img-src 'self'" in response.headers["content-security-policy"]
        assert response.headers["x-content-type-options"] == "nosniff"
        assert 'viewBox="0 0 64 64"' in response.text and "<script" not in response.text, avatar
        assert len(response.content) < 2000, f"{avatar}.svg is {len(response.content)} bytes"
    assert httpx.get(f"{live.http}/avatars/nadie.svg", timeout=20).status_code == 404
    # Drawn by the page itself, from its own origin, under its Content-Security-Policy.
    page = browser.new_page()
    page.goto(live.http + "/")
    sizes = page.evaluate(
        """(ids) => Promise.all(ids.map((id) => new Promise((done) => {
            const img = new Image();
            img.onload = () => done([id, img.naturalWidth, img.naturalHeight]);
            img.onerror = () => done([id, 0, 0]);
            img.src = `/avatars/${id}.svg`;
        })))""",
        AVATAR_IDS,
    )
    assert [size for size in sizes if size[1] == 0] == []
    assert {(width, height) for _, width, height in sizes} == {(64, 64)}


# The create form --------------------------------------------------------------------------


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=lambda size: size.name)
def test_the_create_form_sends_casual_unless_competitive_is_chosen(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, size: Size
) -> None:
    for name, choose, expected in ((f"ana{size.width}", False, False), (f"beto{size.width}", True, True)):
        context = browser.new_context(**size.context_options())
        page = console_errors.watch(context.new_page())
        sign_up(page, live, name)
        bodies = created_bodies(page)
        page.click("#create-table")
        page.wait_for_selector("#start:not([disabled])")
        assert page.is_checked("input[name=competitive][value=no]")  # amistosa first
        assert "no cuenta para la clasificación" in page.inner_text(".kind-hint")
        if choose:
            page.check("input[name=competitive][value=yes]")
            assert "cuenta para el rating" in page.inner_text(".kind-hint")
        # The hint is what the group describes, for a screen reader too.
        hint = page.get_attribute(".kind-hint", "id")
        assert hint and page.get_attribute("fieldset.kind", "aria-describedby") == hint
        page.click("#start")
        page.wait_for_selector(".table-screen .table-header")
        assert len(bodies) == 1
        assert bodies[0]["competitive"] is expected
        assert bodies[0]["private"] is False
        context.close()


def test_practice_offers_no_competitive_choice(browser: Any, live: LiveServer) -> None:
    page = browser.new_page()
    page.goto(live.http + "/#/practicar")
    page.wait_for_selector("#start:not([disabled])")
    assert page.locator("input[name=competitive]").count() == 0


def test_the_header_links_rankings_for_everyone_and_the_profile_once_logged_in(
    browser: Any, live: LiveServer
) -> None:
    page = browser.new_page()
    page.goto(live.http + "/")
    page.wait_for_selector("#practice")
    assert page.get_attribute("#nav-rankings", "href") == "#/clasificacion"
    assert page.is_hidden("#nav-profile")
    sign_up(page, live, "carla")
    assert page.is_visible("#nav-profile")
    assert page.get_attribute("#nav-profile", "href") == "#/jugador/carla"
    page.click("#lang")
    assert page.inner_text("#nav-rankings") == "Rankings"
    assert page.inner_text("#nav-profile") == "My profile"


# A profile (needs GET /api/players/NAME) -------------------------------------------------


def test_your_profile_shows_your_account_and_changes_your_avatar(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    needs(live.http, "/api/players/nadie")
    for size in (DESKTOP, PHONE):
        context = browser.new_context(**size.context_options())
        page = console_errors.watch(context.new_page())
        name = f"dora{size.width}"
        sign_up(page, live, name)
        page.click("#nav-profile")
        page.wait_for_selector(".profile-head h1")
        assert page.inner_text(".profile-head h1") == name
        assert "Miembro desde" in page.inner_text(".profile-head")
        assert page.locator(".stat dd").all_inner_texts() == ["0", "0", "0"]
        assert page.locator(".avatar-choice input").count() == 12
        shown = page.get_attribute(".profile-head img", "src")
        assert shown in {f"/avatars/{avatar}.svg" for avatar in AVATAR_IDS}
        other = next(avatar for avatar in AVATAR_IDS if f"/avatars/{avatar}.svg" != shown)
        page.click(f".avatar-choice:has(input[value={other}])")
        page.wait_for_selector(f".profile-head img[src='/avatars/{other}.svg']")
        page.screenshot(path=screenshots / f"profile-own-{size.name}.png", full_page=True)
        page.reload()  # the server kept it
        page.wait_for_selector(f".profile-head img[src='/avatars/{other}.svg']")
        assert page.is_checked(f".avatar-choice input[value={other}]")
        assert page.evaluate("document.documentElement.scrollWidth") <= size.width
        context.close()


def test_another_players_profile_offers_friendship_and_blocking(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    needs(live.http, "/api/players/nadie")
    needs(live.http, "/api/friends")
    ana = console_errors.watch(browser.new_context(**DESKTOP.context_options()).new_page())
    beto = console_errors.watch(browser.new_context(**PHONE.context_options()).new_page())
    sign_up(ana, live, "ana")
    sign_up(beto, live, "beto")
    ana.goto(live.http + "/#/jugador/beto")
    ana.click("button[data-action=pl_add_friend]")
    ana.wait_for_selector(".friend-state:has-text('Solicitud de amistad enviada')")
    assert ana.locator("button[data-action=pl_add_friend]").count() == 0
    beto.goto(live.http + "/#/jugador/ana")
    beto.wait_for_selector(".friend-state:has-text('Te envió una solicitud')")
    beto.click("button[data-action=pl_accept_friend]")
    beto.wait_for_selector(".friend-state:has-text('Son amigos')")
    ana.reload()
    ana.wait_for_selector(".friend-state:has-text('Son amigos')")
    ana.click("button[data-action=pl_block]")
    ana.wait_for_selector("button[data-action=pl_unblock]")
    assert "bloqueaste" in ana.inner_text(".friend-state")
    ana.click("button[data-action=pl_unblock]")
    ana.wait_for_selector("button[data-action=pl_add_friend]")  # blocking ended the friendship


# The rankings (needs GET /api/rankings) ------------------------------------------------


def seed_rated_duel(live: LiveServer, winner: str, loser: str) -> None:
    """One rated 1-against-1 game between two accounts, kept the way game_archive keeps a
    finished game: the game, its players' rows, their new ratings and their XP."""

    async def seed() -> None:
        store = live.state.store
        won = await store.find_user(winner)
        lost = await store.find_user(loser)
        assert won is not None and lost is not None
        at = 1_780_000_000.0
        seats = [
            {"seat": 0, "name": winner, "kind": "human", "user_id": won.user_id, "bot_level": None},
            {"seat": 1, "name": loser, "kind": "human", "user_id": lost.user_id, "bot_level": None},
        ]
        game = GameRow(
            game_id=f"T-{winner}.1",
            table_id=f"T-{winner}",
            number=1,
            finished_at=at,
            preset="clasico",
            format="duel",
            players=2,
            table_kind="public",
            private=False,
            competitive=True,
            rated=True,
            unrated_reason=None,
            summary={"seats": seats, "scores": [100, 35], "goals": [0, 0], "winners": [0], "rounds": 3},
            record={},
        )

        def row(user_id: int, seat: int, victory: bool, xp: int, mu_after: float) -> GamePlayerRow:
            return GamePlayerRow(
                f"T-{winner}.1", user_id, seat, at, "clasico", "duel", private=False, won=victory,
                abandoned=False, xp=xp, mu_before=25.0, sigma_before=25 / 3, mu_after=mu_after,
                sigma_after=7.2,
            )  # fmt: skip

        players = [row(won.user_id, 0, True, 20, 27.6), row(lost.user_id, 1, False, 5, 22.4)]
        ratings = [
            RatingRow(won.user_id, "duel", 27.6, 7.2, 1500 + 60 * (27.6 - 3 * 7.2 - 17.5), 1, at),
            RatingRow(lost.user_id, "duel", 22.4, 7.2, 1500 + 60 * (22.4 - 3 * 7.2 - 17.5), 1, at),
        ]
        xp = [("all", won.user_id, 20), ("all", lost.user_id, 5)]
        await store.save_game(game, players, ratings, xp)

    live.on_server(seed)


def test_the_rankings_list_rated_players_with_your_rank(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    needs(live.http, "/api/rankings")
    needs(live.http, "/api/players/nadie")
    for size, (winner, loser) in ((DESKTOP, ("eva", "fito")), (PHONE, ("gabi", "hugo"))):
        context = browser.new_context(**size.context_options())
        page = console_errors.watch(context.new_page())
        register = {"name": winner, "password": "dominó-seguro-123"}
        httpx.post(live.http + "/api/register", json=register, timeout=20).raise_for_status()
        sign_up(page, live, loser)
        seed_rated_duel(live, winner, loser)
        page.goto(live.http + "/#/clasificacion/siempre")
        page.wait_for_selector(".ranking-table:not(.mine-only) tbody tr")
        assert page.get_attribute(".tab.current", "href") == "#/clasificacion/siempre"
        rows = page.locator(".ranking-table:not(.mine-only) tbody tr").all_inner_texts()
        assert any(re.search(rf"{winner}\s+20", row) for row in rows), rows
        assert page.locator(f".your-rank tr:has-text('{loser}')").count() == 1  # «Tu puesto»
        assert re.search(rf"{loser}\s+5", page.inner_text(".your-rank"))
        page.click("a.tab[href='#/clasificacion/1contra1']")
        page.wait_for_selector(".ranking-table .rating.provisional")
        ranked = ".ranking-table:not(.mine-only)"
        provisional = page.locator(f"{ranked} tr:has-text('{winner}') .rating.provisional")
        assert "?" in provisional.inner_text()
        assert "provisional" in (provisional.get_attribute("title") or "")
        page.screenshot(path=screenshots / f"rankings-{size.name}.png", full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= size.width
        # The name leads to the profile, whose last game has its replay link.
        page.click(f".ranking-table:not(.mine-only) a.player-link:has-text('{winner}')")
        page.wait_for_selector(".game-item")
        assert page.get_attribute(".game-item a.replay-link", "href") == f"#/partida/T-{winner}.1"
        assert "Ganada" in page.inner_text(".game-item")
        assert page.locator(".rating-pool[data-pool=duel] svg.rating-chart").count() == 1
        context.close()
