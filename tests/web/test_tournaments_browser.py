"""Tournaments in the browser (js/tournaments.js, docs/protocol.md «Tournaments»).

Two kinds of test. The first draw the pages from fixed answers in the contract's shapes
(tournament_fixtures.py, served in place of /api/tournaments by Playwright's routing; the
rest of the site is a live server's): the list, a live minitorneo, its podium, duplicado's
deals checked by the browser, a private tournament's invitation, a tournament notice, and
screenshots of the list, a live page and the podium at the three sizes. The others run
against a real server: a private tournament made with the form is joined by its link; and
the whole thing: four people who signed up through the page and four bots play a minitorneo
of 8 created with the page's own form, each person going to their table from the notice or
«Ir a mi mesa» (whose header links back to the tournament) and playing by clicking tiles, to
the podium; the standings, the podium and the players' profiles show it, photographed at
the three sizes.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.server.support.harness import LiveServer
from tests.web import tournament_fixtures as fx
from tests.web.conftest import (
    BLOCKING,
    DESKTOP,
    PHONE,
    SIZES,
    ConsoleErrors,
    Size,
    axe_violations,
    browser_settings,
)
from tests.web.driver import Deadline, act_once
from tests.web.test_accessibility import describe
from tests.web.test_accounts import sign_up
from tests.web.test_players_pages import needs


class FixedTournaments:
    """Answers /api/tournaments... from the fixtures, and notes every POST body it is sent."""

    def __init__(self) -> None:
        self.details: dict[str, dict[str, Any]] = {
            "t-live": fx.detail("running"),
            "t-done": fx.detail("finished"),
            "t-copa": fx.open_detail("CODIGO-1"),
            "t-dup": fx.duplicate_detail(),
            "t-dup-bad": {**fx.duplicate_detail(tampered=True), "id": "t-dup-bad"},
        }
        self.posts: list[tuple[str, dict[str, Any]]] = []

    def install(self, page: Any) -> None:
        page.route(lambda url: urlsplit(url).path.startswith("/api/tournaments"), self.answer)

    def answer(self, route: Any) -> None:
        request = route.request
        parts = urlsplit(request.url)
        query = parse_qs(parts.query)
        tail = parts.path.removeprefix("/api/tournaments").strip("/").split("/")
        if request.method == "POST":
            body = json.loads(request.post_data or "{}")
            self.posts.append((parts.path, body))
            ident = tail[0]
            after = dict(self.details[ident])
            after["me"] = {**after["me"], "registered": True, "can_register": False, "can_withdraw": True}
            self.details[ident] = after
            route.fulfill(status=200, json=after)
        elif tail == [""]:
            route.fulfill(status=200, json=fx.listing(query.get("status", ["upcoming"])[0]))
        elif tail[0] in self.details:
            route.fulfill(status=200, json=self.details[tail[0]])
        else:
            refusal = {
                "code": "tournament_not_found",
                "message": "No existe ese torneo.",
                "message_en": "No such tournament.",
            }
            route.fulfill(status=404, json=refusal)


def no_serious_violation(page: Any, axe_source: str) -> None:
    blocking = [rule for rule in axe_violations(page, axe_source) if rule["impact"] in BLOCKING]
    assert blocking == [], describe(blocking)


def options_of(page: Any, selector: str) -> list[str]:
    values: list[str] = page.eval_on_selector(selector, "(s) => [...s.options].map((o) => o.value)")
    return values


@pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
def test_the_list_a_live_tournament_and_its_podium_at_each_size(
    open_page: Callable[[Size], Any], live: LiveServer, screenshots: Path, axe_source: str, size: Size
) -> None:
    folder = screenshots / "tournaments" / size.name  # apart from the gallery's own folders
    folder.mkdir(parents=True, exist_ok=True)
    page = open_page(size)
    FixedTournaments().install(page)
    sign_up(page, live, "ana")

    # The list: the header's link, the upcoming tab, each row's facts, and the form.
    page.click("#nav-tournaments")
    page.wait_for_selector(".tn-row")
    assert page.locator(".tn-row").count() == 3
    first = page.locator(".tn-row[data-tournament=t-copa]").inner_text()
    for fact in ("Copa del Caribe", "Minitorneo · 1 contra 1", "5/8", "Cuando se llene", "Amistoso"):
        assert fact in first, first
    assert "Suizo · Parejas" in page.locator(".tn-row[data-tournament=t-suizo]").inner_text()
    assert page.locator(".tn-tabs .tab.current").inner_text() == "Próximos"
    page.click(".tn-open-create")
    page.wait_for_selector("#tn-create-form:not([hidden])")
    assert options_of(page, "#tn-entry") == ["duel", "pairs"]
    assert options_of(page, "#tn-size-ko") == ["4", "8", "16"]
    page.select_option("#tn-format", "suizo")
    assert options_of(page, "#tn-entry") == ["duel", "pairs", "rotating"]
    assert page.locator("#tn-rounds").is_visible() and not page.locator("#tn-size-ko").is_visible()
    page.select_option("#tn-format", "minitorneo")
    page.fill("#tn-name", "Copa del Caribe")
    page.screenshot(path=folder / "tournaments-list.png", full_page=True)
    if size in (DESKTOP, PHONE):
        no_serious_violation(page, axe_source)

    # A live minitorneo in its semi-finals: «Ir a mi mesa», standings, the rounds' games.
    page.goto(live.http + "/#/torneo/t-live")
    page.wait_for_selector(".tn-standings tbody tr")
    assert page.locator(".tn-badge").inner_text() == "En juego"
    assert page.locator(".tn-round-now").inner_text() == "Semifinales"
    assert page.locator("button.tn-go-table").is_visible()
    rows = page.locator(".tn-standings tbody tr")
    assert rows.count() == 8
    assert re.split(r"\s+", rows.first.inner_text().strip()) == [
        "1º",
        "ana",
        "3",
        "3",
        "0",
        "+29",
        "63",
        "34",
    ]
    assert rows.first.get_attribute("aria-current") == "true"  # ana's own row
    assert rows.nth(4).locator(".place").inner_text() == "=5º"
    assert page.locator(".tn-round[data-round='2'] h3").inner_text() == "Semifinales"
    assert page.locator(".tn-round[data-round='1'] h3").inner_text() == "Cuartos de final"
    assert page.locator(".tn-game .watch-table").count() == 6
    assert page.locator(".tn-game[data-key='2-1'] .tn-game-state").inner_text() == "en juego"
    assert page.locator(".tn-game[data-key='2-1'] .watch-table").get_attribute("href") == "#/mesa/mesa-21"
    page.screenshot(path=folder / "tournament-live.png", full_page=True)
    if size in (DESKTOP, PHONE):
        no_serious_violation(page, axe_source)

    # Finished: the podium, first in the middle, and the last round's final and third place.
    page.goto(live.http + "/#/torneo/t-done")
    page.wait_for_selector(".tn-podium")
    steps = page.locator(".tn-podium .tn-step")
    assert [steps.nth(i).get_attribute("aria-label") for i in range(3)] == [
        "1º lugar: ana",
        "2º lugar: carla",
        "3º lugar: dora",
    ]
    assert page.locator(".tn-round[data-round='3'] h3").inner_text() == "Final y tercer puesto"
    assert page.locator(".tn-game[data-key='3-1'] .tn-game-kind").inner_text() == "Final"
    assert page.locator(".tn-game[data-key='3-2'] .tn-game-kind").inner_text() == "Tercer puesto"
    assert page.locator("button.tn-go-table").count() == 0
    page.screenshot(path=folder / "tournament-podium.png", full_page=True)
    if size in (DESKTOP, PHONE):
        no_serious_violation(page, axe_source)


def test_duplicado_deals_are_checked_by_the_browser_and_a_swapped_seed_is_caught(
    browser: Any, live: LiveServer, screenshots: Path
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    FixedTournaments().install(page)
    page.goto(live.http + "/#/torneo/t-dup")
    page.wait_for_selector(".tn-deals")
    assert page.locator(".tn-commitments li").count() == 3
    assert page.locator(".tn-bye").inner_text() == f"{fx.BOTS[0]} descansa"
    head = page.locator(".tn-standings thead").inner_text()
    assert "PM" in head and "Desemp." not in head
    assert page.locator(".tn-standings tbody tr").first.locator(".mp").inner_text() == "10,5"
    page.click("button.tn-verify")
    page.wait_for_selector(".tn-verdict.ok")
    assert page.locator(".tn-verdict").inner_text().startswith("✔ Verificado")
    page.screenshot(path=screenshots / "tournament-duplicado-1280.png", full_page=True)

    page.goto(live.http + "/#/torneo/t-dup-bad")
    page.wait_for_selector("button.tn-verify")
    page.click("button.tn-verify")
    page.wait_for_selector(".tn-verdict:not(:empty)")
    assert page.locator(".tn-verdict").inner_text() == "✘ No verificado: Mano 2, Mano 3"


def test_a_private_pairs_tournament_registers_by_its_link_naming_a_partner(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 390, "height": 844}))
    fixed = FixedTournaments()
    fixed.install(page)
    sign_up(page, live, "beto")
    page.goto(live.http + "/#/torneo/t-copa?invite=CODIGO-1")
    page.wait_for_selector("button.tn-register")
    assert page.locator(".tn-entrant-list li").count() == 5
    page.fill("#tn-partner", "carla")
    page.click("button.tn-register")
    page.wait_for_selector(".tn-registered")
    assert fixed.posts == [("/api/tournaments/t-copa/register", {"invite": "CODIGO-1", "partner": "carla"})]
    assert page.locator("button.tn-withdraw").is_visible()
    page.wait_for_selector("#toast:has-text('Inscrito en «Copa del Caribe».')")
    # The creator (the invitation kept when the form created it) sees the link to copy.
    page.evaluate("() => localStorage.setItem('tranque.tournament.invite.t-copa', 'CODIGO-1')")
    page.goto(live.http + "/#/torneo/t-copa")
    page.wait_for_selector(".tn-invite-link")
    assert page.locator(".tn-invite-link").input_value().endswith("/#/torneo/t-copa?invite=CODIGO-1")


def test_a_tournament_notice_offers_the_table_and_the_tournament_in_either_language(
    browser: Any, live: LiveServer
) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 640})
    FixedTournaments().install(page)
    sign_up(page, live, "ana")
    notice = {
        "type": "tournament",
        "tournament": "t-live",
        "name": "Copa",
        "event": "round",
        "round": 2,
        "table": "mesa-21",
        "seat": 0,
    }
    page.evaluate("(m) => window.tranque.message(m)", notice)
    card = page.locator(".notice-tournament-round")
    assert card.locator("p").inner_text() == "«Copa», ronda 2: tu mesa está lista."
    assert card.locator("button.go-my-table").inner_text() == "Ir a mi mesa"
    page.evaluate("(m) => window.tranque.message(m)", {**notice, "event": "finished", "table": None})
    assert page.locator(".notice-tournament").count() == 1  # one card per tournament, the latest
    page.click(".notice-tournament-finished button.see-tournament")
    page.wait_for_selector(".tournament-page[data-tournament=t-live] .tn-standings")
    page.click("#lang")
    page.evaluate("(m) => window.tranque.message(m)", {**notice, "event": "round", "table": None})
    assert (
        page.locator(".notice-tournament-round p").inner_text()
        == "«Copa», round 2: you have a bye this round."
    )
    page.wait_for_selector(".tn-standings th:has-text('Place')")
    assert page.locator(".tn-round-now").inner_text() == "Semi-finals"


# Against the server ------------------------------------------------------------------------


def test_a_private_tournament_made_with_the_form_is_joined_by_its_copied_link(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    needs(live.http, "/api/tournaments")
    host = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    guest = browser.new_context(
        viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True
    ).new_page()
    sign_up(host, live, "ana")
    sign_up(guest, live, "beto")
    host.click("#nav-tournaments")
    host.click(".tn-open-create")
    # A refusal of the server's is shown as it says it (a name of two letters).
    host.fill("#tn-name", "Co")
    host.click("#tn-submit")
    host.wait_for_selector(".tn-form .form-error:not(:empty)")
    refusal = host.locator(".tn-form .form-error").inner_text()
    assert "nombre" in refusal.lower(), refusal
    console_errors[:] = [error for error in console_errors if "status of 422" not in error]
    host.fill("#tn-name", "Copa privada")
    host.select_option("#tn-format", "suizo")
    host.select_option("#tn-entry", "pairs")
    host.fill("#tn-size-any", "8")
    host.fill("#tn-rounds", "3")
    host.uncheck("input[name=rated]")
    host.check("input[name=private]")
    host.click("#tn-submit")
    host.wait_for_selector(".tn-invite-link")
    link = host.locator(".tn-invite-link").input_value()
    assert "/#/torneo/" in link and "?invite=" in link, link
    assert host.locator(".tn-facts").inner_text().count("Privado") == 1
    # Not listed for anyone, and refused without the link.
    guest.goto(live.http + "/#/torneos")
    guest.wait_for_selector(".tn-list-body:not([aria-busy])")
    assert guest.locator(".tn-row").count() == 0
    ident = link.split("/#/torneo/")[1].split("?")[0]
    guest.goto(live.http + f"/#/torneo/{ident}")
    guest.wait_for_selector(".tournament-page .form-error")
    # Chromium logs the refusal's status; it is the one this test asked for.
    console_errors[:] = [error for error in console_errors if "status of 40" not in error]
    # With the link: a pairs event asks for a partner; beto names carla (not in yet) and is in.
    guest.goto(link)
    guest.wait_for_selector("button.tn-register")
    assert guest.locator("#tn-partner").is_visible()
    guest.fill("#tn-partner", "carla")
    guest.click("button.tn-register")
    guest.wait_for_selector(".tn-registered")
    assert "beto" in guest.locator(".tn-entrants-box").inner_text()
    assert guest.locator("button.tn-withdraw").is_visible()
    assert guest.locator(".tn-invite-link").count() == 0  # the link is the creator's to give
    host.reload()
    host.wait_for_selector(".tn-entrant-list li")
    assert "beto" in host.locator(".tn-entrants-box").inner_text()


# The whole thing, against the server -----------------------------------------------------

PEOPLE = ["ana", "beto", "carla", "dora"]


@pytest.fixture
def live_tournaments() -> Iterator[LiveServer]:
    """A server whose tournaments move fast: the director looks every fifth of a second and a
    person not at their table is covered by a bot only after a long grace (the test's four
    pages are driven one after another)."""
    settings = browser_settings(tournament_tick_seconds=0.2, tournament_absent_grace_seconds=120.0)
    with LiveServer(settings) as server:
        yield server


def at_table(page: Any) -> bool:
    return bool(page.evaluate("() => location.hash.startsWith('#/mesa/')"))


def step(page: Any, seen: Counter[str]) -> bool:
    """One thing a person does, if there is one: follow a notice to their table, or
    «Ir a mi mesa» on the tournament's page, play at the table, or leave a finished game for
    the tournament's page. True when something was clicked."""
    from playwright.sync_api import Error as PlaywrightError

    try:
        go = page.locator(".notice-tournament button.go-my-table")
        if go.count():
            go.first.click(timeout=2000)
            seen["notice_to_table"] += 1
            return True
        if at_table(page):
            back = page.locator(".overlay.game-end button.res-tournament")
            if back.count():
                back.click(timeout=2000)
                seen["back_to_tournament"] += 1
                return True
            return act_once(page, seen)
        mine = page.locator(".tournament-page button.tn-go-table")
        if mine.count():
            mine.click(timeout=2000)
            seen["go_table"] += 1
            return True
    except PlaywrightError:
        return False
    return False


