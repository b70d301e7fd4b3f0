"""axe-core (from the npm registry, tests/web/package.json) finds no serious or critical
violation on the main screens: home, the options of a practice game, the table in the
middle of a hand, the round end and the game end, the create form of an account, the
rankings and a profile (these two once the server has their endpoints), at 1280×800 and at
360×640 (a phone).

Every rule axe runs by default is run; none is switched off. A failure lists each
violation with its rule, impact and the elements it was found on, so it can be fixed
without running axe again."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.web.conftest import AXE_REPORTS, BLOCKING, DESKTOP, PHONE, Size, axe_violations
from tests.web.driver import play_moves, play_to_round_end, play_until, start_practice
from tests.web.test_players_pages import needs


def reach_home(page: Any, base: str) -> None:
    page.goto(base + "/")
    page.wait_for_selector("#practice")


def reach_options(page: Any, base: str) -> None:
    reach_home(page, base)
    page.click("#practice")
    page.wait_for_selector("#start")
    page.wait_for_selector("select[name=preset] option", state="attached")  # the presets have come


def reach_table(page: Any, base: str) -> None:
    start_practice(page, base)
    play_moves(page, 3, Counter())


def reach_round_end(page: Any, base: str) -> None:
    start_practice(page, base)
    play_to_round_end(page, Counter())


def reach_game_end(page: Any, base: str) -> None:
    # One against one without the pozo, to 50: the shortest game a practice table plays.
    start_practice(page, base, preset="sin-pozo", players="2")
    play_until(page, ".overlay.game-end", Counter())
    page.wait_for_selector(".overlay.game-end:has-text('verificado')")  # the deals' check is shown


def log_in_new(page: Any, base: str, name: str) -> None:
    page.goto(base + "/#/entrar")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", "dominó-seguro-123")
    page.click("button[name=register]")
    page.wait_for_selector(f"#account:has-text('{name}')")


def reach_create(page: Any, base: str) -> None:
    log_in_new(page, base, "axe_crea")
    page.click("#create-table")
    page.wait_for_selector("#start:not([disabled])")
    page.check("input[name=competitive][value=yes]")


def reach_rankings(page: Any, base: str) -> None:
    needs(base, "/api/rankings")
    log_in_new(page, base, "axe_clasifica")
    page.click("#nav-rankings")
    page.wait_for_selector(".your-rank")


FICHAS_SETTLED = "() => { const box = document.getElementById('fichas'); return !box || !box.hidden; }"


def reach_profile(page: Any, base: str) -> None:
    needs(base, "/api/players/axe")
    log_in_new(page, base, "axe_perfil")
    page.click("#nav-profile")
    page.wait_for_selector(".avatar-choice")
    # Your fichas' section fills in (or goes, with fichas off) once its own request answers.
    page.wait_for_function(FICHAS_SETTLED)


SCREENS: dict[str, Callable[[Any, str], None]] = {
    "home": reach_home,
    "options": reach_options,
    "table": reach_table,
    "round-end": reach_round_end,
    "game-end": reach_game_end,
    "create": reach_create,
    "rankings": reach_rankings,
    "profile": reach_profile,
}


def describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for rule in violations:
        lines.append(f"{rule['id']} ({rule['impact']}): {rule['help']}")
        lines.extend(f"    {node['target']}  [{node['impact']}]  {node['html']}" for node in rule["nodes"])
    return "\n".join(lines)


CASES = [
    pytest.param(screen, size, id=f"{screen}-{size.name}") for screen in SCREENS for size in (DESKTOP, PHONE)
]


@pytest.mark.parametrize(("screen", "size"), CASES)
def test_axe_finds_no_serious_violation(
    axe_source: str, open_page: Callable[[Size], Any], live_paused: LiveServer, screen: str, size: Size
) -> None:
    page = open_page(size)
    SCREENS[screen](page, live_paused.http)
    violations = axe_violations(page, axe_source)
    report_file = AXE_REPORTS / f"{screen}-{size.name}.json"
    report_file.write_text(json.dumps(violations, indent=1, ensure_ascii=False), encoding="utf-8")
    blocking = [rule for rule in violations if rule["impact"] in BLOCKING]
    if blocking:
        pytest.fail(f"axe-core on {screen} at {size.name}:\n{describe(blocking)}", pytrace=False)
