"""A peña's season in the browser (docs/penas.md, «Seasons»): a leader creates a peña, a second
account joins with its invitation link, the leader opens a season with the form «Abrir
temporada», the two members play a competitive duel, the season's table on the page fills with
the game's PJ, G, P, TF, TC as the server recorded it, and after a member leaves their game
stays in the table. The section is photographed at the three sizes.

The peña is made through the API; beto joins on the peña's page by its invitation link, and
the season's section (web/js/pena_season.js) is read on the peña's page.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import SIZES, ConsoleErrors
from tests.web.driver import play_both_until
from tests.web.test_accounts import sign_up

POST = """async ([path, body]) => {
  const answer = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                    body: JSON.stringify(body), credentials: "same-origin"});
  return {status: answer.status, body: await answer.json()};
}"""


def post(page: Any, path: str, body: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = page.evaluate(POST, [path, body])
    assert answer["status"] in (200, 201), answer
    body_back: dict[str, Any] = answer["body"]
    return body_back


def season_rows(page: Any) -> list[list[str]]:
    rows: list[list[str]] = page.eval_on_selector_all(
        ".pena-season .season-table tbody tr",
        "rows => rows.map(r => [...r.querySelectorAll('td')].map(td => td.textContent.trim()))",
    )
    return rows


def the_game(live: LiveServer, name: str) -> dict[str, Any]:
    """The summary of the one game the account played, as the recorder kept it."""

    async def read() -> dict[str, Any]:
        user = await live.state.store.find_user(name)
        assert user is not None
        games = await live.state.store.player_games(user.user_id, user.user_id, None, 5)
        assert len(games) == 1 and games[0].rated, games
        summary: dict[str, Any] = games[0].summary
        return summary

    found: dict[str, Any] = live.on_server(read)
    return found


@pytest.mark.browser_game  # two people play a whole game: such tests take turns (tests/conftest.py)
def test_a_penas_season_fills_with_a_game_between_members(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    pages = []
    sizes = ({"width": 1280, "height": 800}, {"width": 390, "height": 844})
    for address, viewport in zip(("198.51.100.1", "198.51.100.2"), sizes, strict=True):
        context = browser.new_context(viewport=viewport, extra_http_headers={"X-Forwarded-For": address})
        pages.append(console_errors.watch(context.new_page()))
    ana, beto = pages
    sign_up(ana, live, "ana")
    sign_up(beto, live, "beto")

    # ana makes the peña and an invitation link; beto joins with it.
    pena = post(ana, "/api/penas", {"name": "Los del Martes", "crest": "gallo", "access": "invite"})
    slug = pena["slug"]
    link = post(ana, f"/api/penas/{slug}/invitations", {})
    assert link["url"] == f"/#/penas/{slug}?invitacion={link['token']}"
    beto.goto(live.http + link["url"])
    beto.click("#pena-join")
    beto.wait_for_selector(".pena-page[data-role=member] .pena-people .friend-row[data-name=beto]")
    beto.wait_for_selector(".pena-season .season-none")  # no season yet, and no form for a member
    assert beto.locator(".season-form").count() == 0

    # ana opens the season in the browser: a wrong name first, refused in Spanish.
    season_page = console_errors.watch(ana.context.new_page())
    season_page.goto(f"{live.http}/#/penas/{slug}")
    season_page.wait_for_selector(".pena-season .season-form")
    season_page.evaluate("document.querySelector('#season-name').removeAttribute('maxlength')")
    season_page.fill("#season-name", "x" * 41)
    season_page.click("#season-open")
    season_page.wait_for_selector(".season-error:has-text('lleva de 1 a 40 caracteres')")
    expected_refusal = "status of 422"  # the refused name, answered as the form shows it
    console_errors[:] = [error for error in console_errors if expected_refusal not in error]
    for size in SIZES.values():  # the leader's form at the three sizes
        season_page.set_viewport_size({"width": size.width, "height": size.height})
        season_page.locator(".pena-season").screenshot(path=screenshots / f"pena-season-form-{size.name}.png")
    season_page.fill("#season-name", "Apertura")
    season_page.select_option("#season-scope", "rated")
    season_page.select_option("#season-points", "tres_uno")
    season_page.click("#season-open")
    season_page.wait_for_selector(".pena-season h3:has-text('Apertura')")
    assert season_page.locator(".season-form").count() == 0
    assert "Todavía no hay partidas que cuenten" in season_page.inner_text(".pena-season")
    assert "3 por ganada, 1 por perdida" in season_page.inner_text(".season-about")

    # The two members play a competitive duel to the smallest target.
    ana.goto(live.http + "/#/")
    ana.click("#create-table")
    ana.wait_for_selector("#start")
    ana.select_option("select[name=players]", "2")
    smallest = ana.eval_on_selector("select[name=target]", "s => s.options[0].value")
    ana.select_option("select[name=target]", smallest)
    ana.check("input[name=competitive][value=yes]")
    ana.check("input[name=private]")
    ana.click("#start")
    beto.goto(ana.locator(".invite-link").input_value())
    ana.wait_for_selector(".hand-tile")
    beto.wait_for_selector(".hand-tile")
    play_both_until(ana, beto, ".overlay.game-end", Counter(), timeout=600)

    # The season's table, left open on ana's other page, fills with the recorded game.
    season_page.wait_for_selector(".season-table tbody tr", timeout=60_000)
    summary = the_game(live, "ana")
    seat_of = {seat["name"]: seat["seat"] for seat in summary["seats"]}
    scores, winners = summary["scores"], summary["winners"]
    expected = {}
    for name in ("ana", "beto"):
        own, other = scores[seat_of[name]], scores[1 - seat_of[name]]
        won = seat_of[name] in winners
        expected[name] = ["1", "1" if won else "0", "0" if won else "1", str(own), str(other)]
    rows = {row[1]: row for row in season_rows(season_page)}
    assert set(rows) == {"ana", "beto"}
    for name, row in rows.items():
        assert row[2:7] == expected[name], (name, row, summary)
        assert row[8] == ("3" if expected[name][1] == "1" else "1")
    assert season_rows(season_page)[0][1] == next(n for n in ("ana", "beto") if expected[n][1] == "1")

    # beto leaves the peña: his game stays in the season's table.
    left = post(beto, f"/api/penas/{slug}/leave", {})
    assert left["outcome"] == "left"
    season_page.reload()
    season_page.wait_for_selector(".season-table tbody tr")
    assert {row[1]: row for row in season_rows(season_page)} == rows

    # The section at the three sizes, each in a page of that size (a phone's touch too).
    for size in SIZES.values():
        context = browser.new_context(**size.context_options(), storage_state=ana.context.storage_state())
        page = console_errors.watch(context.new_page())
        page.goto(f"{live.http}/#/penas/{slug}")
        page.wait_for_selector(".season-table tbody tr")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= size.width, (size.name, width)  # nothing wider than the screen
        page.locator(".pena-season").screenshot(path=screenshots / f"pena-season-{size.name}.png")
        page.screenshot(path=screenshots / f"pena-season-page-{size.name}.png")
        context.close()
