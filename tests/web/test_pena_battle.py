"""Peña against peña on a tournament's page (docs/tournaments.md, «Peña against peña»): the
peñas' standing box, and registering for one's peña from the page's own form (a peña one is
not a member of refused in Spanish). Photographed at the three sizes."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from tests.server.support.harness import LiveServer
from tests.web.conftest import SIZES, ConsoleErrors
from tests.web.test_accounts import sign_up
from tests.web.test_pena_season import post


def test_a_battle_shows_the_penas_standing_and_registers_a_member_for_their_pena(
    browser: Any, live: LiveServer, console_errors: ConsoleErrors, screenshots: Path
) -> None:
    ana, beto = (
        console_errors.watch(browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
        for _ in range(2)
    )
    sign_up(ana, live, "ana")
    sign_up(beto, live, "beto")
    roja = post(ana, "/api/penas", {"name": "La Roja", "crest": "gallo", "access": "open"})
    azul = post(beto, "/api/penas", {"name": "Los Azules", "crest": "gallo", "access": "open"})
    body = {
        "name": "Roja contra Azul",
        "format": "arena",
        "entry": "duel",
        "window_seconds": 1800,
        "starts_at": time.time() + 3600,
        "battle_penas": [roja["id"], azul["id"]],
        "battle_counting": 3,
    }
    tournament = post(ana, "/api/tournaments", body)["tournament"]

    ana.goto(f"{live.http}/#/torneo/{tournament['id']}")
    ana.wait_for_selector(".tn-battle tbody tr")
    names = ana.eval_on_selector_all(".tn-battle tbody tr .who a", "links => links.map(a => a.textContent)")
    assert names == ["La Roja", "Los Azules"]
    assert "Cuentan los 3 mejores de cada peña" in ana.inner_text(".tn-battle")
    ana.select_option("#tn-pena", str(azul["id"]))  # not her peña
    ana.click(".tn-register")
    ana.wait_for_selector(".toast:has-text('Solo puedes jugar por una peña de la que eres miembro')")
    console_errors[:] = [error for error in console_errors if "status of 409" not in error]
    ana.select_option("#tn-pena", str(roja["id"]))
    ana.click(".tn-register")
    ana.wait_for_selector(".tn-registered")
    ana.wait_for_selector(f".tn-battle tbody tr[data-pena='{roja['id']}']:has-text('jugadores: 1')")
    assert "jugadores: 0" in ana.inner_text(f".tn-battle tbody tr[data-pena='{azul['id']}']")
    for size in SIZES.values():
        ana.set_viewport_size({"width": size.width, "height": size.height})
        width = ana.evaluate("document.documentElement.scrollWidth")
        assert width <= size.width, (size.name, width)
        ana.locator(".tn-battle").screenshot(path=screenshots / f"pena-battle-{size.name}.png")
