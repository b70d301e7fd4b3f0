"""The installable app: its manifest and icons, the service worker (how it is served, what
it keeps, the offline page) and the home page's «Instalar Tranque» (server/http/pwa.py,
web/sw.js, web/js/pwa.js)."""

from __future__ import annotations

import re
import shutil
import struct
from pathlib import Path
from typing import Any

import httpx

from tests.server.support.harness import LiveServer
from tests.web.conftest import BLOCKING, SIZES, TALL_PHONE, axe_violations
from tranque.server.http.pwa import version
from tranque.server.http.web_page import load_site

WEB = Path(__file__).resolve().parents[2] / "src" / "tranque" / "web"
FAKE_PROMPT = """() => {
    const event = new Event("beforeinstallprompt", {cancelable: true});
    event.prompt = () => { window.promptShown = (window.promptShown || 0) + 1; };
    event.userChoice = Promise.resolve({outcome: "accepted", platform: "web"});
    window.dispatchEvent(event);
}"""


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n" and body[12:16] == b"IHDR"
    width, height = struct.unpack(">II", body[16:24])
    return width, height


def css_colour(name: str) -> str:
    found = re.search(rf"--{name}:\s*(#[0-9a-f]{{6}})", (WEB / "style.css").read_text())
    assert found, name
    return found.group(1)


def blocking(page: Any, axe_source: str) -> list[str]:
    return [rule["id"] for rule in axe_violations(page, axe_source) if rule["impact"] in BLOCKING]


def test_the_manifest_names_the_app_and_its_icons_are_there(live: LiveServer) -> None:
    page = httpx.get(live.http + "/", timeout=30).text
    link = re.search(r'<link rel="manifest" href="([^"]+)">', page)
    assert link, "the page links no manifest"
    answer = httpx.get(live.http + link.group(1), timeout=30)
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "application/manifest+json"
    manifest = answer.json()
    assert manifest["name"] == "Tranque — dominó"
    assert manifest["short_name"] == "Tranque"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == css_colour("felt-dark")  # the top bar's green
    assert manifest["background_color"] in (WEB / "style.css").read_text()  # the page's background
    seen = set()
    for icon in manifest["icons"]:
        got = httpx.get(live.http + icon["src"], timeout=30)
        assert got.status_code == 200, icon["src"]
        assert got.headers["content-type"] == icon["type"] == "image/png"
        width, height = png_size(got.content)
        assert icon["sizes"] == f"{width}x{height}", icon
        seen.add((icon["sizes"], icon["purpose"]))
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= seen


def test_the_service_worker_is_served_for_the_whole_site_and_revalidated(live: LiveServer) -> None:
    answer = httpx.get(live.http + "/sw.js", timeout=30)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["service-worker-allowed"] == "/"
    assert answer.headers["cache-control"] == "no-cache"
    again = httpx.get(live.http + "/sw.js", headers={"if-none-match": answer.headers["etag"]}, timeout=30)
    assert again.status_code == 304
    shell = re.search(r"^const SHELL = (\[.*?\]);$", answer.text, re.S | re.M)
    assert shell and re.search(r'^const VERSION = "[0-9a-f]{12}";$', answer.text, re.M)
    urls = re.findall(r'"([^"]+)"', shell.group(1))
    assert "/static/offline.html" in urls
    assert any(re.match(r"/static/site\.[0-9a-f]{10}\.css$", url) for url in urls)
    assert any(url.startswith("/avatars/") for url in urls)
    assert not [url for url in urls if url.startswith(("/api", "/ws"))]
    for url in urls:  # every file it keeps is there to be kept
        assert httpx.get(live.http + url, timeout=30).status_code == 200, url


def test_any_change_to_the_client_gives_a_new_worker_version(tmp_path: Path) -> None:
    copy = tmp_path / "web"
    shutil.copytree(WEB, copy)
    before = version(load_site(copy))
    assert version(load_site(copy)) == before  # the same files, the same version
    (copy / "css" / "offline.css").write_text((copy / "css" / "offline.css").read_text() + "\n/* deploy */\n")
    assert version(load_site(copy)) != before


def test_the_worker_controls_the_page_keeps_the_shell_and_shows_the_offline_page(
    browser: Any, live: LiveServer, screenshots: Path, axe_source: str
) -> None:
    context = browser.new_context(**TALL_PHONE.context_options())
    page = context.new_page()
    page.goto(live.http + "/")
    page.locator("#practice").wait_for(state="visible")
    scope = page.evaluate("() => navigator.serviceWorker.ready.then((registration) => registration.scope)")
    assert scope == live.http + "/"
    page.reload()
    page.locator("#practice").wait_for(state="visible")
    assert page.evaluate("() => Boolean(navigator.serviceWorker.controller)")
    kept = page.evaluate(
        """async () => {
            const names = await caches.keys();
            const urls = [];
            for (const name of names) {
                for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
            }
            return {names, urls};
        }"""
    )
    assert len(kept["names"]) == 1 and re.fullmatch(r"tranque-[0-9a-f]{12}", kept["names"][0])
    paths = [url.removeprefix(live.http) for url in kept["urls"]]
    assert "/static/offline.html" in paths
    assert any(re.match(r"/static/js/main\.[0-9a-f]{10}\.js$", path) for path in paths)
    assert not [path for path in paths if path.startswith(("/api", "/ws"))]
    context.set_offline(True)
    page.reload()  # the network is down: the worker answers the navigation
    heading = page.locator(".offline-page h1")
    heading.wait_for(state="visible")
    assert heading.inner_text() == "Sin conexión"
    assert "tus partidas siguen en el servidor" in page.locator(".offline-page").inner_text()
    assert blocking(page, axe_source) == []
    for size in SIZES.values():
        page.set_viewport_size({"width": size.width, "height": size.height})
        folder = screenshots / "clock" / size.name
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=folder / "offline.png", full_page=True)
    context.set_offline(False)
    page.locator(".retry").click()  # back online, the game's page again
    page.locator("#practice").wait_for(state="visible")
    context.close()


def test_the_home_page_offers_to_install_and_remembers_a_no(
    browser: Any, live: LiveServer, screenshots: Path, axe_source: str
) -> None:
    context = browser.new_context(**TALL_PHONE.context_options())
    page = context.new_page()
    page.goto(live.http + "/")
    page.locator("#practice").wait_for(state="visible")
    offer = page.locator(".install-offer")
    assert not offer.is_visible()  # nothing until the browser says the site can be installed
    page.evaluate(FAKE_PROMPT)
    offer.wait_for(state="visible")
    assert blocking(page, axe_source) == []
    for size in SIZES.values():
        page.set_viewport_size({"width": size.width, "height": size.height})
        folder = screenshots / "clock" / size.name
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=folder / "install.png")
    page.get_by_role("button", name="Instalar Tranque").click()
    offer.wait_for(state="hidden")
    assert page.evaluate("() => window.promptShown") == 1
    # Another visit: «No, gracias» is remembered in this browser.
    page.reload()
    page.locator("#practice").wait_for(state="visible")
    page.evaluate(FAKE_PROMPT)
    offer.wait_for(state="visible")
    offer.get_by_role("button", name="No, gracias").click()
    offer.wait_for(state="hidden")
    page.reload()
    page.locator("#practice").wait_for(state="visible")
    page.evaluate(FAKE_PROMPT)
    page.locator("#lang").click()  # the home page drawn again: still no offer
    page.locator("#practice").wait_for(state="visible")
    assert not offer.is_visible()
    context.close()
