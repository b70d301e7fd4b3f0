"""The first visit to the home page, in Chromium: how much comes over the wire, and how.

The page names fingerprinted, compressed files (server/http/static_files.py) and loads only
the home screen's modules; benchmarks/first_load.py times the same visit on a slow network.
"""

from __future__ import annotations

import re
from typing import Any

from tests.server.support.harness import LiveServer
from tests.web.conftest import TALL_PHONE, ConsoleGuard

FIRST_LOAD_BYTES = 120_000
IMMUTABLE = "public, max-age=31536000, immutable"


def test_N9_first_load_is_compressed_and_small(browser: Any, live: LiveServer) -> None:
    page = browser.new_context(**TALL_PHONE.context_options()).new_page()
    finished: list[Any] = []
    page.on("requestfinished", lambda request: finished.append(request))
    page.goto(live.http + "/")
    page.get_by_role("button", name="Practicar contra la máquina").wait_for(state="visible")
    page.wait_for_load_state("networkidle")  # the lobby's presets too, and nothing more asked
    received = 0
    for request in finished:
        sizes = request.sizes()
        received += sizes["responseHeadersSize"] + sizes["responseBodySize"]
    assert received <= FIRST_LOAD_BYTES, f"{received} bytes in {len(finished)} requests"
    scripts_and_styles = [
        request for request in finished if request.resource_type in ("script", "stylesheet")
    ]
    assert scripts_and_styles
    for request in scripts_and_styles:
        headers = request.response().all_headers()
        assert headers.get("content-encoding") in ("br", "gzip"), request.url
        assert headers.get("cache-control") == IMMUTABLE, request.url
    # Only the home screen's modules came: the table's and the replay's wait to be asked for.
    names = {request.url.rsplit("/", 1)[-1].split(".")[0] for request in scripts_and_styles}
    assert "screens" in names and not {"table", "replay", "players", "bots"} & names, names


def test_a_screen_whose_module_comes_late_does_not_cover_the_next_one(browser: Any, live: LiveServer) -> None:
    # The rankings' module is held on its way; meanwhile the reader goes home. When it
    # arrives, the home page stays: the late module is for a page left behind.
    page = browser.new_context(**TALL_PHONE.context_options()).new_page()
    held: list[Any] = []
    page.route(re.compile(r"/static/js/players\.[0-9a-f]{10}\.js$"), lambda route: held.append(route))
    page.goto(live.http + "/#/clasificacion")
    while not held:
        page.wait_for_timeout(50)
    page.evaluate("() => { location.hash = '#/'; }")
    page.locator("#practice").wait_for(state="visible")
    held[0].continue_()
    # Once the module is in (the same one `import()` gives the app), the app has had its turn.
    page.evaluate("() => import('/static/js/players.js').then(() => new Promise((r) => setTimeout(r, 0)))")
    assert page.locator(".players-page").count() == 0
    assert page.locator("#practice").is_visible()
    page.locator("#nav-rankings").click()  # and the rankings still open when asked for again
    page.locator(".players-page.rankings h1").wait_for(state="visible")


def test_a_screen_whose_module_cannot_be_fetched_says_so(
    browser: Any, live: LiveServer, console_guard: ConsoleGuard
) -> None:
    context = browser.new_context(**TALL_PHONE.context_options())
    page = context.new_page()
    page.route(re.compile(r"/static/js/bots\.[0-9a-f]{10}\.js$"), lambda route: route.abort())
    page.goto(live.http + "/")
    page.locator("#practice").wait_for(state="visible")
    page.locator("#nav-bots").click()
    toast = page.locator("#toast.show")
    toast.wait_for(state="visible")
    assert toast.inner_text() == "No se pudo cargar esta página. Revisa la conexión y vuelve a intentarlo."
    assert page.locator("#practice").is_visible()  # the page it was on stays
    context.close()  # every console message delivered: the one the test made is not a bug
    console_guard[:] = [error for error in console_guard if "Failed to load resource" not in error]
