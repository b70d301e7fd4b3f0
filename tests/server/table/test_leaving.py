"""Leaving a table (N7) and the bots' names and faces.

`stand` leaves a table waiting for players (the host leaving an empty one closes it);
`abandon` leaves a game being played: a bot covers the seat to the end, and in a rated game
it counts as an abandon. Bots have person-like names and faces, no two alike at a table, the
same from the table's id every time and read back from the log, never worked out again.
"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from tests.server.players.test_rated_games import Game, addresses, kept, seated_table, store
from tests.server.support.http_helpers import client, live, register
from tests.server.support.inprocess import TableRig
from tests.server.support.scenario_helpers import Client
from tranque.engine import Rules
from tranque.server.accounts.sessions import SESSION_COOKIE
from tranque.server.lobby.limits import Limits
from tranque.server.store import Store
from tranque.server.table import bot_names, commands
from tranque.server.table.bot_names import PEOPLE, face_for, identity, tournament_name
from tranque.server.table.seats import SeatKind, SeatState
from tranque.server.table.state import Phase, TableError, TableKind

__all__ = ["store"]  # the rated games' store fixture, on the backend TRANQUE_TEST_DB names

pytestmark = pytest.mark.anyio

DUEL = Rules.preset("clasico", players=2, mode="individual")
PAIRS = Rules.preset("clasico", players=4, mode="pairs")
TWO = {"preset": "clasico", "players": 2, "mode": "individual"}
AVATARS = {
    "cafe",
    "coco",
    "gallo",
    "guitarra",
    "iguana",
    "loro",
    "mango",
    "mar",
    "palma",
    "sol",
    "tambor",
    "tucan",
}


# Names and faces ---------------------------------------------------------------------------------


def test_every_bot_face_is_one_of_the_sites_drawings_and_every_name_a_persons() -> None:
    assert {face for _, face in PEOPLE} == AVATARS
    assert len({name for name, _ in PEOPLE}) == len(PEOPLE)
    assert not any(name.startswith("Bot") or any(ch.isdigit() for ch in name) for name, _ in PEOPLE)


def test_a_tables_bots_are_distinct_and_the_same_for_the_same_table() -> None:
    for table_id in ("mesa", "abcDEF123456", "x"):
        chosen = [identity(table_id, seat) for seat in range(6)]
        assert len({face for _, face in chosen}) == 6
        assert len({name for name, _ in chosen}) == 6
        assert chosen == [identity(table_id, seat) for seat in range(6)]
    assert [identity("a", s) for s in range(4)] != [identity("b", s) for s in range(4)]


def test_a_named_bot_keeps_its_face_unless_the_table_shows_it_already() -> None:
    name, face = PEOPLE[0]
    assert face_for(name, "mesa", 1) == face
    assert face_for(f"{name} 2", "mesa", 1) == face
    other = face_for(name, "mesa", 1, taken=[face])
    assert other != face and other in AVATARS
    names = [tournament_name("torneo", n) for n in range(1, 2 * len(PEOPLE) + 1)]
    assert len(set(names)) == len(names)  # the second round of names is numbered


async def test_bots_seated_by_fill_bots_have_names_faces_and_levels_from_the_log(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with TableRig.opened(PAIRS, TableKind.PUBLIC, host_user_id=7) as rig:
        seated = await rig.call(commands.Sit(7, "Ana", 0, None))
        rig.tokens[0] = seated["token"]
        await rig.call(commands.FillWithBots(7, "greedy"))
        bots = [seat for seat in rig.table.state.seats if seat.kind is SeatKind.BOT]
        assert [(b.name, b.face) for b in bots] == [identity(rig.table_id, b.index) for b in bots]
        assert len({b.face for b in bots}) == 3 and {b.bot_level for b in bots} == {"greedy"}
        public = [seat.public_json() for seat in bots]
        assert all(p["face"] in AVATARS and p["name_en"] == p["name"] for p in public)
        # Event-sourced: a replay reads the names from the `seat` events even if the table
        # would name its bots otherwise today.
        before = [(b.name, b.face) for b in bots]
        monkeypatch.setattr(bot_names, "PEOPLE", tuple(reversed(PEOPLE)))
        assert [identity(rig.table_id, b.index) for b in bots] != before  # named otherwise today
        replayed = await rig.replayed()
        assert [(s.name, s.face) for s in replayed.seats if s.kind is SeatKind.BOT] == before


# Abandon ------------------------------------------------------------------------------------------


async def test_N7_abandon_mid_game_covers_the_seat_to_the_end_and_counts_as_abandoned(store: Store) -> None:
    async with seated_table(store, DUEL, addresses(2)) as (rig, users):
        socket = await rig.hello(1)
        await rig.call(commands.Abandon(1))
        seat = rig.table.state.seats[1]
        assert (seat.state, seat.abandoned) == (SeatState.COVERED, True)
        last = [e for e in socket.events if e["kind"] == "seat"][-1]["data"]
        assert (last["seat"], last["state"], last["abandoned"]) == (1, "covered", True)
        with pytest.raises(TableError) as refused:
            await rig.call(commands.ReturnToSeat(1))
        assert refused.value.code == "abandoned"
        assert await rig.call(commands.AccountSeat(users[1])) is None  # not offered back
        await rig.call(commands.Abandon(1))  # a second time changes nothing
        await Game(rig, {0}).play_to_the_end()
        assert rig.table.state.seats[1].state is SeatState.COVERED
        players = await store.game_players((await kept(rig)).game_id)
        assert [(p.won, p.abandoned, p.xp) for p in players] == [(True, False, 20), (False, True, 0)]
        assert (await rig.replayed()).seats[1].abandoned


async def test_N7_abandon_is_refused_before_the_game_for_spectators_and_at_tournaments() -> None:
    async with TableRig.opened(DUEL, TableKind.PUBLIC, host_user_id=7) as rig:
        await rig.call(commands.Sit(7, "Ana", 0, None))
        with pytest.raises(TableError) as refused:
            await rig.call(commands.Abandon(0))
        assert (refused.value.code, refused.value.message) == (
            "not_playing",
            "La partida no ha empezado: para irte, levántate de la mesa.",
        )
        with pytest.raises(TableError) as refused:
            await rig.call(commands.Abandon(None))
        assert refused.value.code == "spectator"
    async with TableRig.opened(DUEL, TableKind.TOURNAMENT) as rig:
        for seat in rig.table.seats:
            rig.tokens[seat.index] = await rig.table.take_seat(seat, f"p{seat.index}", seat.index + 1)
        await rig.table.start_game()
        with pytest.raises(TableError) as refused:
            await rig.call(commands.Abandon(0))
        assert refused.value.code == "tournament_seats"


async def test_N7_abandon_on_your_turn_lets_the_bot_play_it_at_once() -> None:
    async with TableRig.practice(DUEL) as rig:
        state = rig.table.state
        assert state.turn is not None
        if state.turn.seat != 0:  # the bot leads: wait for the human's turn
            await rig.advance(1.0)
        turn = rig.table.state.turn
        assert turn is not None and turn.seat == 0
        await rig.call(commands.Abandon(0))
        assert rig.table.state.turn is None or rig.table.state.turn.turn_id > turn.turn_id


# Stand ----------------------------------------------------------------------------------------------


async def test_N7_stand_from_a_waiting_table_empties_the_seat() -> None:
    async with TableRig.opened(PAIRS, TableKind.PUBLIC, host_user_id=7) as rig:
        await rig.call(commands.Sit(7, "Ana", 0, None))
        await rig.call(commands.Sit(8, "Beto", 1, None))
        await rig.call(commands.Stand(8))
        assert rig.table.state.seats[1].kind is SeatKind.EMPTY
        await rig.call(commands.Stand(7))  # the host, alone: the table closes
        assert rig.phase() is Phase.ANNULLED
        assert (await rig.kinds())[-1] == "game_ended"


async def test_N7_the_host_leaving_while_others_sit_keeps_the_table() -> None:
    async with TableRig.opened(PAIRS, TableKind.PUBLIC, host_user_id=7) as rig:
        await rig.call(commands.Sit(7, "Ana", 0, None))
        await rig.call(commands.Sit(8, "Beto", 1, None))
        await rig.call(commands.Stand(7))
        assert rig.phase() is Phase.WAITING
        assert [s.kind for s in rig.table.state.seats][:2] == [SeatKind.EMPTY, SeatKind.HUMAN]


def test_N7_three_waiting_tables_then_leave_one_and_a_fourth_can_be_created() -> None:
    with live(limits=Limits(waiting_tables_per_account=3)) as server:
        http = client(server)
        assert register(http, "Anfitriona").status_code == 201
        cookie = {"Cookie": f"{SESSION_COOKIE}={http.cookies[SESSION_COOKIE]}"}
        tables = [http.post("/api/tables", json=TWO).json()["table"] for _ in range(3)]
        refused = http.post("/api/tables", json=TWO)
        assert (refused.status_code, refused.json()["code"]) == (429, "too_many_tables")

        async def leave_one() -> None:
            async with Client(server, cookie) as host:
                seated = await host.ok({"type": "sit", "table": tables[0]})
                await host.hello(tables[0], seated["token"])
                await host.ok({"type": "stand"})
                ended = await host.until("game_ended")
                assert ended["data"]["reason"] == "annulled"

        asyncio.run(leave_one())
        assert http.post("/api/tables", json=TWO).status_code == 201
        lobby = {entry["table"] for entry in httpx.get(f"{server.http}/api/lobby").json()}
        assert tables[0] not in lobby and set(tables[1:]) <= lobby
        http.close()
