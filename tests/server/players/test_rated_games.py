"""Rated games at the table (table_rating.py, game_archive.py, game_rating.py): what makes a
game rated, and what a rated game changes in the store.

Each table is the real `Table` actor (tests/server/support/inprocess.py) on a real store: the memory
one, or SQLite / PostgreSQL with TRANQUE_TEST_DB. People sit as accounts with `Sit` (from an
address, as the socket gives it), play the first legal action on their turn, and an absent
person's turns run out on the clock until a bot covers them (R16). Expected ratings are
computed here with the OpenSkill library itself.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce

from tests.server.conftest import empty_tables, make_test_store
from tests.server.support.inprocess import Socket, TableRig
from tranque.engine import Rules
from tranque.server.store import GameRow, RatingRow, Store
from tranque.server.store.sql import SqlStore
from tranque.server.table import commands
from tranque.server.table.state import Phase, TableKind

pytestmark = pytest.mark.anyio

LIBRARY = PlackettLuce()
DUEL = Rules.preset("clasico", players=2, mode="individual")
PAIRS = Rules.preset("clasico", players=4, mode="pairs")
WEEK_AND_MONTH = 2  # periods besides "all" a game counts in


@pytest.fixture
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    """A started, empty store of the backend TRANQUE_TEST_DB names (memory by default)."""
    started = make_test_store(os.environ.get("TRANQUE_TEST_DB", "memory"), request, tmp_path)
    await started.start()
    try:
        if isinstance(started, SqlStore):
            await empty_tables(started)
        yield started
    finally:
        await started.close()


async def accounts(store: Store, count: int) -> list[int]:
    return [(await store.create_user(f"jugador{index}", "hash", 0.0)).user_id for index in range(count)]


async def sit(rig: TableRig, user_id: int, seat: int, address: str | None) -> None:
    seated = await rig.call(commands.Sit(user_id, f"jugador{seat}", seat, address))
    rig.tokens[seat] = seated["token"]


class Game:
    """A table being played: `present` seats act, the others are away until they come back."""

    def __init__(
        self, rig: TableRig, present: set[int], back_when_covered: frozenset[int] = frozenset()
    ) -> None:
        self.rig = rig
        self.present = set(present)
        self.back_when_covered = set(back_when_covered)
        self.sockets: dict[int, Socket] = {}

    async def play_to_the_end(self) -> None:
        rig = self.rig
        for seat in self.present:
            self.sockets[seat] = await rig.hello(seat)
        for _ in range(20_000):
            state = rig.table.state
            if state.phase.is_over:
                await rig.record_games()  # as the app's recorder does once a game has ended
                return
            for seat in list(self.back_when_covered):
                if state.seats[seat].played_by_bot:
                    self.back_when_covered.discard(seat)
                    self.present.add(seat)
                    self.sockets[seat] = await rig.hello(seat)
                    await rig.call(commands.ReturnToSeat(seat))
            if state.phase is Phase.BETWEEN_ROUNDS:
                await self._ready(state.waiting_for_ready)
            elif state.turn is not None:
                await self.turn(state.turn.seat, state.turn.turn_id, state.turn.auto)
        raise AssertionError("the game did not end")

    async def _ready(self, waiting: list[Any]) -> None:
        here = [seat.index for seat in waiting if seat.index in self.present]
        for seat in here:
            await self.rig.call(commands.Ready(seat))
        if not here:
            await self.rig.advance(self.rig.options.between_rounds_seconds)

    async def turn(self, seat: int, turn_id: int, auto: bool) -> None:
        rig = self.rig
        if rig.table.state.seats[seat].played_by_bot or auto:
            await rig.advance(rig.options.auto_move_seconds)
        elif seat in self.present:
            action = rig.table.game.round.legal_actions()[0]
            await rig.call(commands.Act(seat, action.to_json(), turn_id))
        else:
            await rig.advance(rig.rules.turn_seconds)


@asynccontextmanager
async def seated_table(
    store: Store, rules: Rules, addresses: list[str | None], **options: Any
) -> AsyncIterator[tuple[TableRig, list[int]]]:
    users = await accounts(store, rules.players)
    async with TableRig.opened(rules, TableKind.PUBLIC, store, competitive=True, **options) as rig:
        for seat, (user_id, address) in enumerate(zip(users, addresses, strict=True)):
            await sit(rig, user_id, seat, address)
        yield rig, users


def addresses(count: int) -> list[str | None]:
    return [f"10.0.0.{index + 1}" for index in range(count)]


def expected(rules: Rules, ranks: list[int]) -> list[tuple[float, float]]:
    """Each seat's (μ, σ) after newcomers finish a game in `ranks` (by team), by the library
    (compare with `approx` of `flat`)."""
    teams = [[LIBRARY.rating() for _ in rules.seats_of(team)] for team in range(rules.team_count)]
    after = LIBRARY.rate(teams, ranks=[float(rank) for rank in ranks])
    by_seat = {}
    for team in range(rules.team_count):
        for place, seat in enumerate(rules.seats_of(team)):
            by_seat[seat] = (after[team][place].mu, after[team][place].sigma)
    return [by_seat[seat] for seat in range(rules.players)]


def flat(pairs: list[tuple[float, float]]) -> list[float]:
    return [value for pair in pairs for value in pair]


def held(found: dict[int, RatingRow], users: list[int]) -> list[tuple[float, float]]:
    return [(found[user].mu, found[user].sigma) for user in users]


async def kept(rig: TableRig) -> GameRow:
    game = await rig.store.load_game(f"{rig.table_id}.{rig.table.state.game_number}")
    assert game is not None
    return game


def winner_seats(rig: TableRig) -> list[int]:
    winners = rig.table.game.winners
    return [seat for seat in range(rig.rules.players) if rig.rules.team_of(seat) in winners]


# Rated -------------------------------------------------------------------------------------


async def test_a_rated_duel_changes_ratings_and_xp_as_the_library_rates_it(store: Store) -> None:
    async with seated_table(store, DUEL, addresses(2)) as (rig, users):
        sync = rig.table.snapshot(0)["rating"]
        assert sync["rated"] and sync["reason"] is None and sync["chances"] == [0.5, 0.5]
        await Game(rig, {0, 1}).play_to_the_end()
        (winner,) = winner_seats(rig)
        ranks = [0 if seat == winner else 1 for seat in range(2)]
        game = await kept(rig)
        assert (game.competitive, game.rated, game.unrated_reason) == (True, True, None)
        found = await store.ratings_of(users, "duel")
        assert flat(held(found, users)) == pytest.approx(flat(expected(DUEL, ranks)))
        assert [found[user].games for user in users] == [1, 1]
        players = await store.game_players(game.game_id)
        assert [(p.won, p.abandoned, p.xp) for p in players] == [
            (seat == winner, False, 20 if seat == winner else 5) for seat in range(2)
        ]
        assert players[0].mu_before == 25.0 and players[0].mu_after == found[users[0]].mu
        for seat, user in enumerate(users):
            totals = await store.xp_of(user)
            assert totals["all"] == (20 if seat == winner else 5)
            assert sorted(totals.values()) == [totals["all"]] * (1 + WEEK_AND_MONTH)
        ended = [e for e in (await rig.log()) if e.kind == "game_ended"][-1]
        assert ended.data["rating_changes"] == [
            {
                "seat": seat,
                "before": 450,
                "after": round(found[user].shown),
                "xp": 20 if seat == winner else 5,
            }
            for seat, user in enumerate(users)
        ]


async def test_a_rematch_starts_from_the_new_ratings_and_shows_them(store: Store) -> None:
    async with seated_table(store, DUEL, addresses(2)) as (rig, users):
        await Game(rig, {0, 1}).play_to_the_end()
        after_first = await store.ratings_of(users, "duel")
        assert rig.table.state.rating is not None and rig.table.state.rating["seats"][0]["rating"] == 450
        for seat in (0, 1):
            await rig.call(commands.Rematch(seat))
        shown = rig.table.state.rating
        assert shown is not None
        assert [seat["rating"] for seat in shown["seats"]] == [round(after_first[u].shown) for u in users]
        # At creation, at each sit, then the new ratings when the rematch starts.
        assert (await rig.kinds()).count("rating") == 4
        await Game(rig, {0, 1}).play_to_the_end()
        found = await store.ratings_of(users, "duel")
        assert [found[user].games for user in users] == [2, 2]
        assert sum([(await store.xp_of(user))["all"] for user in users]) == 50


# Unrated -----------------------------------------------------------------------------------


async def test_two_people_from_one_address_change_no_rating_and_are_told_before_the_game(
    store: Store,
) -> None:
    users = await accounts(store, 2)
    async with TableRig.opened(DUEL, TableKind.PUBLIC, store, competitive=True) as rig:
        await sit(rig, users[0], 0, "10.0.0.7")
        assert rig.table.snapshot(None)["rating"]["rated"]
        await sit(rig, users[1], 1, "10.0.0.7")
        rating = rig.table.snapshot(0)["rating"]
        assert (rating["rated"], rating["reason"], rating["chances"]) == (False, "same_address", None)
        await Game(rig, {0, 1}).play_to_the_end()
        game = await kept(rig)
        assert (game.competitive, game.rated, game.unrated_reason) == (True, False, "same_address")
        assert await store.ratings_of(users, "duel") == {}
        assert [await store.xp_of(user) for user in users] == [{}, {}]
        assert [p.xp for p in await store.game_players(game.game_id)] == [0, 0]


async def test_a_place_shared_in_play_is_in_the_log_and_outlives_a_restart(store: Store) -> None:
    """Seat 1 is followed from seat 0's address after the start: a `place` event (no data for
    viewers), the game unrated from then, and the state a restart rebuilds says the same."""
    async with seated_table(store, DUEL, addresses(2)) as (rig, _):
        assert rig.table.snapshot(None)["rating"]["rated"]
        watcher = await rig.hello(None)
        socket = Socket("beto at ana's")
        socket.seat = await rig.call(commands.Subscribe(socket, rig.tokens[1], None, "10.0.0.1"))
        places = [stored for stored in await rig.log() if stored.kind == "place"]
        assert [stored.data["seat"] for stored in places] == [1]
        assert "10.0.0.1" not in str(places[0].data)  # the key, never the address
        shown = [frame for frame in watcher.frames if frame.get("kind") in ("place", "rating")]
        assert [frame["kind"] for frame in shown] == ["place", "rating"] and shown[0]["data"] == {}
        assert (shown[1]["data"]["rated"], shown[1]["data"]["reason"]) == (False, "same_address_in_play")
        again = Socket("beto at ana's, again")
        await rig.call(commands.Subscribe(again, rig.tokens[1], None, "10.0.0.1"))
        assert len([stored for stored in await rig.log() if stored.kind == "place"]) == 1  # known place
        rebuilt = await rig.replayed()
        assert rebuilt == rig.table.state
        assert rebuilt.seats[1].address_keys == rig.table.state.seats[0].address_keys | {
            rig.table.state.seats[1].address_key
        }


async def test_the_address_is_kept_as_a_key_never_shown(store: Store) -> None:
    users = await accounts(store, 2)
    async with TableRig.opened(DUEL, TableKind.PUBLIC, store, competitive=True) as rig:
        await sit(rig, users[0], 0, "203.0.113.9")
        log = await rig.log()
        assert "203.0.113.9" not in str([event.data for event in log])
        key = rig.table.state.seats[0].address_key
        assert key is not None and len(key) == 64
        watcher = await rig.hello(None)
        assert key not in str(watcher.frames) and "address" not in str(watcher.frames)
        await rig.restart()
        assert rig.table.state.seats[0].address_key == key  # it survives a restart


@pytest.mark.parametrize("case", ["casual", "guest", "bot"])
async def test_a_casual_game_a_guest_or_a_bot_from_the_start_leaves_the_game_unrated(
    store: Store, case: str
) -> None:
    users = await accounts(store, 2)
    competitive = case != "casual"
    async with TableRig.opened(
        DUEL, TableKind.PUBLIC, store, competitive=competitive, host_user_id=users[0]
    ) as rig:
        await sit(rig, users[0], 0, "10.0.0.1")
        table = rig.table
        if case == "casual":
            await sit(rig, users[1], 1, "10.0.0.2")
        elif case == "guest":
            rig.tokens[1] = await rig.call(_TakeSeat(1, "Invitado", None))
            await rig.call(commands.StartGame())
        else:
            await rig.call(commands.FillWithBots(users[0], "greedy"))
        rating = table.snapshot(0)["rating"]
        assert (rating["competitive"], rating["rated"], rating["reason"]) == (case != "casual", False, case)
        await Game(rig, {0} if case == "bot" else {0, 1}).play_to_the_end()
        game = await kept(rig)
        assert (game.rated, game.unrated_reason) == (False, case)
        assert await store.ratings_of(users, "duel") == {}
        assert await store.xp_of(users[0]) == {}
        ended = [e for e in await rig.log() if e.kind == "game_ended"][-1]
        assert "rating_changes" not in ended.data


class _TakeSeat:
    """A guest takes a seat (as a practice table seats one), through the table's actor."""

    def __init__(self, seat: int, name: str, user_id: int | None) -> None:
        self.seat, self.name, self.user_id = seat, name, user_id

    async def run(self, table: Any) -> str:
        token: str = await table.take_seat(table.seats[self.seat], self.name, self.user_id, "10.0.0.9")
        return token


