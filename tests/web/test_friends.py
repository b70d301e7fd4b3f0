"""Friends in the browser: two accounts become friends through #/amigos, one invites the other
from its table, and the other follows the notice to that table and sits down."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, login
from tests.server.support.players_helpers import make_user
from tests.web.conftest import BLOCKING, axe_violations
from tests.web.test_accessibility import describe
from tests.web.test_accounts import sign_up


def no_serious_violation(page: Any, axe_source: str) -> None:
    blocking = [rule for rule in axe_violations(page, axe_source) if rule["impact"] in BLOCKING]
    assert blocking == [], describe(blocking)


def test_two_players_become_friends_and_one_invites_the_other_to_a_table(
    browser: Any, live: LiveServer, screenshots: Path, axe_source: str
) -> None:
    ana_context = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True)
    beto_context = browser.new_context(viewport={"width": 1280, "height": 800})
    ana = ana_context.new_page()
    beto = beto_context.new_page()
    sign_up(ana, live, "ana")
    sign_up(beto, live, "beto")

    # Ana asks from the friends page; Beto's page shows the request as it arrives.
    ana.click("a.friends-link")
    ana.wait_for_selector(".friends-page .friends.friends-part")
    ana.fill("#friend-name", "beto")
    ana.click(".friend-form button[type=submit]")
    ana.wait_for_selector(".outgoing .friend-row[data-name=beto]")
    beto.wait_for_selector(".notice-friend_request:has-text('ana')")
    beto.click(".notice-friend_request button.see-request")
    beto.wait_for_selector(".incoming .friend-row[data-name=ana]")
    beto.screenshot(path=screenshots / "friends-request-1280.png")
    no_serious_violation(beto, axe_source)
    beto.click(".incoming .friend-row[data-name=ana] button.accept")
    beto.wait_for_selector(".friends.friends-part .friend-row[data-name=ana]")
    assert beto.locator(".incoming .friend-row").count() == 0

    # Ana is told, and her page now lists Beto, online.
    ana.wait_for_selector(".notice-friend_accepted:has-text('beto')")
    ana.wait_for_selector(".friends.friends-part .friend-row.online[data-name=beto] .presence-dot.online")
    assert ana.locator(".outgoing .friend-row").count() == 0
    ana.screenshot(path=screenshots / "friends-page-360.png")

    # Ana hosts a private table and invites Beto from it.
    ana.goto(live.http + "/#/crear")
    ana.wait_for_selector("#start")
    ana.select_option("select[name=players]", "2")
    ana.check("input[name=private]")
    ana.click("#start")
    ana.wait_for_selector(".invite-link")
    table = ana.evaluate("location.hash").split("/")[-1]
    ana.click("button.invite-friend")
    ana.click(".invite-friends-list .friend-row[data-name=beto] button")
    ana.wait_for_selector("#toast:has-text('beto')")
    no_serious_violation(ana, axe_source)
    ana.screenshot(path=screenshots / "friends-table-invite-360.png")

    beto.wait_for_selector(".notice-invite:has-text('ana')")
    beto.screenshot(path=screenshots / "friends-invite-1280.png")
    beto.click(".notice-invite button.go-table")
    # The table was full with Beto: the game starts for both.
    ana.wait_for_selector(".hand-tile")
    beto.wait_for_selector(".hand-tile")
    assert beto.evaluate("location.hash") == f"#/mesa/{table}"
    assert ana.locator("button.invite-friend").count() == 0  # the game is on: nobody else may sit
    assert "beto" in ana.locator(".seats-grid").inner_text()
    assert "ana" in beto.locator(".seats-grid").inner_text()
    ana_context.close()
    beto_context.close()


def test_N4_thirty_friend_requests_fold_into_one_notice_with_a_count(
    browser: Any, live: LiveServer, screenshots: Path
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True)
    beto = context.new_page()
    sign_up(beto, live, "beto")
    beto.wait_for_function("() => document.querySelector('#notices') !== null")
    askers = [f"jugador{number}" for number in range(30)]
    with contextlib.ExitStack() as stack:
        for name in askers:  # made in the store: sign-ups from one address are limited
            make_user(live, name, can_log_in=True)
            http = stack.enter_context(client(live))
            assert login(http, name).status_code == 200
            assert http.post("/api/friends", json={"name": "beto"}).status_code == 200

    # One card, counting every sender once, naming the latest; its button opens the requests.
    beto.wait_for_selector(".notice-friend_request[data-count='30']")
    assert beto.locator(".notice-friend_request").count() == 1
    text = beto.locator(".notice-friend_request p").inner_text()
    assert text == "jugador29 y 29 más te enviaron solicitud de amistad."
    beto.screenshot(path=screenshots / "friends-requests-folded-360.png")
    beto.click(".notice-friend_request button.see-request")
    beto.wait_for_selector(".incoming .friend-row[data-name=jugador0]")
    assert beto.locator(".incoming .friend-row").count() == 30
    assert beto.locator(".notice-friend_request").count() == 0
    context.close()
