"""The browser checks each round's deal itself: a server that reveals a wrong seed is caught.

The test server is the real one (LiveServer runs uvicorn in this process); the lie is put in
the narrowest seam, what leaves the server: the projection of `round_ended` (and, for the
subtler lie, of `round_started`) that every viewer receives. The stored events, the game and
the record stay honest, so only the browser's own check can notice.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import ConsoleErrors
from tests.web.driver import act_once, play_until
from tests.web.test_practice import start_practice
from tranque.server.table.actor import Table
from tranque.server.table.round_events import RoundEnded, RoundStarted

FAKE_SEED = bytes(range(7, 39))  # 32 bytes that are not any round's seed


def commitment(seed: bytes, salt_hex: str) -> str:
    return hashlib.sha256(seed + bytes.fromhex(salt_hex)).hexdigest()


def reveal_a_wrong_seed(monkeypatch: pytest.MonkeyPatch, *, commit_to_it: bool) -> None:
    """`round_ended` reveals FAKE_SEED, with a commitment that matches it. With `commit_to_it`
    the server also published that commitment at the deal (in `round_started`, and in the
    `sync` a page gets when it opens a round already dealt, as a practice game's first), so
    the hash checks out and only the re-deal from the seed can tell that this is not the deal
    that was played."""
    ended = RoundEnded.project

    def lying_end(self: RoundEnded, viewer: Any) -> dict[str, Any]:
        data = ended(self, viewer)
        if data.get("salt"):
            data = {**data, "seed": FAKE_SEED.hex(), "commitment": commitment(FAKE_SEED, data["salt"])}
        return data

    monkeypatch.setattr(RoundEnded, "project", lying_end)
    if commit_to_it:
        started = RoundStarted.project

        def lying_start(self: RoundStarted, viewer: Any) -> dict[str, Any]:
            return {**started(self, viewer), "commitment": commitment(FAKE_SEED, self.secret.salt.hex())}

        monkeypatch.setattr(RoundStarted, "project", lying_start)
        snapshot = Table.snapshot

        def lying_sync(self: Table, viewer: Any) -> dict[str, Any]:
            data = snapshot(self, viewer)
            game = self.state.game
            secret = self.state.secrets.get(game.round_number) if game else None
            if secret is not None and data.get("commitment"):
                data = {**data, "commitment": commitment(FAKE_SEED, secret.salt.hex())}
            return data

        monkeypatch.setattr(Table, "snapshot", lying_sync)


@pytest.fixture
def live(live_paused: LiveServer) -> LiveServer:
    """The round-end card stays up until the test has read it (the next round would close it)."""
    return live_paused


def first_round_check(page: Any) -> str:
    """Play the first round by clicking; the round-end card's deal line once it is checked."""
    play_until(page, ".overlay.round-end", Counter())
    page.wait_for_selector(".overlay.round-end .res-fair:not([data-state=checking])")
    text: str = page.locator(".overlay.round-end .res-fair").inner_text()
    return text


def test_an_honest_deal_reads_verified_by_this_browser(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live)
    text = first_round_check(page)
    assert text == "✔ Reparto verificado por este navegador"
    assert page.locator(".overlay.round-end .res-fair").get_attribute("data-state") == "ok"
    page.screenshot(path=screenshots / "round-end-verified-1280.png")


def test_a_revealed_seed_that_is_not_the_committed_one_reads_not_verified(
    browser: Any,
    live: LiveServer,
    console_errors: ConsoleErrors,
    monkeypatch: pytest.MonkeyPatch,
    screenshots: Path,
) -> None:
    reveal_a_wrong_seed(monkeypatch, commit_to_it=False)
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live)
    text = first_round_check(page)
    # round_ended's own commitment matches the fake seed: only the one kept from
    # round_started gives the lie away.
    assert text.startswith("✘ Reparto no verificado: "), text
    assert text == (
        "✘ Reparto no verificado: "
        "SHA-256(semilla ‖ sal) no coincide con el compromiso publicado al repartir; "
        "el compromiso repetido al final no es el publicado al repartir"
    )
    page.screenshot(path=screenshots / "round-end-not-verified-1280.png")


def test_a_seed_committed_to_but_not_dealt_reads_not_verified(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, monkeypatch: pytest.MonkeyPatch
) -> None:
    reveal_a_wrong_seed(monkeypatch, commit_to_it=True)
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live)
    text = first_round_check(page)
    assert text.startswith("✘ Reparto no verificado: "), text
    # The hash holds: the re-deal is what fails, and the card says so in one reason.
    assert text == "✘ Reparto no verificado: tu mano no es la que sale de la semilla"


def test_a_round_reloaded_in_the_middle_is_still_verified(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors
) -> None:
    """After a reload the page has only the `sync`: the commitment of the round in play and its
    events so far. The dealt hand is rebuilt from them, and the round still checks out."""
    page = console_errors.watch(browser.new_page(viewport={"width": 1280, "height": 800}))
    start_practice(page, live)
    seen: Counter[str] = Counter()
    while seen["play"] + seen["both_ends"] + seen["draw"] < 3:  # a round of 7 tiles each lasts longer
        if not act_once(page, seen):
            page.wait_for_timeout(40)
    page.reload()
    page.wait_for_selector(".hand-tile")
    text = first_round_check(page)
    assert text == "✔ Reparto verificado por este navegador"
