"""Draw the installable app's icons (src/tranque/web/icons/*.png) from the favicon, once.

The PNGs are checked in (a few KB each); run this again only when favicon.svg changes:

    PYTHONPATH=src .venv/bin/python tools/make_icons.py

Chromium (through Playwright, the browser tests' own driver, Apache-2.0) draws the SVG: no
image library is needed. `any` icons are the tile on the felt's green (flat: small files)
with rounded corners; the `maskable` one keeps the tile inside the middle 60 % (the circle
every mask leaves) on a full-bleed green square.
"""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

WEB = Path(__file__).resolve().parent.parent / "src" / "tranque" / "web"
CHROMIUM = "/usr/bin/chromium"
FELT = "#1f6b48"  # the board's felt (style.css --felt)
ICONS = (  # file, size in px, the tile's share of the side, corner radius's share
    ("icon-192.png", 192, 0.78, 0.18),
    ("icon-512.png", 512, 0.78, 0.18),
    ("icon-maskable-512.png", 512, 0.56, 0.0),
)


def page_for(svg: bytes, size: int, share: float, radius: float) -> str:
    source = "data:image/svg+xml;base64," + base64.b64encode(svg).decode()
    tile = round(size * share)
    return f"""<!doctype html><html><body style="margin:0;background:transparent">
<div style="width:{size}px;height:{size}px;border-radius:{round(size * radius)}px;display:flex;
align-items:center;justify-content:center;background:{FELT}">
<img src="{source}" width="{tile}" height="{tile}"></div></body></html>"""


def main() -> None:
    svg = (WEB / "favicon.svg").read_bytes()
    (WEB / "icons").mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM)
        for name, size, share, radius in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_for(svg, size, share, radius))
            page.screenshot(path=str(WEB / "icons" / name), omit_background=True)
            print(name, (WEB / "icons" / name).stat().st_size, "bytes")
        browser.close()


if __name__ == "__main__":
    main()
