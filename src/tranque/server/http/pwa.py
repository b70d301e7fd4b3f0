"""The installable app's service worker, written for the site as it is served.

`web/sw.js` is the worker's code; the server puts above it, when it starts, the two things
that change with every deploy (web_assets.py reads the web directory once per process):

- `VERSION`: a digest of every file's fingerprint, so that any change to the client gives a
  new worker, whose install fills a new cache and whose activation drops the old ones;
- `SHELL`: what the worker keeps in that cache: the stylesheet bundle and every module by
  their fingerprinted URLs, the avatars, the icons and the offline page.

It is served at `/sw.js` (a worker's scope is its URL's folder: `/` here) with `no-cache`,
so the browser asks for it again on each visit and sees a deploy at once, and with
`Service-Worker-Allowed: /`. The worker never touches `/api` or `/ws` (docs/deploy.md).
"""

from __future__ import annotations

import hashlib
import json

from tranque.server.http.web_assets import Asset, make_asset
from tranque.server.http.web_page import STATIC, STYLESHEET_BUNDLE, Site

WORKER = "sw.js"  # in the web directory: the worker's code, without its two constants
OFFLINE_FILES = ("offline.html", "css/offline.css")
ICONS = ("icons/icon-192.png", "icons/icon-512.png", "icons/icon-maskable-512.png")
PLAIN_FILES = (*OFFLINE_FILES, "favicon.svg", *ICONS)
VERSION_DIGITS = 12


def version(site: Site) -> str:
    """A digest of every asset's fingerprint and of the page: it changes with any file."""
    digest = hashlib.sha256(site.page.fingerprint.encode())
    for path in sorted(site.assets.by_path):
        digest.update(f"{path}:{site.assets.by_path[path].fingerprint};".encode())
    return digest.hexdigest()[:VERSION_DIGITS]


def shell(site: Site) -> list[str]:
    """The URLs the worker keeps: immutable ones by fingerprint, the rest by their plain URL
    (a new version of the worker fetches them again)."""
    assets = site.assets.by_path
    modules = [path for path in site.assets.paths(".js") if path.startswith("js/")]
    fingerprinted = [STYLESHEET_BUNDLE, "favicon.svg", *modules]
    urls = [STATIC + assets[path].fingerprinted_path for path in fingerprinted if path in assets]
    urls += [STATIC + path for path in PLAIN_FILES if path in assets]
    urls += ["/" + path for path in site.assets.paths(".svg") if path.startswith("avatars/")]
    return urls


def service_worker(site: Site) -> Asset:
    """The worker as served: `VERSION` and `SHELL`, then web/sw.js."""
    code = site.assets.by_path[WORKER].body.decode("utf-8")
    head = (
        "// Written by the server (tranque/server/http/pwa.py) for this deploy.\n"
        f"const VERSION = {json.dumps(version(site))};\n"
        f"const SHELL = {json.dumps(shell(site), indent=0)};\n"
    )
    return make_asset(WORKER, (head + code).encode("utf-8"))
