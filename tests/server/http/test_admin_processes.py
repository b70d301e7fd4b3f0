"""`/api/admin/processes` on one process without Redis (docs/protocol.md, «The site's
processes (admins)»): admins only, a single entry, a drain of this very process, and an
unknown name refused with its code. Two real processes behind nginx: tests/deploy/test_nginx.py;
the cluster's side of it: tests/server/cluster/test_rebalance.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.support.http_helpers import client, live, register
from tranque.cli import main


def test_only_an_admin_sees_the_one_process_and_may_drain_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    with live(url) as server, client(server) as http, client(server) as guest:
        refused = guest.get("/api/admin/processes")
        assert refused.status_code == 401
        assert register(http, "Dueña").status_code == 201
        refused = http.get("/api/admin/processes")
        assert (refused.status_code, refused.json()["code"]) == (403, "not_an_admin")
        assert refused.json()["message"] and refused.json()["message_en"]
        assert http.post("/api/admin/processes/x/drain").json()["code"] == "not_an_admin"
        assert main(["admin", "grant", "Dueña", "moderator", "--db", url]) == 0
        assert http.get("/api/admin/processes").json()["code"] == "not_an_admin"  # a moderator is not
        assert main(["admin", "grant", "Dueña", "admin", "--db", url]) == 0
        capsys.readouterr()

        (alone,) = http.get("/api/admin/processes").json()["processes"]
        assert set(alone) == {"node", "tables_owned", "replicas", "sockets", "draining", "this"}
        assert alone["this"] is True and alone["draining"] is False and alone["replicas"] == 0
        state = server.app.state.tranque
        assert state.draining is False

        unknown = http.post("/api/admin/processes/nadie-1/drain")
        assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown_process")
        assert "nadie-1" in unknown.json()["message"] and "nadie-1" in unknown.json()["message_en"]
        cross = http.post(
            f"/api/admin/processes/{alone['node']}/drain", headers={"Origin": "https://otro.example"}
        )
        assert (cross.status_code, cross.json()["code"]) == (403, "cross_origin")
        form = http.post(f"/api/admin/processes/{alone['node']}/drain", data={"a": "b"})
        assert (form.status_code, form.json()["code"]) == (415, "json_required")
        assert state.draining is False  # refused: nothing changed

        drained = http.post(f"/api/admin/processes/{alone['node']}/drain")
        assert drained.status_code == 200 and drained.json() == {"node": alone["node"], "draining": True}
        assert state.draining is True
        (after,) = http.get("/api/admin/processes").json()["processes"]
        assert after["draining"] is True
