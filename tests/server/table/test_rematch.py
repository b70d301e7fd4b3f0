"""A rematch (docs/protocol.md, «Between rounds and the end of a game»): after a finished game
every person at the table agrees with `rematch`, and the same table plays a new game, same
seats, rules and tokens, the scores from zero. It is events in the table's log like any other:
the log replays to the same state, and a restart in the middle of either game goes on.

In-process on the table's actor (`TableRig`), and once over a real WebSocket."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from tests.server.support.harness import LiveServer
from tests.server.support.inprocess import TableRig
from tests.server.support.scenario_helpers import Client
from tests.server.support.scripted import (
    ScriptedClient,
    game_settings,
    seat_table,
    start_table,
    stored_events,
)
from tranque.engine import Rules
from tranque.server.store import Store
from tranque.server.table.commands import Act, Rematch, Vote
from tranque.server.table.events import GameStarted
from tranque.server.table.log import from_stored
from tranque.server.table.state import Phase, TableError, TableKind, TableState, TransitionError

pytestmark = pytest.mark.anyio

SHORT = Rules.preset("clasico", players=2, mode="individual", target=10)
PAIRS = Rules.preset("clasico", players=4, mode="pairs", target=10)


async def play_to_the_end(rig: TableRig) -> None:
    """People play their first legal action; bots, clocks and pauses do the rest."""
    for _ in range(5000):
        state = rig.table.state
        if state.phase.is_over:
            return
        turn = state.turn
        if state.phase is Phase.BETWEEN_ROUNDS:
            await rig.advance(8)
        elif turn is not None and not state.seats[turn.seat].played_by_bot:
            (first, *_) = state.playing_game().round.legal_actions()
            await rig.call(Act(turn.seat, first.to_json(), turn.turn_id))
        else:
            await rig.advance(1)
    raise AssertionError("the game did not end")


async def refused(rig: TableRig, command: Any, key: str) -> None:
    before, facts = await rig.log(), rig.table.state.facts()
    with pytest.raises(TableError) as refusal:
        await rig.call(command)
    assert (refusal.value.key, refusal.value.code) == (key, "rematch")
    assert await rig.log() == before
    assert rig.table.state.facts() == facts


async def test_alone_against_bots_one_rematch_starts_a_new_game_at_the_same_table() -> None:
    async with TableRig.practice(SHORT) as rig:
        guest = await rig.hello(0)
        await refused(rig, Rematch(0), "rematch.not_over")
        await play_to_the_end(rig)
        assert rig.table.state.phase is Phase.FINISHED
        first_scores = rig.table.state.playing_game().scores
        assert max(first_scores) >= SHORT.target
        assert guest.frames[-1]["kind"] == "game_ended"
        ended_at = rig.table.seq

        await rig.call(Rematch(0))
        kinds = await rig.kinds(after=ended_at)
        assert kinds[:2] == ["rematch_vote", "game_started"]
        assert "round_started" in kinds
        frames = guest.events[-len(kinds) :]
        assert frames[0]["data"] == {"seat": 0, "agreed": [0], "needed": [0]}
        assert frames[1]["data"]["game"] == 2
        dealt = next(frame for frame in frames if frame["kind"] == "round_started")
        data = dealt["data"]
        assert (data["round"], data["scores"], data["goals"]) == (0, [0, 0], [0, 0])
        state = rig.table.state
        assert (state.phase, state.game_number, state.playing_game().scores) == (Phase.PLAYING, 2, [0, 0])
        assert [seat.kind for seat in state.seats] == ["human", "bot"]

        # The same seat token opens the seat, and the sync tells the game's number.
        again = await rig.hello(0)
        sync = again.frames[0]
        assert (sync["game"], sync["phase"], sync["scores"], sync["rematch"]) == (2, "playing", [0, 0], None)
        assert await rig.replayed() == rig.table.state

        await play_to_the_end(rig)
        assert rig.table.state.game_number == 2
        assert await rig.replayed() == rig.table.state
        record = await rig.store.load_record(rig.table_id)
        assert record is not None and record["scores"] == rig.table.state.playing_game().scores


async def test_every_person_must_agree_and_a_second_vote_changes_nothing() -> None:
    async with TableRig.practice(PAIRS, humans=(0, 2)) as rig:
        first, second = await rig.hello(0), await rig.hello(2)
        await play_to_the_end(rig)
        await refused(rig, Rematch(None), "rematch.not_seated")
        await refused(rig, Rematch(1), "rematch.not_seated")  # a bot's seat

        await rig.call(Rematch(2))
        assert rig.phase() is Phase.FINISHED
        vote = first.events[-1]
        assert (vote["kind"], vote["data"]) == ("rematch_vote", {"seat": 2, "agreed": [2], "needed": [0, 2]})
        seq = rig.table.seq
        await rig.call(Rematch(2))
        assert rig.table.seq == seq
        assert (await rig.hello(0)).frames[0]["rematch"] == {"agreed": [2], "needed": [0, 2]}

        await rig.call(Rematch(0))
        assert rig.table.state.game_number == 2
        assert rig.phase() is Phase.PLAYING
        for socket in (first, second):  # they joined after the first game had started
            started = [e for e in socket.events if e["kind"] == "game_started"]
            assert [e["data"]["game"] for e in started] == [2]
        logged = [e.data.get("game", 1) for e in await rig.log() if e.kind == "game_started"]
        assert logged == [1, 2]
        assert await rig.replayed() == rig.table.state


async def test_an_annulled_game_has_no_rematch() -> None:
    async with TableRig.practice(SHORT) as rig:
        await rig.hello(0)
        await rig.call(Vote(0, True))
        assert rig.table.state.phase is Phase.ANNULLED
        await refused(rig, Rematch(0), "rematch.annulled")


async def test_a_restart_between_the_games_and_during_the_second_goes_on(store: Store) -> None:
    """On every store: the log of two games replays, whenever the actor dies."""
    async with TableRig.practice(SHORT, humans=(0,), store=store) as rig:
        await rig.hello(0)
        await play_to_the_end(rig)
        await rig.restart()  # a finished table is not resumed by a registry, but its log replays
        assert rig.table.state.phase is Phase.FINISHED
        await rig.hello(0)
        await rig.call(Rematch(0))
        await rig.advance(1)
        await rig.restart()
        state = rig.table.state
        assert (state.phase, state.game_number) == (Phase.PLAYING, 2)
        assert state.turn is not None
        await rig.hello(0)
        await play_to_the_end(rig)
        assert rig.table.state.game_number == 2
        assert await rig.replayed() == rig.table.state


async def test_a_logged_game_started_after_a_finished_game_needs_everybodys_agreement() -> None:
    """The one interpreter refuses a log whose rematch nobody agreed to."""
    async with TableRig.practice(SHORT) as rig:
        await play_to_the_end(rig)
        log = await rig.log()
    state = TableState(SHORT)
    for stored in log:
        state.apply(from_stored(stored), stored.seq)
    with pytest.raises(TransitionError):
        state.apply(GameStarted(None, 2), state.seq + 1)
    with pytest.raises(TransitionError):
        fresh = TableState(SHORT)
        for stored in log:
            fresh.apply(from_stored(stored), stored.seq)
        fresh.rematch.add(0)
        fresh.apply(GameStarted(None, 3), fresh.seq + 1)  # not the next number


def test_over_a_real_websocket_a_rematch_plays_a_second_game_to_its_end() -> None:
    with LiveServer(game_settings()) as server:
        table_id, tokens = seat_table(server, SHORT, [0], kind=TableKind.PRACTICE)

        async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
            player = ScriptedClient(server, table_id, tokens[0], rng=random.Random(3))
            await player.player.connect()
            await player.join()
            await start_table(server, table_id)
            first = await player.play()
            await player.player.close()
            async with Client(server) as back:
                await back.hello(table_id, tokens[0])
                await back.ok({"type": "rematch"})
                started = await back.until("game_started")
                dealt = await back.until("round_started")
                assert (started["data"]["game"], dealt["data"]["scores"]) == (2, [0, 0])
            again = ScriptedClient(server, table_id, tokens[0], rng=random.Random(4))
            await again.player.connect()
            try:
                second = await again.play()
            finally:
                await again.player.close()
            return first, second

        first, second = asyncio.run(scenario())
        assert first["reason"] == second["reason"] == "target"
        kinds = [event.kind for event in stored_events(server, table_id)]
        assert kinds.count("game_ended") == 2 and kinds.count("game_started") == 2
        assert kinds.index("rematch_vote") == kinds.index("game_ended") + 1
