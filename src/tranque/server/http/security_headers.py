"""Security headers on every HTTP response (a pure ASGI middleware).

- `Content-Security-Policy`: scripts, styles, images, sockets and fetches from this origin
  only, no inline script, no plugins, no `<base>`, and no framing (`frame-ancestors 'none'`,
  with `X-Frame-Options: DENY` for older browsers). The browser client has no inline script,
  style or handler, so it runs under this policy unchanged, but for the import map the server
  writes into its page (web_page.py): the page's policy allows that one by its SHA-256.
- The API docs (`/docs`, `/redoc`, served from this origin by `fastapi_offline`) start Swagger
  UI with an inline script: their policy allows exactly that script by its SHA-256, and inline
  styles (ReDoc writes its own), and nothing else more than the site's.
- `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer` (an invitation link is a
  secret), and `Cache-Control: no-store` on API answers that say nothing of their own caching:
  they are personal (who you are, your tables) or change from one moment to the next.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterable

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

SITE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
DOCS_POLICY = (
    "default-src 'self'; script-src {scripts}; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; worker-src 'self' blob:; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
INLINE_SCRIPT = re.compile(rb"<script>(.*?)</script>", re.S)


def script_hashes(html: bytes) -> list[str]:
    """The CSP sources of the inline scripts of a page, in order.

    >>> script_hashes(b"<script src='/a.js'></script><script>go()</script>")
    ["'sha256-5KYv+PUboo5h+0+YAtGRPbwv5d/QxzHslP4YGnUaxRw='"]
    """
    return [inline_script_source(script) for script in INLINE_SCRIPT.findall(html)]


def inline_script_source(script: bytes) -> str:
    """The CSP source that allows one inline script (or import map), by its SHA-256."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(script).digest()).decode() + "'"


def site_policy(script_sources: Iterable[str] = ()) -> str:
    """The site's policy, its scripts allowed from this origin and from `script_sources` too
    (the client's page: its import map, by hash).

    >>> "script-src 'self' 'sha256-x';" in site_policy(["'sha256-x'"])
    True
    """
    return SITE_POLICY.replace("script-src 'self';", " ".join(["script-src 'self'", *script_sources]) + ";")


class SecurityHeaders:
    """Adds the headers above to every HTTP response of `app`; `docs_paths` get DOCS_POLICY."""

    def __init__(self, app: ASGIApp, docs_paths: Iterable[str] = ()) -> None:
        self.app = app
        self.docs_paths = frozenset(docs_paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path in self.docs_paths:
            await self._docs(scope, receive, send)
            return
        is_api = path.startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                _add_headers(message, SITE_POLICY, no_store=is_api)
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _docs(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A docs page is small: hold it whole, then allow its own inline scripts."""
        start: Message | None = None
        body = b""

        async def hold(message: Message) -> None:
            nonlocal start, body
            if message["type"] == "http.response.start":
                start = message
                return
            if message["type"] != "http.response.body" or start is None:
                await send(message)
                return
            body += message.get("body", b"")
            if message.get("more_body", False):
                return
            scripts = " ".join(["'self'", *script_hashes(body)])
            _add_headers(start, DOCS_POLICY.format(scripts=scripts), no_store=False)
            await send(start)
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, hold)


def _add_headers(start: Message, policy: str, no_store: bool) -> None:
    headers = MutableHeaders(scope=start)
    headers.setdefault("Content-Security-Policy", policy)
    for name, value in HEADERS.items():
        headers.setdefault(name, value)
    if no_store:
        headers.setdefault("Cache-Control", "no-store")