async def test_an_annulled_game_counts_for_nothing(store: Store) -> None:
    async with seated_table(store, DUEL, addresses(2)) as (rig, users):
        await rig.call(commands.Vote(0, True))
        await rig.call(commands.Vote(1, True))
        assert rig.table.state.phase is Phase.ANNULLED
        assert await store.load_game(f"{rig.table_id}.1") is None
        assert await store.ratings_of(users, "duel") == {}
        assert [await store.xp_of(user) for user in users] == [{}, {}]


# Abandoning --------------------------------------------------------------------------------


async def test_a_seat_still_covered_at_the_end_loses_the_rated_game_with_no_xp(store: Store) -> None:
    async with seated_table(store, DUEL, addresses(2)) as (rig, users):
        await Game(rig, {0}).play_to_the_end()
        assert rig.table.state.seats[1].played_by_bot
        found = await store.ratings_of(users, "duel")
        assert flat(held(found, users)) == pytest.approx(flat(expected(DUEL, [0, 1])))
        players = await store.game_players((await kept(rig)).game_id)
        assert [(p.won, p.abandoned, p.xp) for p in players] == [(True, False, 20), (False, True, 0)]
        assert await store.xp_of(users[1]) == {}
        assert found[users[1]].games == 1  # a game played, and lost


