"""Fair turns in the analysis queue (http/analysis.py, store.analyses.turn_order) on a real
server, on every backend: one place (a client address) holds only its share of the queue,
however many accounts ask from there, so another place's request still gets in; and the
queue takes its jobs in turns between places, not in the order they came."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import httpx

from tests.server.analysis.test_analysis_api import refusal
from tests.server.support.analysis_helpers import ask, keep_game
from tests.server.support.harness import LiveServer
from tests.server.support.http_helpers import client, database_url, live, login
from tests.server.support.players_helpers import make_user
from tranque.server.store import AnalysisRow

__all__ = ["database_url"]  # the fixture: a server on every backend

HOME, OTHER = "10.60.0.1", "10.60.0.2"


@contextlib.contextmanager
def accounts_at(server: LiveServer, address: str, *names: str) -> Iterator[list[httpx.Client]]:
    """A logged-in client for each of `names`, all reaching the server from `address` (through
    the loopback proxy uvicorn trusts)."""
    with contextlib.ExitStack() as stack:
        https = []
        for name in names:
            make_user(server, name, can_log_in=True)
            http = stack.enter_context(client(server, headers={"X-Forwarded-For": address}))
            assert login(http, name).status_code == 200
            https.append(http)
        yield https


def claim(server: LiveServer) -> str | None:
    """The game of the next job the queue's workers would take (a worker of this test's)."""

    async def take() -> AnalysisRow | None:
        now = server.settings.clock.now()
        row: AnalysisRow | None = await server.state.store.claim_analysis("test/0", now, now - 60)
        return row

    row = server.on_server(take)
    return row.game_id if row is not None else None


def test_T2_one_place_cannot_fill_the_analysis_queue_and_takes_turns(database_url: str) -> None:
    # workers=0: the jobs stay pending, and this test claims them as a worker would.
    settings = {"analysis_workers": 0, "analysis_queue_size": 4, "analysis_pending_per_address": 2}
    with (
        live(database_url, **settings) as server,
        accounts_at(server, HOME, "ana", "bea", "carla", "dora") as at_home,
        accounts_at(server, OTHER, "eva") as (eva,),
    ):
        owner = make_user(server, "dueño")
        for number in range(1, 7):
            keep_game(server, f"mesa{number}.1", [owner, None])  # public games: anyone may ask
        ana, bea, carla, dora = at_home

        assert ask(ana, "mesa1.1").status_code == 202
        refusal(ask(ana, "mesa6.1"), 429, "analysis_pending")  # one account: one place in the queue
        server.advance(1)
        assert ask(bea, "mesa2.1").status_code == 202
        server.advance(1)
        # Two from one place are its share, however many accounts it has.
        for http, game in ((carla, "mesa3.1"), (dora, "mesa4.1")):
            refusal(ask(http, game), 429, "analysis_pending_place")
            assert http.get(f"/api/games/{game}/analysis").json()["status"] == "none"
        # The queue (4) still has room for someone else.
        assert ask(eva, "mesa5.1").status_code == 202

        # Turns: the first of each place, then the second; not the order they came in.
        assert [claim(server) for _ in range(4)] == ["mesa1.1", "mesa5.1", "mesa2.1", None]
