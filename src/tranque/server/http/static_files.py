"""The browser client's files over HTTP, from memory (web_assets.py, web_page.py).

- A fingerprinted URL (`/static/js/main.0123456789.js`) is cached for a year and never asked
  for again (`Cache-Control: public, max-age=31536000, immutable`); a fingerprint that is not
  the file's current one is a 404. The page names only such URLs.
- A plain URL (`/static/js/main.js`, `/avatars/mar.svg`) and the page itself are revalidated
  (`no-cache` with an `ETag`): the answer is a `304 Not Modified` while the bytes are the same.
- Each answer is the brotli or gzip form made at startup when the browser accepts it (brotli
  first), with `Vary: Accept-Encoding`. Nothing is compressed while answering.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from fastapi import APIRouter, HTTPException, Request, Response

from tranque.server.http.pwa import service_worker
from tranque.server.http.security_headers import site_policy
from tranque.server.http.web_assets import ENCODINGS, Asset
from tranque.server.http.web_page import Site

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


def chosen_encoding(accept_encoding: str, offered: Iterable[str]) -> str | None:
    """The first of `offered` that `accept_encoding` accepts (q > 0), or None for the bytes as
    they are.

    >>> chosen_encoding("gzip, deflate, br, zstd", ["br", "gzip"])
    'br'
    >>> chosen_encoding("br;q=0, gzip;q=0.5", ["br", "gzip"])
    'gzip'
    >>> chosen_encoding("", ["br", "gzip"]) is None
    True
    """
    accepted: dict[str, float] = {}
    for part in accept_encoding.split(","):
        name, _, parameters = part.partition(";")
        weight = 1.0
        for parameter in parameters.split(";"):
            key, _, value = parameter.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if name.strip():
            accepted[name.strip().lower()] = weight
    for encoding in offered:
        if accepted.get(encoding, accepted.get("*", 0.0)) > 0:
            return encoding
    return None


def not_modified(if_none_match: str, fingerprint: str) -> bool:
    """Whether an `If-None-Match` names these bytes, in any encoding (a proxy may weaken the tag).

    >>> not_modified('W/"0123456789-br", "x"', "0123456789")
    True
    >>> not_modified('"9876543210"', "0123456789")
    False
    """
    for tag in if_none_match.split(","):
        tag = tag.strip().removeprefix("W/").strip('"')
        if tag == "*" or (tag and tag.split("-")[0] == fingerprint):
            return True
    return False


def respond(request: Request, asset: Asset, cache_control: str, headers: Mapping[str, str] = {}) -> Response:
    """`asset` as `request` accepts it: compressed or not, or a 304 when the browser has it."""
    offered = [encoding for encoding in ENCODINGS if encoding in asset.encoded]
    encoding = chosen_encoding(request.headers.get("accept-encoding", ""), offered)
    answer = {
        "ETag": f'"{asset.fingerprint}-{encoding}"' if encoding else f'"{asset.fingerprint}"',
        "Cache-Control": cache_control,
        **headers,
    }
    if offered:
        answer["Vary"] = "Accept-Encoding"
    if not_modified(request.headers.get("if-none-match", ""), asset.fingerprint):
        return Response(status_code=304, headers=answer)
    body = asset.encoded[encoding] if encoding else asset.body
    if encoding:
        answer["Content-Encoding"] = encoding
    if request.method == "HEAD":
        answer["Content-Length"] = str(len(body))
        body = b""
    return Response(body, media_type=asset.media_type, headers=answer)


def router(site: Site) -> APIRouter:
    """/static/<path> (the web directory), /avatars/<id>.svg (its avatars/) and /sw.js (the
    service worker, pwa.py: revalidated on each visit, its scope the whole site)."""
    routes = APIRouter(include_in_schema=False)
    worker = service_worker(site)

    def asset(request: Request, path: str) -> Response:
        found = site.assets.find(path)
        if found is None:
            raise HTTPException(status_code=404)
        asset, by_fingerprint = found
        return respond(request, asset, IMMUTABLE if by_fingerprint else REVALIDATE)

    @routes.api_route("/static/{path:path}", methods=["GET", "HEAD"])
    async def static(request: Request, path: str) -> Response:
        return asset(request, path)

    @routes.api_route("/avatars/{path:path}", methods=["GET", "HEAD"])
    async def avatars(request: Request, path: str) -> Response:
        return asset(request, "avatars/" + path)

    @routes.api_route("/sw.js", methods=["GET", "HEAD"])
    async def sw(request: Request) -> Response:
        return respond(request, worker, REVALIDATE, {"Service-Worker-Allowed": "/"})

    return routes


def page(request: Request, site: Site) -> Response:
    """The client's page: revalidated, so that it always names the current fingerprints."""
    policy = {"Content-Security-Policy": site_policy(site.script_sources)}
    return respond(request, site.page, REVALIDATE, policy)
