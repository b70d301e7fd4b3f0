"""«Cara a cara» and the home for friends, in Chromium against a live server: two friends
play a duel at a private table; afterwards each one's profile of the other shows «Tú contra
…» with the game (its winner, both sides' tantos and its replay), the picker compares with
anyone and says so when nobody has the name, and the home page lists the friend's result and
the tournament about to start. A guest's home has none of it. Profile and home are
photographed at the three sizes, fit them, and axe-core finds no serious violation on them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import SIZES, ConsoleGuard
from tests.web.driver import play_both_until
from tests.web.test_accounts import sign_up
from tests.web.test_friends import no_serious_violation


def befriend(live: LiveServer, first: str, second: str) -> None:
    async def both() -> None:
        store, now = live.state.store, live.settings.clock.now()
        one, other = await store.find_user(first), await store.find_user(second)
        assert one is not None and other is not None
        await store.request_friend(one.user_id, other.user_id, now)
        assert await store.accept_friend(other.user_id, one.user_id, now)

    live.on_server(both)


def fetch_json(page: Any, path: str, body: dict[str, Any] | None = None) -> Any:
    """What the page's own session gets from the API (GET, or POST with a JSON body)."""
    return page.evaluate(
        """async ([path, body]) => {
            const init = body ? {method: "POST", headers: {"Content-Type": "application/json"},
                                 body: JSON.stringify(body)} : {};
            const answer = await fetch(path, init);
            return answer.json();
        }""",
        [path, body],
    )


