"""The browser client's page (index.html) as served: fingerprinted URLs, one stylesheet, an
import map, and the home screen's modules asked for at once.

index.html names its files plainly (`/static/js/main.js`); the server rewrites it when it
starts (no build step), from what is in the web directory then:

- every `/static/...` URL of the page becomes its fingerprinted URL, cached for a year;
- its stylesheets become one, their concatenation in the page's order (one request, not ten);
- an import map sends every module's plain URL to its fingerprinted one, so `import "./x.js"`
  and `import("./x.js")` between modules fetch bytes that never change under that URL; its
  inline script is allowed by the page's Content-Security-Policy by its SHA-256;
- `<link rel="modulepreload">` names every module the entry module imports statically,
  directly or not: the browser asks for all of them at once instead of one level of imports
  per round trip. What the entry loads with `import()` (the table, the replay, ...) waits.
"""

from __future__ import annotations

import functools
import json
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tranque.server.http.security_headers import inline_script_source
from tranque.server.http.web_assets import Asset, WebAssets, make_asset, read, stamp

PAGE = "index.html"
STYLESHEET_BUNDLE = "site.css"  # the page's stylesheets, one after another
STATIC = "/static/"
STYLESHEET = re.compile(r'[ \t]*<link rel="stylesheet" href="/static/([^"]+)">\n?')
ENTRY = re.compile(r'([ \t]*)<script type="module" src="/static/([^"]+)"></script>')
STATIC_URL = re.compile(r'(?P<attribute>(?:href|src)=")/static/(?P<path>[^"]+)"')
STATIC_IMPORT = re.compile(
    r"""^[ \t]*import\s[^;]*?\bfrom\s*["']([^"']+)["']|^[ \t]*import\s*["']([^"']+)["']""", re.M
)


@dataclass(frozen=True)
class Site:
    """The web directory's assets (the stylesheet bundle among them) and the page as served."""

    assets: WebAssets
    page: Asset
    script_sources: tuple[str, ...]  # what the page's policy must allow: its import map


def load_site(directory: Path) -> Site:
    """The site of `directory`, built again only when one of its files changed."""
    return _build(directory, stamp(directory))


@functools.lru_cache(maxsize=4)
def _build(directory: Path, files: tuple[tuple[str, int, int], ...]) -> Site:
    assets = read(directory, [name for name, _, _ in files])
    if STYLESHEET_BUNDLE in assets.by_path:
        raise ValueError(f"{STYLESHEET_BUNDLE} is the name of the page's stylesheet bundle")
    html = assets.by_path[PAGE].body.decode("utf-8")
    html = _one_stylesheet(html, assets)
    import_map = json.dumps(
        {
            "imports": {
                STATIC + path: STATIC + assets.by_path[path].fingerprinted_path
                for path in assets.paths(".js")
                if path.startswith("js/")  # the modules; sw.js, the service worker, is none
            }
        },
        separators=(",", ":"),
    )
    html = _with_modules(html, assets, import_map)
    html = STATIC_URL.sub(lambda found: _fingerprinted_url(found, assets), html)
    return Site(assets, make_asset(PAGE, html.encode("utf-8")), (inline_script_source(import_map.encode()),))


def _one_stylesheet(html: str, assets: WebAssets) -> str:
    sheets = STYLESHEET.findall(html)
    if not sheets:
        return html
    bundle = b"\n".join(assets.by_path[sheet].body for sheet in sheets)
    assets.add(make_asset(STYLESHEET_BUNDLE, bundle))
    first = STYLESHEET.search(html)
    assert first is not None
    indent = re.match(r"[ \t]*", first.group(0))
    link = f'{indent.group(0) if indent else ""}<link rel="stylesheet" href="{STATIC}{STYLESHEET_BUNDLE}">\n'
    return html[: first.start()] + link + STYLESHEET.sub("", html[first.start() :])


def _with_modules(html: str, assets: WebAssets, import_map: str) -> str:
    entry = ENTRY.search(html)
    if entry is None:
        return html
    indent, path = entry.group(1), entry.group(2)
    lines = [f'{indent}<script type="importmap">{import_map}</script>']
    lines += [
        f'{indent}<link rel="modulepreload" href="{STATIC}{module}">'
        for module in static_imports(assets, path)
    ]
    return html[: entry.start()] + "\n".join(lines) + "\n" + html[entry.start() :]


def static_imports(assets: WebAssets, entry: str) -> Iterator[str]:
    """The modules `entry` imports statically, directly or through others, nearest first."""
    seen, queue = {entry}, [entry]
    while queue:
        module = queue.pop(0)
        text = assets.by_path[module].body.decode("utf-8")
        for found in STATIC_IMPORT.finditer(text):
            specifier = found.group(1) or found.group(2)
            if not specifier.startswith(("./", "../")):
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(module), specifier))
            if target in assets.by_path and target not in seen:
                seen.add(target)
                queue.append(target)
                yield target


def _fingerprinted_url(found: re.Match[str], assets: WebAssets) -> str:
    path = found.group("path")
    asset = assets.by_path.get(path)
    name = asset.fingerprinted_path if asset is not None else path
    return f'{found.group("attribute")}{STATIC}{name}"'
