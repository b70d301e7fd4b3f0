"""Where a request or a socket comes from: the one place the server asks for a client's address.

uvicorn's proxy-headers support rewrites the ASGI scope's `client` and `scheme` from
`X-Forwarded-For` and `X-Forwarded-Proto` when the peer is a trusted proxy
(`tranque serve --forwarded-allow-ips`, uvicorn's `forwarded_allow_ips`; 127.0.0.1 by
default), and leaves them alone for anyone else. So what is read here is the real client's
address and scheme behind a configured proxy, and the peer's own otherwise: a client cannot
choose its address by sending the header itself.
"""

from __future__ import annotations

import hashlib

from starlette.requests import HTTPConnection

UNKNOWN = "unknown"  # no address (a test transport, a Unix socket): all such clients share one


def client_address(connection: HTTPConnection) -> str:
    """The client's address, for per-client limits and quotas (a `Request` or a `WebSocket`)."""
    client = connection.client
    return client.host if client is not None and client.host else UNKNOWN


def is_https(connection: HTTPConnection) -> bool:
    """Whether the client reached us over TLS (directly, or through a trusted proxy that says so)."""
    return connection.url.scheme in ("https", "wss")


def seat_address_key(table_id: str, address: str | None) -> str | None:
    """What a seat keeps of its person's address: a digest of it with the table's id, the same
    for two people at one address and table (so such a game is not rated), and kept in the
    table's log across restarts without the address itself; None for no known address."""
    if address is None or address == UNKNOWN:
        return None
    return hashlib.sha256(f"tranque-seat:{table_id}:{address}".encode()).hexdigest()