async def test_someone_back_before_the_end_has_not_abandoned(store: Store) -> None:
    async with seated_table(store, DUEL, addresses(2)) as (rig, users):
        game = Game(rig, {0}, back_when_covered=frozenset({1}))
        await game.play_to_the_end()
        assert 1 in game.present  # covered, then back
        (winner,) = winner_seats(rig)
        players = await store.game_players((await kept(rig)).game_id)
        assert [p.abandoned for p in players] == [False, False]
        assert [p.won for p in players] == [seat == winner for seat in range(2)]
        found = await store.ratings_of(users, "duel")
        ranks = [0 if seat == winner else 1 for seat in range(2)]
        assert flat(held(found, users)) == pytest.approx(flat(expected(DUEL, ranks)))


async def test_in_pairs_the_abandoner_is_rated_as_last_and_everybody_else_as_it_ended(store: Store) -> None:
    async with seated_table(store, PAIRS, addresses(4)) as (rig, users):
        await Game(rig, {0, 1, 3}).play_to_the_end()
        assert rig.table.state.seats[2].played_by_bot
        (won,) = rig.table.game.winners
        as_ended = expected(PAIRS, [0 if team == won else 1 for team in range(2)])
        as_last = expected(PAIRS, [1, 0])  # seat 2's team (0) last
        found = await store.ratings_of(users, "pairs")
        got = held(found, users)
        stayed = (0, 1, 3)
        assert flat([got[seat] for seat in stayed]) == pytest.approx(
            flat([as_ended[seat] for seat in stayed])
        )
        assert got[2] == pytest.approx(as_last[2])
        players = await store.game_players((await kept(rig)).game_id)
        assert [(p.won, p.abandoned) for p in players] == [
            (won == 0, False),
            (won == 1, False),
            (False, True),
            (won == 1, False),
        ]
        assert [p.xp for p in players] == [
            20 if won == 0 else 5,
            20 if won == 1 else 5,
            0,
            20 if won == 1 else 5,
        ]


