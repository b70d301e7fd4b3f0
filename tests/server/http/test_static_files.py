"""The web client's files over HTTP (server/http/static_files.py, web_assets.py, web_page.py):
compressed once, fingerprinted URLs cached for a year, plain URLs revalidated, and the page's
import map and preloads made from whatever files the web directory holds."""

from __future__ import annotations

import gzip
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import brotli
import httpx
import pytest

from tests.server.support.harness import LiveServer
from tranque.server.app import WEB_DIR
from tranque.server.http.web_page import load_site, static_imports
from tranque.server.settings import Settings
from tranque.server.table.clock import FakeClock

IMMUTABLE = "public, max-age=31536000, immutable"
EVERY_ENCODING = {"Accept-Encoding": "gzip, deflate, br, zstd"}


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    settings = Settings(database_url="memory://", clock=FakeClock(), bot_processes=0, bot_min_seconds=0)
    with LiveServer(settings) as running:
        yield running


@pytest.fixture(scope="module")
def http(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.http, timeout=20) as client:
        yield client


def raw(http: httpx.Client, path: str, **headers: str) -> tuple[httpx.Response, bytes]:
    """The answer and its body as sent (not decoded)."""
    with http.stream("GET", path, headers=headers) as answer:
        return answer, b"".join(answer.iter_raw())


def decoded(answer: httpx.Response, body: bytes) -> bytes:
    encoding = answer.headers.get("content-encoding")
    if encoding == "br":
        return brotli.decompress(body)
    if encoding == "gzip":
        return gzip.decompress(body)
    assert encoding is None, encoding
    return body


def page_urls(http: httpx.Client) -> dict[str, str]:
    """The page's import map: each module's plain URL -> its fingerprinted URL."""
    page = http.get("/").text
    (found,) = re.findall(r'<script type="importmap">(.*?)</script>', page, re.S)
    imports: dict[str, str] = json.loads(found)["imports"]
    return imports


class TestCompression:
    @pytest.mark.parametrize(("accepts", "sent"), [("gzip, deflate, br", "br"), ("gzip", "gzip"), ("", None)])
    def test_each_file_is_sent_in_the_best_encoding_the_browser_accepts(
        self, http: httpx.Client, accepts: str, sent: str | None
    ) -> None:
        on_disk = (WEB_DIR / "js" / "i18n.js").read_bytes()
        answer, body = raw(http, "/static/js/i18n.js", **{"Accept-Encoding": accepts})
        assert answer.status_code == 200
        assert answer.headers.get("content-encoding") == sent
        assert answer.headers["vary"] == "Accept-Encoding"
        assert answer.headers["content-type"] == "text/javascript; charset=utf-8"
        assert decoded(answer, body) == on_disk
        if sent is not None:
            assert len(body) < len(on_disk) / 2  # i18n.js is 24 KB of text

    def test_a_stylesheet_and_the_page_are_compressed_too(self, http: httpx.Client) -> None:
        for path in ("/static/style.css", "/", "/mesa/abc"):
            answer, _ = raw(http, path, **EVERY_ENCODING)
            assert answer.headers["content-encoding"] == "br", path
            assert answer.headers["vary"] == "Accept-Encoding", path


