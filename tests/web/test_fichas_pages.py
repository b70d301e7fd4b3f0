"""Fichas in the browser, against a live server. Off (`fichas_enabled = False`): the main flows
(home, lobby, creating a competitive table, your profile, the tournaments' page and form) show
no chip anywhere: no balance element, none of the chips' words («Apuesta», «Bote», «Saldo»,
«Entrada: N fichas»; dominó tiles are fichas too, «7 fichas» a hand, so the test looks for the
chips' own words and elements, not the word). On: your own profile shows your
balance and your history; another player's shows neither; the tournament form offers an entry
in fichas."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import ConsoleErrors, browser_settings
from tests.web.test_accounts import sign_up

# The chips' own words (a number of «fichas» is no sign: «7 fichas» is a hand of tiles).
CHIP_WORDS = re.compile(r"\b(Apuesta|Bote|Saldo|Balance|Stake|Pot)\b")
CHIP_ELEMENTS = "#fichas, .fichas-balance, .fichas-history, [data-balance], .tn-entry-fichas:not([hidden])"


@pytest.fixture
def off() -> Iterator[LiveServer]:
    with LiveServer(browser_settings(fichas_enabled=False)) as server:
        yield server


@pytest.fixture
def on() -> Iterator[LiveServer]:
    with LiveServer(browser_settings(fichas_enabled=True)) as server:
        yield server


def no_chips(page: Any, where: str) -> None:
    text = page.inner_text("body")
    found = CHIP_WORDS.search(text)
    assert found is None, f"{where}: «{found.group(0) if found else ''}» in the page"
    assert page.locator(CHIP_ELEMENTS).count() == 0, where


def test_with_fichas_off_no_page_of_the_main_flows_shows_a_chip(
    browser: Any, off: LiveServer, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(browser.new_page())
    page.goto(off.http + "/")
    page.wait_for_selector("#practice")
    no_chips(page, "home")
    sign_up(page, off, "ana")
    no_chips(page, "lobby")
    page.click("#create-table")
    page.wait_for_selector("#start:not([disabled])")
    page.check("input[name=competitive][value=yes]")
    no_chips(page, "the create form")
    page.click("#start")
    page.wait_for_selector(".table-screen .table-header")
    no_chips(page, "a competitive table")
    page.goto(off.http + "/#/jugador/ana")
    page.wait_for_selector(".profile-head h1")
    # Your profile asks GET /api/me/fichas and, told fichas are off, takes its section out.
    page.wait_for_function("() => document.getElementById('fichas') === null")
    no_chips(page, "your profile")
    page.goto(off.http + "/#/torneos")
    page.wait_for_selector(".tn-open-create")
    page.click(".tn-open-create")
    page.wait_for_selector("#tn-create-form:not([hidden])")
    page.wait_for_load_state("networkidle")
    no_chips(page, "the tournaments' page and form")
    assert page.locator(".tn-entry-fichas").is_hidden()


def test_with_fichas_on_your_profile_shows_your_balance_and_history_and_nobody_elses(
    browser: Any, on: LiveServer, console_errors: ConsoleErrors
) -> None:
    other = console_errors.watch(browser.new_context().new_page())
    sign_up(other, on, "beto")
    page = console_errors.watch(browser.new_context().new_page())
    sign_up(page, on, "ana")
    page.click("#nav-profile")
    page.wait_for_selector(".fichas-balance")
    assert page.get_attribute(".fichas-balance", "data-balance") == "1000"
    assert page.inner_text(".fichas-balance") == "Saldo: 1000 fichas"
    assert page.locator(".fichas-line .fichas-text").all_inner_texts() == ["Regalo de bienvenida"]
    assert page.locator(".fichas-line .fichas-amount").all_inner_texts() == ["+1000"]
    page.click("#lang")
    page.wait_for_selector(".fichas-balance:has-text('Balance')")
    assert "Welcome gift" in page.inner_text(".fichas-history")
    page.click("#lang")
    page.goto(on.http + "/#/jugador/beto")
    page.wait_for_selector(".profile-head h1:has-text('beto')")
    page.wait_for_load_state("networkidle")
    assert page.locator("#fichas, .fichas-balance").count() == 0  # another's: nothing of theirs
    page.goto(on.http + "/#/torneos")
    page.click(".tn-open-create")
    page.wait_for_selector(".tn-entry-fichas:not([hidden])")
    assert "Entrada en fichas" in page.inner_text(".tn-entry-fichas")
