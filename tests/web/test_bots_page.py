"""The bots' page, #/bots, in Chromium against a live server: a person makes a bot account
and sees its token once; the token opens a bot's socket; «Token nuevo» replaces it (the old
one is refused) and «Revocar token» ends it; the bots' ranking lists rated bots; a guest sees
the ranking and is asked to log in to make bots; the create form's «Acepta bots» makes a
table that accepts bots; everything in Spanish, and in English.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import websockets
from websockets.sync.client import connect

from tests.server.support.harness import LiveServer
from tests.web.conftest import DESKTOP, PHONE, ConsoleErrors
from tests.web.test_accounts import sign_up
from tranque.server.accounts.bot_tokens import BAD_TOKEN_CLOSE
from tranque.server.store import GameRow, RatingRow


def socket_answer(live: LiveServer, token: str) -> tuple[str | None, int | None]:
    """What a bot's socket opened with `token` gets: the answer to a ping, or its close code.
    (The synchronous client: Playwright's own loop runs on this thread.)"""
    headers = {"Authorization": f"Bearer {token}"}
    with connect(live.ws, additional_headers=headers, open_timeout=10) as socket:
        try:
            socket.send('{"type": "ping", "id": 1}')
            return str(socket.recv(timeout=10)), None
        except websockets.ConnectionClosed:
            return None, socket.close_code


def bots_game() -> GameRow:
    """A finished game of the bots' pool, kept with the rating it changed."""
    return GameRow(
        game_id="T-bots.1",
        table_id="T-bots",
        number=1,
        finished_at=2.0,
        preset="clasico",
        format="duel",
        players=2,
        table_kind="quick",
        private=False,
        competitive=True,
        rated=True,
        unrated_reason=None,
        summary={"seats": [], "scores": [100, 40], "goals": [0, 0], "winners": [0], "rounds": 4},
        record={},
    )


def shown_token(page: Any) -> str:
    page.wait_for_selector("input.bot-token")
    token: str = page.locator("input.bot-token").input_value()
    assert token.startswith("tqb_") and len(token) == 47
    return token


def test_a_person_makes_a_bot_renews_and_revokes_its_token(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(browser.new_context(**DESKTOP.context_options()).new_page())
    sign_up(page, live, "ana")
    page.click("#nav-bots")
    page.wait_for_selector("h2:has-text('Tus bots')")
    page.wait_for_selector(".bot-list:has-text('Todavía no tienes bots.')")
    page.fill("#bot-name", "Robotina")
    page.click("#create-bot")
    first = shown_token(page)
    assert "no se vuelve a mostrar" in page.inner_text(".bot-token-box")
    page.wait_for_selector(".bot-row[data-name=Robotina]:has-text('con token')")
    assert socket_answer(live, first) == ('{"type":"ack","id":1,"pong":true}', None)
    page.reload()  # shown once: not there any more
    page.wait_for_selector(".bot-row[data-name=Robotina]")
    assert page.locator("input.bot-token").count() == 0
    assert first not in page.content()

    page.click(".bot-row[data-name=Robotina] button[data-action=bt_new_token]")
    renewed = "first => document.querySelector('input.bot-token')?.value !== first"
    page.wait_for_function(renewed, arg=first)
    second = shown_token(page)
    assert socket_answer(live, first) == (None, BAD_TOKEN_CLOSE)
    assert socket_answer(live, second)[0] is not None

    page.click(".bot-row[data-name=Robotina] button[data-action=bt_revoke]")
    page.wait_for_selector(".bot-token-box:has-text('Token de Robotina revocado')")
    page.wait_for_selector(".bot-row[data-name=Robotina]:has-text('sin token')")
    assert socket_answer(live, second) == (None, BAD_TOKEN_CLOSE)

    page.click("#lang")
    page.wait_for_selector("h2:has-text('Your bots')")
    page.wait_for_selector(".bot-row[data-name=Robotina]:has-text('no token')")


def test_a_guest_sees_the_bots_ranking_and_is_asked_to_log_in(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    owner = console_errors.watch(browser.new_context(**DESKTOP.context_options()).new_page())
    sign_up(owner, live, "ana")

    async def seed() -> None:
        store = live.state.store
        owner = await store.find_user("ana")
        bot = await store.create_bot("Robotina", owner.user_id, 1.0, 5)
        row = RatingRow(bot.user_id, "bots:duel", 27.0, 2.0, 1500 + 60 * (27.0 - 6.0 - 17.5), 12, 2.0)
        await store.save_game(bots_game(), [], [row], [])

    live.on_server(seed)
    page = console_errors.watch(browser.new_context(**PHONE.context_options()).new_page())
    page.goto(live.http + "/#/bots")
    page.wait_for_selector(".bots-login:has-text('Entra con tu cuenta para crear bots.')")
    page.wait_for_selector(".bots-table td.who:has-text('Robotina')")
    assert page.locator(".bots-table td.games").inner_text() == "12"
    page.click(".bots-ranking button[data-pool=pairs]")
    page.wait_for_selector(".bots-ranking:has-text('Ningún bot en esta clasificación todavía.')")
    page.click("#lang")
    page.wait_for_selector(".bots-login:has-text('Log in to make bots.')")
    page.wait_for_selector('h2:has-text("Bots\' ranking")')


def test_a_table_made_to_accept_bots_says_so(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(browser.new_context(**DESKTOP.context_options()).new_page())
    sign_up(page, live, "ana")
    bodies: list[dict[str, Any]] = []
    page.on(
        "request",
        lambda request: (
            bodies.append(json.loads(request.post_data or "{}"))
            if request.method == "POST" and request.url.endswith("/api/tables")
            else None
        ),
    )
    page.click("#create-table")
    page.wait_for_selector("#start:not([disabled])")
    assert not page.is_checked("input[name=bots]")  # for people, unless the host says so
    page.check("input[name=bots]")
    assert "Acepta bots" in page.inner_text("label:has(input[name=bots])")
    page.click("#start")
    page.wait_for_selector(".table-screen .table-header")
    assert len(bodies) == 1 and bodies[0]["bots"] is True
    table = page.evaluate("location.hash").split("/")[-1]
    assert httpx.get(f"{live.http}/api/tables/{table}", timeout=20).json()["bots"] is True