# Restarts ----------------------------------------------------------------------------------


async def test_a_restart_mid_game_and_after_it_counts_the_game_once(store: Store) -> None:
    async with seated_table(store, DUEL, addresses(2)) as (rig, users):
        game = Game(rig, {0, 1})
        for seat in (0, 1):
            game.sockets[seat] = await rig.hello(seat)
        while rig.table.state.phase is not Phase.BETWEEN_ROUNDS:
            turn = rig.table.state.turn
            assert turn is not None
            await game.turn(turn.seat, turn.turn_id, turn.auto)
        await rig.restart()
        await game.play_to_the_end()
        once = {user: await store.xp_of(user) for user in users}
        ratings_once = await store.ratings_of(users, "duel")
        assert sorted(totals["all"] for totals in once.values()) == [5, 20]
        await rig.restart()
        assert {user: await store.xp_of(user) for user in users} == once
        assert await store.ratings_of(users, "duel") == ratings_once
        assert [r.games for r in ratings_once.values()] == [1, 1]


# What the table shows ----------------------------------------------------------------------


async def test_a_rating_event_when_a_player_sits_or_leaves_at_a_competitive_table(store: Store) -> None:
    users = await accounts(store, 2)
    async with TableRig.opened(PAIRS, TableKind.PUBLIC, store, competitive=True) as rig:
        watcher = await rig.hello(None)
        await sit(rig, users[0], 0, "10.0.0.1")
        await sit(rig, users[1], 2, "10.0.0.1")
        await rig.call(commands.Stand(users[1]))
        shown = [e["data"] for e in watcher.events if e["kind"] == "rating"]
        assert [(d["rated"], d["reason"]) for d in shown] == [
            (True, None),
            (False, "same_address"),
            (True, None),
        ]
        assert [[s is not None for s in d["seats"]] for d in shown] == [
            [True, False, False, False],
            [True, False, True, False],
            [True, False, False, False],
        ]
        assert shown[0]["seats"][0] == {"seat": 0, "rating": 450, "provisional": True}
        assert rig.table.snapshot(None)["rating"] == shown[-1]
        await rig.restart()
        assert rig.table.snapshot(None)["rating"] == shown[-1]
        assert (await rig.kinds()).count("rating") == 4  # at creation, then 3; a restart: none


