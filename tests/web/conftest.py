"""Browser tests: Playwright for Python driving Debian's Chromium against a live server.

Without /usr/bin/chromium they skip with what to install; under TRANQUE_REQUIRE_SERVICES=1
(CI) they fail instead. Screenshots go to test-output/screenshots/ for review.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.harness import LiveServer
from tranque.server.settings import Settings

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-quic",
    "--no-first-run",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        message = f"Chromium is not installed at {CHROMIUM}: apt-get install -y chromium"
        if os.environ.get("TRANQUE_REQUIRE_SERVICES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def live() -> Iterator[LiveServer]:
    settings = Settings(
        database_url="memory://",
        bot_processes=0,
        bot_min_seconds=0.05,
        auto_move_seconds=0.3,
        between_rounds_seconds=1.0,
        quick_match_wait_seconds=1.0,
    )
    with LiveServer(settings) as server:
        yield server


class ConsoleErrors(list[str]):
    """Every console error and uncaught exception of the pages it watches."""

    def watch(self, page: Any) -> Any:
        page.on("console", lambda message: self.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: self.append(str(error)))
        return page


@pytest.fixture
def console_errors() -> Iterator[ConsoleErrors]:
    errors = ConsoleErrors()
    yield errors
    assert list(errors) == [], f"console errors: {list(errors)}"


@pytest.fixture(scope="session")
def screenshots() -> Path:
    shutil.rmtree(SCREENSHOTS, ignore_errors=True)
    SCREENSHOTS.mkdir(parents=True)
    return SCREENSHOTS
