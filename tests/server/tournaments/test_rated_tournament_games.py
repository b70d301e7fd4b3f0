"""A rated tournament's games are rated games (docs/tournaments.md): played at competitive
tables, recorded by the recorder like any other (players/recorder.py), so a game between two
people moves their ratings in the duels' pool and earns them XP; an unrated tournament's
games move neither. (A game against a bot that filled a place is never rated, as anywhere on
the site: players/table_rating.py.)

Two accounts play a suizo of two duels through their tables (the first legal action each
turn), the director runs in-process on a `FakeClock` (test_director.py's `site`), and the
recorder catches up once the event is over.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.support.inprocess import Socket
from tests.server.tournaments.test_director import Site, site
from tranque.server.players.recorder import Recorder
from tranque.server.table.commands import Act, Subscribe
from tranque.server.table.state import Phase

pytestmark = pytest.mark.anyio

SUIZO: dict[str, Any] = {"format": "suizo", "entry": "duel", "size": 2, "rounds": 2, "target": 30}


async def play_out(here: Site, tournament_id: str, accounts: set[int], address: str | None = None) -> int:
    """Follow and play the seats of `accounts` at their tables until the event is over, from
    `address` if given (each seat's socket); the number of tables they played at."""
    followed: dict[tuple[str, int], int] = {}
    for _ in range(20_000):
        await here.settle()
        if await here.status(tournament_id) == "finished":
            return len({table_id for table_id, _ in followed})
        for table in list(here.registry.tables.values()):
            if table.options.tournament != tournament_id:
                continue
            for seat in [seat.index for seat in table.seats if seat.user_id in accounts]:
                if (table.table_id, seat) not in followed:
                    token = table.account_tokens[seat]
                    await table.call(Subscribe(Socket(f"seat {seat}"), token, None, address=address))
                    followed[table.table_id, seat] = seat
                state = table.state
                turn = state.turn
                if state.phase is Phase.PLAYING and turn is not None and turn.seat == seat:
                    action = state.playing_game().round.legal_actions()[0]
                    await table.call(Act(seat, action.to_json(), turn.turn_id))
        here.clock.advance(1.0)
    raise AssertionError("the tournament did not finish")


@pytest.mark.parametrize("rated", [True, False])
async def test_a_rated_tournaments_games_move_the_players_rating_and_earn_xp(rated: bool) -> None:
    async with site() as here:
        now = here.clock.now()
        ana = (await here.store.create_user("ana", "not a hash", now)).user_id
        beto = (await here.store.create_user("beto", "not a hash", now)).user_id
        tid = await here.create({**SUIZO, "rated": rated, "starts_at": now + 5}, accounts=(ana, beto))
        played = await play_out(here, tid, {ana, beto})
        assert played == 2  # one game a round, against each other
        # Every game was played at a competitive table only if the event is rated.
        tournament = await here.doc(tid)
        tables = [game.table_id for plan in tournament.rounds for game in plan.games]
        for table_id in tables:
            row = await here.store.table(table_id)
            assert row is not None and row.config["options"]["competitive"] is rated
        recorded = await Recorder(here.store).catch_up()
        assert recorded == len(tables)
        ratings = await here.store.ratings_of([ana, beto], "duel")
        xp = [(await here.store.xp_of(account)).get("all", 0) for account in (ana, beto)]
        if rated:
            assert [ratings[account].games for account in (ana, beto)] == [2, 2]
            assert sum(xp) == 2 * (20 + 5)  # each game: the winner's 20, the loser's 5
        else:
            assert ratings == {}
            assert xp == [0, 0]


async def test_two_entrants_playing_from_one_address_are_not_rated() -> None:
    """The same-address rule holds at a rated tournament's tables as anywhere: two people whose
    seats are followed from one address play, and neither their ratings nor their XP move."""
    async with site() as here:
        now = here.clock.now()
        ana = (await here.store.create_user("ana", "not a hash", now)).user_id
        beto = (await here.store.create_user("beto", "not a hash", now)).user_id
        tid = await here.create({**SUIZO, "rated": True, "starts_at": now + 5}, accounts=(ana, beto))
        assert await play_out(here, tid, {ana, beto}, address="198.51.100.7") == 2
        assert await Recorder(here.store).catch_up() == 2
        tournament = await here.doc(tid)
        for plan in tournament.rounds:
            for game in plan.games:
                row = await here.store.load_game(f"{game.table_id}.1")
                assert row is not None and row.competitive and not row.rated
                assert row.unrated_reason == "same_address_in_play"
        assert await here.store.ratings_of([ana, beto], "duel") == {}
        assert [(await here.store.xp_of(account)).get("all", 0) for account in (ana, beto)] == [0, 0]