def test_four_people_and_four_bots_play_a_minitorneo_to_the_podium(
    browser: Any, live_tournaments: LiveServer, screenshots: Path
) -> None:
    live = live_tournaments
    needs(live.http, "/api/tournaments")
    pytest.importorskip("tranque.server.tournaments.director", reason="no director yet: nothing starts")
    sizes = dict(zip(PEOPLE, [DESKTOP, PHONE, SIZES["390x844"], DESKTOP], strict=True))
    pages = {}
    for name in PEOPLE:
        pages[name] = browser.new_context(**sizes[name].context_options()).new_page()
        sign_up(pages[name], live, name)
    ana = pages["ana"]
    shot: set[tuple[str, str]] = set()

    def shoot(name: str, what: str) -> None:
        """The page of `name` as it is, once per screen size and moment."""
        size = sizes[name].name
        if (size, what) in shot:
            return
        shot.add((size, what))
        folder = screenshots / "tournaments" / size
        folder.mkdir(parents=True, exist_ok=True)
        pages[name].screenshot(path=folder / f"tournament-play-{what}.png", full_page=True)

    # Ana creates it with the page's own form: 8 duels, to 20, bots fill after a short wait.
    ana.click("#nav-tournaments")
    ana.click(".tn-open-create")
    ana.fill("#tn-name", "Minitorneo de prueba")
    ana.select_option("#tn-format", "minitorneo")
    ana.select_option("#tn-entry", "duel")
    ana.select_option("#tn-size-ko", "8")
    ana.fill("#tn-target", "20")
    ana.fill("#tn-cap_minutes", "10")
    ana.check("input[name=bot_fill]")
    ana.fill("#tn-fill_wait_minutes", "0.5")
    ana.uncheck("input[name=rated]")
    ana.click("#tn-submit")
    ana.wait_for_selector(".tournament-page .tn-head")
    ident = ana.evaluate("() => document.querySelector('.tournament-page').dataset.tournament")

    # Everyone finds it in the list and registers (Ana too, if creating did not register her).
    for name, page in pages.items():
        page.goto(live.http + "/#/torneos")
        page.wait_for_selector(f".tn-row[data-tournament='{ident}']")
        shoot(name, "list")
        page.click(f".tn-row[data-tournament='{ident}'] a.tn-name")
        page.wait_for_selector(".tournament-page .tn-head")
        if page.locator("button.tn-register").count():
            page.click("button.tn-register")
        page.wait_for_selector(".tn-registered")
        assert name in page.locator(".tn-entrants-box, .tn-standings-box").first.inner_text()

    # Bots fill the rest; each person plays every game they are paired for, by clicking.
    seen = {name: Counter[str]() for name in PEOPLE}
    deadline = Deadline(900, "the minitorneo did not finish")
    while ana.locator(".tournament-page[data-status=finished]").count() == 0 or any(
        at_table(page) for page in pages.values()
    ):
        deadline.check(sum(seen.values(), Counter()))
        moved = False
        for name, page in pages.items():
            moved = step(page, seen[name]) or moved
            if at_table(page) and page.locator(".hand-tile").count():
                seen[name]["had_a_hand"] += 1  # seated with a hand, not watching
                if page.locator(f".table-header a.tournament-link[href='#/torneo/{ident}']").count():
                    seen[name]["linked_back"] += 1  # the table's header leads back to the tournament
                    shoot(name, "table")
            waiting = not at_table(page) and not page.locator(".go-my-table, .tn-go-table").count()
            if waiting and page.locator(".tournament-page[data-status=running] .tn-standings").count():
                shoot(name, "live")  # someone between games, or out, watching the rest
        if not at_table(ana) and not ana.locator(".tournament-page").count():
            ana.goto(live.http + f"/#/torneo/{ident}")
        if not moved:
            ana.wait_for_timeout(60)
    for name in PEOPLE:  # each person went to their table from the notice or the page, and played
        assert seen[name]["notice_to_table"] + seen[name]["go_table"] >= 1, (name, dict(seen[name]))
        assert seen[name]["had_a_hand"] >= 1, (name, dict(seen[name]))
        assert seen[name]["linked_back"] >= 1, (name, dict(seen[name]))
        moves = sum(seen[name][move] for move in ("play", "both_ends", "draw", "pass"))
        assert moves >= 1, (name, dict(seen[name]))  # played by clicking, not covered by a bot

    # The podium and the standings, on every person's page.
    for name, page in pages.items():
        page.goto(live.http + f"/#/torneo/{ident}")
        page.wait_for_selector(".tn-podium .tn-step")
        assert page.locator(".tn-podium .tn-step").count() == 3
        assert page.locator(".tn-standings tbody tr").count() == 8
        assert page.locator(".tn-round").count() == 3
        assert page.locator(".tn-badge").inner_text() == "Terminado"
        while page.locator(".notice .close-notice").count():
            page.locator(".notice .close-notice").first.click()  # read: the page is photographed whole
        shoot(name, "podium")
    final = ana.locator(".tn-round[data-round='3'] .tn-game-kind")
    assert sorted(final.all_inner_texts()) == ["Final", "Tercer puesto"]
    first = ana.locator(".tn-podium .tn-step[data-place='1'] .tn-winner").inner_text()
    assert ana.locator(".tn-standings tbody tr").first.locator(".who").inner_text() == first

    # Each person's profile lists it, with the place reached.
    for name, page in pages.items():
        page.goto(live.http + f"/#/jugador/{name}")
        row = page.locator(f".tn-profile-list li[data-tournament='{ident}']")
        row.wait_for()
        assert "Minitorneo de prueba" in row.inner_text()
        assert re.search(r"\d+º de 8", row.inner_text()), row.inner_text()
    shoot("ana", "profile")
    for page in pages.values():
        page.context.close()
