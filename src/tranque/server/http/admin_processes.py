"""The site's processes for its admins, `/api/admin/processes` (docs/deploy.md, «Spreading
the tables, and draining a process»).

Only for accounts whose role is `admin` (`tranque admin grant NAME admin`), by their session
or their admin token (http/admin.py `require_admin`); anyone else gets 403 `not_an_admin`.

- `GET /api/admin/processes`: every live process as it last said (cluster/balance.py): its
  name, the open tables it owns and keeps as replicas, its open WebSockets, whether it
  drains, and which one answered (`this`). One process without Redis: a single entry.
- `POST /api/admin/processes/{node}/drain`: that process stops taking tables, hands over all
  it owns and is no longer ready for new clients. The request may reach any process: the
  drain goes to the named one over the bus. A name no live process has: 404
  `unknown_process`.
"""

from __future__ import annotations

import os
import socket
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Depends, Request

from tranque.server.app_state import ServerState, server_state
from tranque.server.http.admin import Admin
from tranque.server.http.errors import ApiError, SpanishErrors

router = APIRouter(prefix="/api/admin", tags=["administración"], route_class=SpanishErrors)


def same_origin(request: Request) -> None:
    """Refuse a POST a page on another origin could have made: an `Origin` that is not this
    host, or a body that is not JSON (a form's)."""
    origin = request.headers.get("origin")
    host = request.headers.get("host", "")
    if origin is not None and urlsplit(origin).netloc.lower() != host.lower():
        raise ApiError(403, "cross_origin")
    media_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media_type not in ("", "application/json"):
        raise ApiError(415, "json_required")


def lone_name() -> str:
    """A process's name when it runs alone (no cluster): where it runs."""
    return f"{socket.gethostname()}-{os.getpid()}"


@router.get("/processes", summary="Los procesos del sitio: mesas, réplicas, sockets, drenaje")
async def processes(request: Request, _admin: Admin) -> dict[str, Any]:
    state = server_state(request)
    cluster = state.registry.cluster
    if cluster is None:
        tables = state.registry.tables.values()
        alone = {
            "node": lone_name(),
            "tables_owned": sum(1 for table in tables if not table.retired and not table.state.phase.is_over),
            "replicas": 0,
            "sockets": sum(state.sockets_by_place.values()),
            "draining": state.draining,
        }
        return {"processes": [{**alone, "this": True}]}
    return {"processes": [{**row, "this": row["node"] == cluster.node} for row in cluster.processes()]}


@router.post(
    "/processes/{node}/drain",
    dependencies=[Depends(same_origin)],
    summary="Drenar un proceso: entrega sus mesas y deja de recibir clientes nuevos",
)
async def drain(node: str, request: Request, _admin: Admin) -> dict[str, Any]:
    state = server_state(request)
    if not ask_drain(state, node):
        raise ApiError(404, "unknown_process", node=node)
    return {"node": node, "draining": True}


def ask_drain(state: ServerState, node: str) -> bool:
    cluster = state.registry.cluster
    if cluster is None:
        if node != lone_name():
            return False
        state.draining = True
        return True
    return cluster.ask_drain(node)