@pytest.mark.browser_game  # two people play a whole game: such tests take turns (tests/conftest.py)
def test_two_friends_after_a_duel_see_it_face_to_face_and_on_their_home(
    browser: Any,
    live: LiveServer,
    console_guard: ConsoleGuard,
    screenshots: Path,
    axe_source: str,
) -> None:
    console_errors = console_guard  # every page watched; the guard asserts none logged an error
    pages = []
    for address, size in (("198.51.100.21", SIZES["1280x800"]), ("198.51.100.22", SIZES["390x844"])):
        context = browser.new_context(
            **size.context_options(), extra_http_headers={"X-Forwarded-For": address}
        )
        pages.append(console_errors.watch(context.new_page()))
    ana, kike = pages
    sign_up(ana, live, "ana")
    sign_up(kike, live, "kike")
    befriend(live, "ana", "kike")
    starts = live.settings.clock.now() + 3600
    made = fetch_json(
        ana,
        "/api/tournaments",
        {"name": "Martes de dominó", "format": "minitorneo", "entry": "duel", "size": 4, "starts_at": starts},
    )
    assert made["tournament"]["name"] == "Martes de dominó", made

    # A casual duel at ana's private table, kike by its link, played to the end.
    ana.click("#create-table")
    ana.wait_for_selector("#start")
    ana.select_option("select[name=players]", "2")
    ana.check("input[name=private]")
    ana.click("#start")
    kike.goto(ana.locator(".invite-link").input_value())
    ana.wait_for_selector(".hand-tile")
    kike.wait_for_selector(".hand-tile")
    play_both_until(ana, kike, ".overlay.game-end", Counter(), timeout=600)

    record = fetch_json(ana, "/api/players/ana/vs/kike")
    assert record["opponents"]["played"] == 1 and len(record["games"]) == 1, record
    game = record["games"][0]
    ana_won = record["opponents"]["first_wins"] == 1
    winner = "ana" if ana_won else "kike"
    assert record["opponents"]["first_wins"] + record["opponents"]["second_wins"] == 1, record
    assert max(game["scores"]) >= 100 and game["private"] is True

    # ana on kike's profile: «Tú contra kike», the one game, its winner, both tantos, the replay.
    ana.goto(f"{live.http}/#/jugador/kike")
    mine = ana.locator(".head-to-head-card .h2h-mine")
    mine.locator(".h2h-game").first.wait_for()
    assert mine.locator(".h2h-title").inner_text() == "Tú contra kike"
    assert mine.locator(".h2h-opponents h4").inner_text() == "Como rivales: 1 partida"
    wins = mine.locator(".h2h-table tr[data-row=h2h_wins] td").all_inner_texts()
    assert wins == (["1", "0"] if ana_won else ["0", "1"]), wins
    points = mine.locator(".h2h-table tr[data-row=h2h_points] td").all_inner_texts()
    assert points == [str(game["first_points"]), str(game["second_points"])]
    assert sorted([game["first_points"], game["second_points"]]) == sorted(game["scores"])
    assert mine.locator(".h2h-outcome").inner_text() == f"Ganó {winner}"
    assert mine.locator(".h2h-score").inner_text() == f"{game['first_points']} – {game['second_points']}"
    assert mine.locator(".h2h-table thead th").all_inner_texts() == ["Tú", "kike"]
    replay = mine.locator(".replay-link")
    assert replay.get_attribute("href") == f"#/partida/{game['game_id']}"

    # The picker: a name nobody has reads as the server's refusal; an empty one asks for a name.
    picker = ana.locator(".head-to-head-card .h2h-picker")
    assert picker.locator("label").inner_text() == "Comparar a kike con otro jugador"
    picker.locator("button[type=submit]").click()
    assert picker.locator(".h2h-compare .form-error").inner_text() == "Escribe el nombre de otro jugador."
    picker.locator("input[name=other]").fill("fantasma")
    picker.locator("button[type=submit]").click()
    refusal = picker.locator(".h2h-result .form-error")
    refusal.wait_for()
    assert refusal.inner_text() == "No hay ningún jugador llamado «fantasma»."
    picker.locator("input[name=other]").fill("ANA")
    picker.locator("button[type=submit]").click()
    picker.locator(".h2h-result .h2h-game").first.wait_for()
    assert picker.locator(".h2h-result .h2h-title").inner_text() == "kike contra ana"

    # kike's home: ana's game with its winner and its replay; the tournament about to start.
    kike.goto(f"{live.http}/#/")
    result = kike.locator(".home-friends .hf-game")
    result.first.wait_for()
    assert result.count() == 1
    assert result.get_attribute("data-game") == game["game_id"]
    assert sorted(result.locator(".hf-who").inner_text().split(", ")) == ["ana", "kike"]
    assert result.locator(".hf-who strong").all_inner_texts() == ["ana"]  # the friend
    assert result.locator(".hf-won").inner_text() == f"Ganó {winner}"
    event = kike.locator(".home-friends .hf-event")
    assert event.locator("a").inner_text() == "Martes de dominó"
    assert event.locator(".hf-state").inner_text() == "Puedes inscribirte"

    # Profile and home at the three sizes (kike's session: «Tú contra ana»).
    state = kike.context.storage_state()
    for size in SIZES.values():
        page = console_errors.watch(
            browser.new_context(**size.context_options(), storage_state=state).new_page()
        )
        page.goto(f"{live.http}/#/jugador/ana")
        page.locator(".h2h-mine .h2h-game").first.wait_for()
        assert page.locator(".h2h-mine .h2h-title").inner_text() == "Tú contra ana"
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the profile is {overflow}px wider than a {size.name} screen"
        page.locator(".head-to-head-card").scroll_into_view_if_needed()
        page.screenshot(path=screenshots / f"head-to-head-profile-{size.name}.png")
        no_serious_violation(page, axe_source)
        page.goto(f"{live.http}/#/")
        page.locator(".home-friends .hf-game").first.wait_for()
        page.locator(".home-friends .hf-event").first.wait_for()
        overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the home is {overflow}px wider than a {size.name} screen"
        page.locator(".home-friends").scroll_into_view_if_needed()
        page.screenshot(path=screenshots / f"home-friends-{size.name}.png")
        no_serious_violation(page, axe_source)
        page.context.close()

    # The replay link of the home opens the game's replay.
    result.locator(".replay-link").click()
    kike.wait_for_url(f"**/#/partida/{game['game_id']}")

    # A guest's home has no part for friends, and asks for none.
    guest = console_errors.watch(browser.new_context(**SIZES["360x640"].context_options()).new_page())
    asked: list[str] = []
    guest.on("request", lambda request: asked.append(request.url))
    guest.goto(f"{live.http}/#/")
    guest.wait_for_selector("#practice")
    guest.wait_for_timeout(300)
    assert guest.locator(".home-friends").count() == 0
    assert not [url for url in asked if url.endswith("/api/home")]
    for page in (ana, kike, guest):
        page.context.close()  # every console message delivered
    # The browser logs the 404 that answered «fantasma» (the refusal the page showed): expected.
    console_guard[:] = [error for error in console_guard if "/vs/fantasma" not in error]
