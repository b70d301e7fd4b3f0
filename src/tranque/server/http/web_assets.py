"""The browser client's files, read once per process: fingerprinted and compressed in memory.

Every file under `src/tranque/web` becomes an `Asset`: its bytes, a fingerprint (the first
hex digits of its SHA-256), its media type, and its gzip and brotli forms when they are
smaller. Nothing is listed by hand: a file added there is served (and fingerprinted, and put
in the page's import map) the next time the server starts. The work (about half a second of
brotli) is done when the app is built, before it serves anything, and once per process for
the same files: the tests' many servers share it.

A fingerprinted name puts the fingerprint before the extension: `js/main.js` is also
`js/main.0123456789.js` (see `fingerprinted`), a URL whose bytes never change.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import brotli

FINGERPRINT_DIGITS = 10
COMPRESSIBLE = {".js", ".css", ".svg", ".html", ".json", ".webmanifest", ".txt", ".map"}
MEDIA_TYPES = {  # the text types say their charset; mimetypes' guesses vary with the system
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".png": "image/png",
}
ENCODINGS = ("br", "gzip")  # the server's preference, when the browser accepts both
WORTH_IT = 0.9  # a compressed form is kept only when it is at most this share of the original


@dataclass(frozen=True)
class Asset:
    """One file as served: its bytes, their fingerprint and media type, its compressed forms."""

    path: str  # relative to the web directory, with "/" (e.g. "js/main.js")
    body: bytes
    fingerprint: str
    media_type: str
    encoded: Mapping[str, bytes] = field(default_factory=dict)  # "br" and "gzip", when worth it

    @property
    def fingerprinted_path(self) -> str:
        return fingerprinted(self.path, self.fingerprint)


def fingerprinted(path: str, fingerprint: str) -> str:
    """The name of `path` whose bytes have `fingerprint`.

    >>> fingerprinted("js/main.js", "0123456789")
    'js/main.0123456789.js'
    """
    stem, dot, ext = path.rpartition(".")
    return f"{stem}.{fingerprint}.{ext}" if dot and "/" not in ext else f"{path}.{fingerprint}"


def make_asset(path: str, body: bytes) -> Asset:
    suffix = Path(path).suffix.lower()
    media_type = MEDIA_TYPES.get(suffix) or mimetypes.guess_type(path)[0] or "application/octet-stream"
    encoded: dict[str, bytes] = {}
    if suffix in COMPRESSIBLE:
        forms = {"br": brotli.compress(body, quality=11), "gzip": gzip.compress(body, 9, mtime=0)}
        encoded = {name: form for name, form in forms.items() if len(form) <= len(body) * WORTH_IT}
    digest = hashlib.sha256(body).hexdigest()[:FINGERPRINT_DIGITS]
    return Asset(path, body, digest, media_type, encoded)


class WebAssets:
    """The assets of one directory (and any made from them), by path and by fingerprinted path."""

    def __init__(self, assets: Iterable[Asset]) -> None:
        self.by_path: dict[str, Asset] = {}
        self.by_fingerprint: dict[str, Asset] = {}
        for asset in assets:
            self.add(asset)

    def add(self, asset: Asset) -> None:
        self.by_path[asset.path] = asset
        self.by_fingerprint[asset.fingerprinted_path] = asset

    def find(self, path: str) -> tuple[Asset, bool] | None:
        """The asset at `path`, and whether `path` names its bytes (a fingerprinted name)."""
        asset = self.by_path.get(path)
        if asset is not None:
            return asset, False
        asset = self.by_fingerprint.get(path)
        return (asset, True) if asset is not None else None

    def paths(self, suffix: str) -> list[str]:
        return sorted(path for path in self.by_path if path.endswith(suffix))


def stamp(directory: Path) -> tuple[tuple[str, int, int], ...]:
    """Each file under `directory` with its modification time and size: what says it changed."""
    files = sorted(path for path in directory.rglob("*") if path.is_file())
    return tuple((path.relative_to(directory).as_posix(), *_stat(path)) for path in files)


def _stat(path: Path) -> tuple[int, int]:
    status = path.stat()
    return status.st_mtime_ns, status.st_size


def read(directory: Path, files: Iterable[str]) -> WebAssets:
    """The assets of `files` (paths relative to `directory`)."""
    return WebAssets(make_asset(name, (directory / name).read_bytes()) for name in files)
