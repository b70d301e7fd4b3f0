"""Browser tests: Playwright for Python driving Debian's Chromium against a live server.

Without /usr/bin/chromium they skip with what to install; under TRANQUE_REQUIRE_SERVICES=1
(CI) they fail instead. Screenshots go to test-output/screenshots/ for review.

Every page a test opens through the `browser` fixture is watched: a console error or an
uncaught exception on any of them fails the test (at teardown, so an expected failure of
the test itself cannot hide it). Nothing is filtered out: a page that logs an error has a
bug, or the test made it log one. The three screen sizes of the issue are `SIZES`;
`open_page(size)` opens a page at one of them (the phones with touch and a mobile viewport).
axe-core comes from the npm registry (tests/web/package.json, `npm ci --prefix tests/web`);
`axe_violations(page)` runs it on a page.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
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
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-output" / "screenshots"
WEB_TESTS = Path(__file__).resolve().parent
AXE = WEB_TESTS / "node_modules" / "axe-core" / "axe.min.js"
AXE_INSTALL = "npm ci --prefix tests/web"
AXE_REPORTS = ROOT / "test-output" / "axe"  # every violation axe found, by screen and size


def missing(message: str) -> None:
    """Skip for want of something installed; under TRANQUE_REQUIRE_SERVICES=1 (CI), fail."""
    if os.environ.get("TRANQUE_REQUIRE_SERVICES") == "1":
        pytest.fail(message)
    pytest.skip(message)


# Screen sizes --------------------------------------------------------------------------


@dataclass(frozen=True)
class Size:
    """A screen the client must work on: its CSS pixels, and whether it is a phone."""

    width: int
    height: int
    phone: bool

    @property
    def name(self) -> str:
        return f"{self.width}x{self.height}"

    def context_options(self) -> dict[str, Any]:
        options: dict[str, Any] = {"viewport": {"width": self.width, "height": self.height}}
        if self.phone:
            options.update(is_mobile=True, has_touch=True)
        return options


DESKTOP = Size(1280, 800, phone=False)
PHONE = Size(360, 640, phone=True)
TALL_PHONE = Size(390, 844, phone=True)
SIZES = {size.name: size for size in (DESKTOP, PHONE, TALL_PHONE)}


# Console errors ------------------------------------------------------------------------


class ConsoleErrors(list[str]):
    """Every console error and uncaught exception of the pages it watches."""

    def watch(self, page: Any) -> Any:
        if isinstance(self, ConsoleGuard) and self.guards(page.context):
            return page  # already watched, with the whole context
        page.on("console", lambda message: self.append(message.text) if message.type == "error" else None)
        page.on("pageerror", lambda error: self.append(str(error)))
        return page


class ConsoleGuard(ConsoleErrors):
    """The console errors of every page of every context one test opened. It listens on the
    contexts, so pages a test opens without asking for `console_errors` are watched too.
    When the test's body is over (before any fixture, the live server included, is torn
    down) the contexts the test left open are closed and the guard stops listening: what a
    page logs because its server went away is not the page's fault."""

    def __init__(self) -> None:
        super().__init__()
        self.contexts: list[Any] = []
        self.listening = True

    def guards(self, context: Any) -> bool:
        return any(context is watched for watched in self.contexts)

    def watch_context(self, context: Any) -> Any:
        if self.guards(context):
            return context
        self.contexts.append(context)
        context.on("console", self._console)
        context.on("weberror", self._error)
        return context

    def _console(self, message: Any) -> None:
        if self.listening and message.type == "error":
            where = message.location or {}
            self.append(
                f"{message.text} [console.error at {where.get('url', '?')}:{where.get('lineNumber', '?')}]"
            )

    def _error(self, error: Any) -> None:
        if self.listening:
            url = error.page.url if error.page is not None else "?"
            self.append(f"{error.error} [uncaught at {url}]")

    def finish(self) -> None:
        from playwright.sync_api import Error as PlaywrightError

        for context in self.contexts:
            with contextlib.suppress(PlaywrightError):  # closed already
                context.close()  # also delivers the events still on their way
        self.listening = False


GUARD = pytest.StashKey[ConsoleGuard]()
_current: list[ConsoleGuard] = []