class TestCaching:
    def test_a_plain_url_is_revalidated_by_its_etag(self, http: httpx.Client) -> None:
        first = http.get("/static/js/main.js", headers=EVERY_ENCODING)
        assert first.headers["cache-control"] == "no-cache"
        etag = first.headers["etag"]
        again, body = raw(http, "/static/js/main.js", **{**EVERY_ENCODING, "If-None-Match": etag})
        assert again.status_code == 304 and body == b""
        assert again.headers["etag"] == etag and again.headers["vary"] == "Accept-Encoding"
        # A proxy that weakened the tag (nginx's gzip does) still gets its 304.
        weak = http.get("/static/js/main.js", headers={"If-None-Match": f"W/{etag}"})
        assert weak.status_code == 304
        other = http.get("/static/js/main.js", headers={"If-None-Match": '"0123456789"'})
        assert other.status_code == 200 and other.content == (WEB_DIR / "js" / "main.js").read_bytes()

    def test_the_page_is_revalidated_and_names_only_fingerprinted_files(self, http: httpx.Client) -> None:
        answer = http.get("/", headers=EVERY_ENCODING)
        assert answer.headers["cache-control"] == "no-cache"
        assert http.get("/", headers={"If-None-Match": answer.headers["etag"]}).status_code == 304
        urls = re.findall(r'(?:href|src)="(/static/[^"]+)"', answer.text)
        assert urls and all(re.search(r"\.[0-9a-f]{10}\.[a-z]+$", url) for url in urls), urls
        for url in urls:
            fetched = http.get(url, headers=EVERY_ENCODING)
            assert fetched.status_code == 200 and fetched.headers["cache-control"] == IMMUTABLE, url

    def test_a_fingerprinted_url_serves_that_files_bytes_for_a_year(self, http: httpx.Client) -> None:
        imports = page_urls(http)
        assert set(imports) == {f"/static/js/{path.name}" for path in (WEB_DIR / "js").glob("*.js")}
        for plain, fingerprinted in imports.items():
            answer, body = raw(http, fingerprinted, **EVERY_ENCODING)
            assert answer.status_code == 200
            assert answer.headers["cache-control"] == IMMUTABLE
            assert decoded(answer, body) == (WEB_DIR / plain.removeprefix("/static/")).read_bytes(), plain

    def test_the_stylesheet_bundle_is_the_pages_stylesheets_in_order(self, http: httpx.Client) -> None:
        template = (WEB_DIR / "index.html").read_text(encoding="utf-8")
        sheets = re.findall(r'<link rel="stylesheet" href="/static/([^"]+)">', template)
        (bundle,) = re.findall(r'<link rel="stylesheet" href="(/static/[^"]+)">', http.get("/").text)
        expected = b"\n".join((WEB_DIR / sheet).read_bytes() for sheet in sheets)
        assert len(sheets) > 1 and http.get(bundle).content == expected

    @pytest.mark.parametrize(
        "path",
        [
            "/static/js/main.0123456789.js",  # not main.js's fingerprint
            "/static/js/nothing.0123456789.js",
            "/static/js/nothing.js",
            "/static/../pyproject.toml",
            "/avatars/../index.html",
        ],
    )
    def test_an_unknown_file_or_fingerprint_is_not_found(self, http: httpx.Client, path: str) -> None:
        assert http.get(path).status_code == 404

    def test_head_and_avatars(self, http: httpx.Client) -> None:
        head = http.head("/static/js/main.js", headers=EVERY_ENCODING)
        got = raw(http, "/static/js/main.js", **EVERY_ENCODING)[1]
        assert head.status_code == 200 and head.content == b""
        assert int(head.headers["content-length"]) == len(got)
        avatar = http.get("/avatars/mar.svg", headers=EVERY_ENCODING)
        assert avatar.status_code == 200 and avatar.headers["content-type"] == "image/svg+xml"
        assert avatar.content == (WEB_DIR / "avatars" / "mar.svg").read_bytes()
        assert http.post("/static/js/main.js").status_code == 405


class TestThePage:
    def test_it_preloads_the_home_pages_modules_and_not_the_others(self, http: httpx.Client) -> None:
        page = http.get("/").text
        preloaded = re.findall(
            r'<link rel="modulepreload" href="/static/js/([a-z0-9_]+)\.[0-9a-f]{10}\.js">', page
        )
        assert {"i18n", "screens", "api", "socket"} <= set(preloaded)
        assert not {"table", "replay", "players", "bots", "analysis_view"} & set(preloaded)

    def test_a_new_file_is_served_mapped_and_preloaded_without_a_list(self, tmp_path: Path) -> None:
        web = tmp_path / "web"
        shutil.copytree(WEB_DIR, web)
        (web / "js" / "messages_new.js").write_text('export const NEW_MESSAGES = { hi: "hola" };\n')
        (web / "js" / "new_page.js").write_text('import { t } from "./i18n.js";\nexport const x = t;\n')
        i18n = web / "js" / "i18n.js"
        i18n.write_text('import { NEW_MESSAGES } from "./messages_new.js";\n' + i18n.read_text())
        site = load_site(web)
        page = site.page.body.decode()
        for name in ("messages_new", "new_page"):
            asset = site.assets.by_path[f"js/{name}.js"]
            assert f'"/static/js/{name}.js":"/static/{asset.fingerprinted_path}"' in page
        assert "js/messages_new.js" in set(static_imports(site.assets, "js/main.js"))  # through i18n.js
        assert 'href="/static/js/messages_new.' in page and 'href="/static/js/new_page.' not in page
