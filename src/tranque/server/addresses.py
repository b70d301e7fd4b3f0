"""Where a request or a socket comes from: the one place the server asks for a client's address.

uvicorn's proxy-headers support rewrites the ASGI scope's `client` and `scheme` from
`X-Forwarded-For` and `X-Forwarded-Proto` when the peer is a trusted proxy
(`tranque serve --forwarded-allow-ips`, uvicorn's `forwarded_allow_ips`; 127.0.0.1 by
default), and leaves them alone for anyone else. So what is read here is the real client's
address and scheme behind a configured proxy, and the peer's own otherwise: a client cannot
choose its address by sending the header itself.

Every per-client limit counts *places*, not addresses (`place`): an IPv4 address is one place,
but one home or phone on IPv6 gets a whole /64 (2^64 addresses, privacy addresses changing by
the hour), so an IPv6 address counts as its /64 (`Settings.ipv6_prefix`), and an IPv4-mapped
IPv6 address (`::ffff:10.0.0.1`) as the IPv4 address it carries.
"""

from __future__ import annotations

import hashlib
import ipaddress

from starlette.requests import HTTPConnection

UNKNOWN = "unknown"  # no address (a test transport, a Unix socket): all such clients share one
IPV6_PREFIX = 64  # what one subscriber gets (RFC 6177); `Settings.ipv6_prefix` may choose another


def client_address(connection: HTTPConnection) -> str:
    """The client's address, for per-client limits and quotas (a `Request` or a `WebSocket`)."""
    client = connection.client
    return client.host if client is not None and client.host else UNKNOWN


def place(address: str, ipv6_prefix: int = IPV6_PREFIX) -> str:
    """The place an address counts as for every per-client limit: an IPv4 address itself, an
    IPv6 address's network of `ipv6_prefix` bits, anything else (a test transport's name) as it
    is. A place is the place of itself (a network given already counts as it is).

    >>> place("10.0.0.1"), place("::ffff:10.0.0.1"), place("2001:db8:1:2::10"), place("2001:db8:1:2:ff::11")
    ('10.0.0.1', '10.0.0.1', '2001:db8:1:2::/64', '2001:db8:1:2::/64')
    >>> place("2001:db8:1:2::/64"), place("2001:db8:1:2::10", 48), place("localhost"), place("unknown")
    ('2001:db8:1:2::/64', '2001:db8:1::/48', 'localhost', 'unknown')
    """
    if "/" in address:
        try:
            return str(ipaddress.ip_network(address, strict=False))
        except ValueError:
            return address
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])  # a zone id (fe80::1%eth0) is no part of it
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, ipv6_prefix), strict=False))
    return str(ip)


def client_place(connection: HTTPConnection, ipv6_prefix: int = IPV6_PREFIX) -> str:
    """The client's place (`place` of `client_address`): the key of every per-client limit."""
    return place(client_address(connection), ipv6_prefix)


def is_https(connection: HTTPConnection) -> bool:
    """Whether the client reached us over TLS (directly, or through a trusted proxy that says so)."""
    return connection.url.scheme in ("https", "wss")


def seat_address_key(table_id: str, address: str | None) -> str | None:
    """What a seat keeps of its person's address: a digest of its place (`place`: one IPv6
    /64 is one place) with the table's id, the same for two people at one place and table (so
    such a game is not rated), and kept in the table's log across restarts without the address
    itself; None for no known address. `address` may be an address or a place already."""
    if address is None:
        return None
    where = place(address)
    if where == UNKNOWN:
        return None
    return hashlib.sha256(f"tranque-seat:{table_id}:{where}".encode()).hexdigest()
