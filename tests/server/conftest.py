"""Fixtures for server tests: services (PostgreSQL, Redis) and a started `store` for every backend.

Async tests use anyio's pytest plugin: mark them `@pytest.mark.anyio`; `anyio_backend` is asyncio.

Tests whose live server's database TRANQUE_TEST_DB picks get the marker `backend` here, so
.ci/run reruns only them on SQLite and on PostgreSQL (tests/server/support/backends.py).
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from tests import services
from tests.server.support import backends, harness
from tranque.server.store import MemoryStore, Store
from tranque.server.store.schema import metadata
from tranque.server.store.sql import SqlStore


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """This session's own PostgreSQL database (skipped, or failed under TRANQUE_REQUIRE_SERVICES=1)."""
    yield services.postgres_url()
    services.drop_databases()


@pytest.fixture(scope="session")
def redis_url() -> str:
    return services.redis_url()


async def empty_tables(store: SqlStore) -> None:
    """Delete every row, so each test starts from an empty schema (the database is per session)."""
    async with store.engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            names = ", ".join(table.name for table in metadata.sorted_tables)
            await connection.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY"))
        else:
            for table in reversed(metadata.sorted_tables):
                await connection.execute(table.delete())


async def empty_database(url: str) -> None:
    """`empty_tables` on the database at `url`, from outside any server."""
    store = SqlStore(url)
    await store.start()
    try:
        await empty_tables(store)
    finally:
        await store.close()


def empty_database_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of an empty database of `backend` (memory, sqlite or postgresql) for a server to
    open: this session's PostgreSQL database is emptied of other tests' rows first."""
    if backend == "memory":
        return "memory://"
    if backend == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    url: str = request.getfixturevalue("postgres_url")
    asyncio.run(empty_database(url))
    return url


def make_test_store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """A store of `backend`: memory, sqlite (a file), postgresql, or "sqlite-memory", a
    `SqlStore` on an in-memory SQLite database (its appends through SQLAlchemy, not on a
    connection of their own), which a test may ask `store` for by indirect parametrization."""
    if backend == "memory":
        return MemoryStore()
    if backend == "sqlite-memory":
        return SqlStore("sqlite+aiosqlite://")
    if backend == "sqlite":
        return SqlStore(f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}")
    return SqlStore(request.getfixturevalue("postgres_url"))


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """A started, empty store of each backend."""
    started = make_test_store(request.param, request, tmp_path)
    await started.start()
    try:
        if isinstance(started, SqlStore):
            await empty_tables(started)
        yield started
    finally:
        await started.close()


# Which tests depend on TRANQUE_TEST_DB: marked before they run, checked while they run.

HERE = Path(__file__).parent
PASS = os.environ.get(backends.SETTING, "memory")
LEDGER = backends.BackendLedger()
ASKS = backends.Reach(target=harness.test_database)
NAMES = backends.Reach(text=backends.SETTING)
COVERED = pytest.StashKey[bool]()  # its memory case is its parameters' job on every backend
NAMES_SETTING = pytest.StashKey[bool]()  # reads TRANQUE_TEST_DB itself, not through a server
marked: list[pytest.Item] = []
ran: set[str] = set()


Where = Callable[[str | None], tuple[str | None, Path | None]]


def _noting(test_database: Where) -> Where:
    """`harness.test_database`, noting in `LEDGER` each server that asks for the memory store."""

    @functools.wraps(test_database)
    def noted(url: str | None) -> tuple[str | None, Path | None]:
        if url == "memory://":
            LEDGER.note()
        return test_database(url)

    return noted


harness.test_database = _noting(harness.test_database)  # type: ignore[assignment]


def fixture_functions(item: pytest.Function) -> list[object]:
    functions: list[object] = []
    for name in item.fixturenames:
        found = item._fixtureinfo.name2fixturedefs.get(name)
        if found:
            functions.append(found[-1].func)
    return functions


def fixture_defs(item: pytest.Item) -> list[object]:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return []
    return [found[-1] for found in info.name2fixturedefs.values() if found]


def parameters(item: pytest.Function) -> dict[str, str]:
    """The test's parameters that are names (a backend's among them)."""
    callspec = getattr(item, "callspec", None)
    found = callspec.params.items() if callspec is not None else ()
    return {argname: value for argname, value in found if isinstance(value, str)}


def case(item: pytest.Function) -> str:
    """The test all of whose parametrised cases `item` is one."""
    return item.nodeid.partition("[")[0]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark `backend` the server tests that start a server on the memory store (which
    TRANQUE_TEST_DB replaces) or read TRANQUE_TEST_DB: unless their parameters already run
    them on every backend this pass would give them."""
    server_tests = [item for item in items if isinstance(item, pytest.Function) and HERE in item.path.parents]
    cases: dict[tuple[str, str], set[str]] = defaultdict(set)  # (test, argument): its names
    for item in server_tests:
        for argname, value in parameters(item).items():
            cases[case(item), argname].add(value)
    for item in server_tests:
        params = parameters(item)
        choices = {
            argname: cases[case(item), argname]
            for argname in params
            if backends.parametrised_backends(cases[case(item), argname])
        }
        if any(params[argname] != "memory" for argname in choices):
            continue  # on a database it names, whatever TRANQUE_TEST_DB says
        functions = [item.function, *fixture_functions(item)]
        item.stash[NAMES_SETTING] = any(NAMES.function(function) for function in functions)
        if not item.stash[NAMES_SETTING] and not any(ASKS.function(function) for function in functions):
            continue
        rerun = backends.uncovered_backends(set().union(*choices.values()))
        item.stash[COVERED] = not rerun
        if rerun and (PASS == "memory" or PASS in rerun):
            item.add_marker(pytest.mark.backend)
            marked.append(item)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    ran.add(item.nodeid)
    LEDGER.running.append(item)
    try:
        return (yield)
    finally:
        LEDGER.running.pop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    LEDGER.running.append(item)
    try:
        return (yield)
    finally:
        LEDGER.running.pop()


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef[Any]) -> Generator[None, object, object]:
    """A fixture shared by several tests (a module's server) asks for all of them; a test's
    own fixture, for that test."""
    if fixturedef.scope == "function":
        return (yield)
    LEDGER.running.append(fixturedef)
    try:
        return (yield)
    finally:
        LEDGER.running.pop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    """Fail, in the main pass, a test that started a server on the memory store without the
    marker `backend`: .ci/run would not rerun it on the other backends."""
    report = yield
    if (
        PASS == "memory"
        and call.when == "call"
        and report.passed
        and item.get_closest_marker("backend") is None
        and not item.stash.get(COVERED, False)
        and LEDGER.asked_by([item, *fixture_defs(item)])
    ):
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} started a server on the memory store, which {backends.SETTING} "
            "replaces, but is not marked `backend` (tests/server/conftest.py did not see it "
            "coming): .ci/run would not run it on SQLite and PostgreSQL"
        )
    return report


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Name the tests marked `backend` that ran but never asked for the memory store: each
    rerun of them tests nothing new."""
    idle = [
        item.nodeid
        for item in marked
        if item.nodeid in ran
        and not item.stash.get(NAMES_SETTING, False)
        and not LEDGER.asked_by([item, *fixture_defs(item)])
    ]
    if idle:
        terminalreporter.section("marked backend, never asked for the memory store")
        for nodeid in idle:
            terminalreporter.line(nodeid)
