"""Helpers for server tests over real HTTP with accounts (test_accounts.py, test_http_tables.py):
a live server on every backend, an HTTP client of it, and registering and logging in.

The fixtures `database_url` and `server` are used by importing them into a test module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import empty_database_url
from tests.server.support.harness import LiveServer, fast_settings

PASSWORD = "una clave muy larga"


def live(database_url: str = "memory://", **settings: Any) -> LiveServer:
    return LiveServer(fast_settings(database_url, **settings))


@pytest.fixture(params=["memory", "sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of each backend the server runs on."""
    return empty_database_url(request.param, request, tmp_path)


@pytest.fixture
def server(database_url: str) -> Iterator[LiveServer]:
    """A live server on each backend."""
    with live(database_url) as running:
        yield running


def client(server: LiveServer, **kwargs: Any) -> httpx.Client:
    return httpx.Client(base_url=server.http, timeout=20, **kwargs)


def register(http: httpx.Client, name: str, password: str = PASSWORD) -> httpx.Response:
    return http.post("/api/register", json={"name": name, "password": password})


def login(http: httpx.Client, name: str, password: str = PASSWORD, **kwargs: Any) -> httpx.Response:
    return http.post("/api/login", json={"name": name, "password": password}, **kwargs)