async def test_a_casual_table_sends_no_rating_event(store: Store) -> None:
    users = await accounts(store, 2)
    async with TableRig.opened(DUEL, TableKind.PUBLIC, store) as rig:
        await sit(rig, users[0], 0, "10.0.0.1")
        await sit(rig, users[1], 1, "10.0.0.2")
        assert "rating" not in await rig.kinds()
        assert rig.table.snapshot(0)["rating"] == {
            "competitive": False,
            "rated": False,
            "reason": "casual",
            "chances": None,
            "seats": [None, None],
        }


async def test_a_practice_table_is_never_competitive(store: Store) -> None:
    async with TableRig.practice(DUEL, store=store, competitive=True) as rig:
        assert rig.table.options.competitive is False
        assert rig.table.snapshot(0)["rating"]["reason"] == "casual"


# The store ---------------------------------------------------------------------------------


async def test_saving_a_game_twice_counts_its_ratings_and_xp_once(store: Store) -> None:
    async with seated_table(store, DUEL, addresses(2)) as (rig, users):
        await Game(rig, {0, 1}).play_to_the_end()
        game = await kept(rig)
        players = await store.game_players(game.game_id)
        rows = await store.ratings_of(users, "duel")
        before = [await store.xp_of(user) for user in users]
        gained = [(period, p.user_id, p.xp) for p in players for period in before[0]]
        await store.save_game(game, players, list(rows.values()), gained)
        assert [await store.xp_of(user) for user in users] == before
        assert await store.ratings_of(users, "duel") == rows
        assert await store.ratings_of(users, "pairs") == {}
        assert await store.ratings_of([], "duel") == {}