@pytest.fixture(autouse=True)
def console_guard(request: pytest.FixtureRequest) -> Iterator[ConsoleGuard]:
    guard = ConsoleGuard()
    request.node.stash[GUARD] = guard
    _current.append(guard)
    yield guard
    _current.remove(guard)
    guard.finish()
    assert list(guard) == [], f"the page logged errors: {list(guard)}"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    try:
        return (yield)
    finally:
        guard = item.stash.get(GUARD, None)
        if guard is not None:
            guard.finish()


@pytest.fixture
def console_errors(console_guard: ConsoleGuard) -> ConsoleErrors:
    """The test's console guard: `console_errors.watch(page)` as before; the guard asserts."""
    return console_guard


class GuardedBrowser:
    """The session's Chromium, whose new contexts and pages the running test's guard watches."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def _watch(self, context: Any) -> Any:
        if _current:
            _current[-1].watch_context(context)
        return context

    def new_context(self, **options: Any) -> Any:
        return self._watch(self._browser.new_context(**options))

    def new_page(self, **options: Any) -> Any:
        page = self._browser.new_page(**options)
        self._watch(page.context)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        missing(f"Chromium is not installed at {CHROMIUM}: apt-get install -y chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield GuardedBrowser(launched)
        launched.close()


@pytest.fixture
def open_page(browser: Any) -> Callable[[Size], Any]:
    """Open a page in a new context of its own at one of the `SIZES`."""

    def open_at(size: Size) -> Any:
        return browser.new_context(**size.context_options()).new_page()

    return open_at


# Servers -------------------------------------------------------------------------------


def browser_settings(**changes: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": "memory://",
        "bot_processes": 0,
        "bot_min_seconds": 0.05,
        "auto_move_seconds": 0.3,
        "between_rounds_seconds": 1.0,
        "quick_match_wait_seconds": 1.0,
        "fairplay_sampler": False,  # no background analyses in the tests' servers
        "tournament_in_processes": False,  # the director's pairing in a thread
    }
    return Settings(**{**values, **changes})


@pytest.fixture
def live() -> Iterator[LiveServer]:
    with LiveServer(browser_settings()) as server:
        yield server


@pytest.fixture
def live_paused() -> Iterator[LiveServer]:
    """A live server whose rounds wait for the players' "Listo" (the pause between rounds is
    ten minutes): the round-end card stays on screen for as long as a test looks at it."""
    with LiveServer(browser_settings(between_rounds_seconds=600.0)) as server:
        yield server


# Screenshots and axe-core --------------------------------------------------------------


def emptied_once(folder: Path) -> Path:
    """`folder`, emptied once per test run. With pytest-xdist every worker is a session of its
    own; they share the run's id, so only the first to come empties what the others write."""
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")
    folder.parent.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f".{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        marker = folder / ".run"
        if not run or not marker.exists() or marker.read_text() != run:
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            marker.write_text(run)
    return folder


@pytest.fixture(scope="session")
def screenshots() -> Path:
    return emptied_once(SCREENSHOTS)


@pytest.fixture(scope="session")
def axe_source() -> str:
    if not AXE.exists():
        missing(f"axe-core is not installed ({AXE.relative_to(ROOT)} is missing): run `{AXE_INSTALL}`")
    emptied_once(AXE_REPORTS)
    return AXE.read_text(encoding="utf-8")


AXE_RUN = """async () => {
    const results = await window.axe.run(document, {resultTypes: ["violations"]});
    return results.violations.map((rule) => ({
        id: rule.id, impact: rule.impact, help: rule.help,
        nodes: rule.nodes.map((node) => ({target: node.target.map(String).join(" "), impact: node.impact,
                                          html: node.html.slice(0, 160), summary: node.failureSummary})),
    }));
}"""


BLOCKING = ("serious", "critical")  # the impacts of an axe-core violation that fail a test


def serious_violations(page: Any, source: str) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it is now."""
    return [rule for rule in axe_violations(page, source) if rule["impact"] in BLOCKING]


SETTLED = """() => document.getAnimations().every(
    (animation) => animation.playState !== "running" || animation.effect.getTiming().iterations === Infinity
)"""


def axe_violations(page: Any, source: str) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now, with every rule axe runs by default.
    The library is evaluated through the DevTools protocol, which the page's
    Content-Security-Policy does not govern (a <script> tag would be refused by it)."""
    # A transition or a finite animation still running (a toast fading in, say) would be
    # measured halfway, its colours blended with what lies under it: wait until they end.
    page.wait_for_function(SETTLED)
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(source)
    violations: list[dict[str, Any]] = page.evaluate(AXE_RUN)
    return violations
