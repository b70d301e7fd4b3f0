"""The moderators' page, #/moderacion, and «Reportar», in Chromium against a live server.

A player reports another from the profile page; a moderator finds the report in the queue,
suspends the account from the page: the suspended account's table gets the table's bot on
its seat, its socket is closed, it cannot log in, and the action is in the audit log the
page shows; «Deshacer» lifts it and the account logs in again. A player who is not a
moderator is told the page is not for them. Spanish, English, and no serious axe-core
violation on the page.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import httpx
import websockets
from websockets.sync.client import connect

from tests.server.moderation.helpers import playing_table, seat_state
from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import PASSWORD
from tests.web.conftest import DESKTOP, PHONE, ConsoleErrors, axe_violations
from tests.web.test_accounts import sign_up
from tranque.server.accounts.sessions import LOGGED_OUT_CLOSE, SESSION_COOKIE
from tranque.server.store.moderation import LogEntry


def grant(live: LiveServer, name: str, role: str) -> None:
    async def run() -> None:
        user = await live.state.store.find_user(name)
        entry = LogEntry(live.settings.clock.now(), None, "grant", user.user_id, None, "test", {"role": role})
        await live.state.store.set_role(user.user_id, role, entry)

    live.on_server(run)


@contextlib.contextmanager
def registered(live: LiveServer, name: str) -> Iterator[httpx.Client]:
    """An HTTP client logged in to a new account `name`."""
    with httpx.Client(base_url=live.http, timeout=20) as http:
        assert http.post("/api/register", json={"name": name, "password": PASSWORD}).status_code == 201
        yield http


def login_code(live: LiveServer, name: str) -> tuple[int, str | None]:
    answer = httpx.post(live.http + "/api/login", json={"name": name, "password": PASSWORD}, timeout=20)
    return answer.status_code, answer.json().get("code") if answer.status_code != 200 else None


def test_a_player_reports_from_a_profile_and_never_themself(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    with registered(live, "Beto"):
        page = console_errors.watch(browser.new_context(**PHONE.context_options()).new_page())
        sign_up(page, live, "ana")
        page.goto(live.http + "/#/jugador/ana")
        page.wait_for_selector("h1:has-text('ana')")
        page.wait_for_selector(".profile-card.xp")
        assert page.locator(".report-open").count() == 0  # not oneself
        page.goto(live.http + "/#/jugador/Beto")
        page.click(".report-open[data-player=Beto]")
        page.select_option(".report-form select[name=reason]", "abuse")
        page.fill(".report-form textarea[name=note]", "Me insultó en la mesa")
        page.click(".report-send")
        page.wait_for_selector(".report-done:has-text('Reporte enviado')")
        # A player who is not a moderator is told so on the moderators' page.
        assert page.locator("#nav-moderation").is_hidden()
        page.goto(live.http + "/#/moderacion")
        page.wait_for_selector("[role=alert]:has-text('solo para moderadores')")


def test_a_moderator_suspends_an_account_from_the_page_and_undoes_it(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, axe_source: str
) -> None:
    with registered(live, "Pedro") as pedro, registered(live, "Caro") as caro:
        pedro_id = pedro.get("/api/me").json()["id"]
        table_id, token = playing_table(live, pedro_id, "Pedro")
        assert (
            caro.post(
                "/api/reports", json={"player": "Pedro", "reason": "stalling", "note": "no juega"}
            ).status_code
            == 201
        )
        cookie = {"Cookie": f"{SESSION_COOKIE}={pedro.cookies[SESSION_COOKIE]}"}
        with connect(live.ws, additional_headers=cookie, open_timeout=10) as socket:
            socket.send(f'{{"type": "hello", "table": "{table_id}", "token": "{token}", "id": 1}}')
            socket.recv(timeout=10)
            assert seat_state(live, table_id, 0)["state"] == "present"

            page = console_errors.watch(browser.new_context(**DESKTOP.context_options()).new_page())
            sign_up(page, live, "Mod")
            grant(live, "Mod", "moderator")
            page.reload()
            page.click("#nav-moderation")
            item = page.wait_for_selector(".md-item:has-text('no juega')")
            assert "Pedro" in item.inner_text() and "Caro" in item.inner_text()
            page.click(".md-item button:has-text('Sancionar a Pedro')")
            assert page.input_value("#md-player") == "Pedro"
            page.select_option("#md-kind", "suspend")
            page.fill("#md-minutes", "120")
            page.fill("#md-why", "Hace tiempo a propósito")
            page.click(".md-apply")
            page.wait_for_selector(".md-log-row[data-action=suspend]:has-text('Pedro')")
            row = page.inner_text(".md-log-row[data-action=suspend]")
            assert "Mod" in row and "Hace tiempo a propósito" in row and "suspender" in row
            page.wait_for_selector(".md-sanction[data-holds=true]")

            # Its socket is closed, its seat covered by the table's bot, its login refused.
            try:
                while True:
                    socket.recv(timeout=10)
            except websockets.ConnectionClosed:
                pass
            assert (socket.close_code, socket.close_reason) == (LOGGED_OUT_CLOSE, "account_suspended")
        assert seat_state(live, table_id, 0)["state"] == "covered"
        assert login_code(live, "Pedro") == (403, "account_suspended")
        (entry,) = [
            e for e in live.on_server(lambda: live.state.store.moderation_log(10)) if e.action == "suspend"
        ]
        assert entry.item_id is not None  # the sanction answers the report it came from
        assert pedro.get("/api/me").status_code == 401

        blocking = [
            rule for rule in axe_violations(page, axe_source) if rule["impact"] in ("serious", "critical")
        ]
        assert blocking == [], blocking

        # «Deshacer»: the account logs in again, and the undo is in the log.
        page.fill(".md-undo-why", "Se equivocó de cuenta")
        page.click(".md-undo")
        page.wait_for_selector(".md-log-row[data-action=unsuspend]:has-text('Se equivocó de cuenta')")
        page.wait_for_selector(".md-sanction[data-holds=false]")
        assert login_code(live, "Pedro") == (200, None)

        # Closing the report; then the page in English.
        page.fill(".md-resolution", "Suspendido dos horas")
        page.click(".md-close")
        page.wait_for_selector(".md-queue-empty")
        page.click("#lang")
        page.wait_for_selector("h2:has-text('Moderation log')")
        page.wait_for_selector(".md-log-row[data-action=close]:has-text('close item')")
