"""A game that ended a moment ago is still there for its players (registry.py): a process
that does not hold it (restarted as the game ended) rebuilds it from its log when they come
back, shows them the end and lets them ask for a rematch, until it would have been retired;
after that it is gone (`no_such_table`), as on the process that played it.

The same on a cluster's process whose owner died as the game ended is in
test_cluster_inprocess.py.
"""

from __future__ import annotations

import pytest

from tests.server.support.inprocess import Socket
from tranque.engine import Rules
from tranque.server.lobby.registry import RETIRE_AFTER_SECONDS, Registry
from tranque.server.store import MemoryStore
from tranque.server.table import commands
from tranque.server.table.actor import Table, TableError
from tranque.server.table.bots import InlineBots
from tranque.server.table.clock import FakeClock
from tranque.server.table.state import Phase

pytestmark = pytest.mark.anyio

DEFAULTS = {"bot_min_seconds": 0.0, "auto_move_seconds": 0.0, "between_rounds_seconds": 5.0}
TWO = Rules.preset("clasico", players=2, mode="individual")


async def play_to_the_end(table: Table, clock: FakeClock) -> None:
    """The guest plays its first legal action, bots and clocks do the rest."""
    for _ in range(5000):
        state = table.state
        if state.phase.is_over:
            return
        turn = state.turn
        if turn is not None and turn.seat == 0 and state.phase is Phase.PLAYING:
            action = state.playing_game().round.legal_actions()[0]
            await table.call(commands.Act(0, action.to_json(), turn.turn_id))
        else:
            clock.advance(6)  # a bot's moment, the pause between rounds
        await table.until_idle()
    raise AssertionError("the game never ended")


async def test_a_game_ended_before_a_restart_is_shown_from_its_log_then_retired() -> None:
    store, clock = MemoryStore(), FakeClock()
    await store.start()
    first = Registry(store, clock, InlineBots(), dict(DEFAULTS))
    table, token = await first.practice(TWO, "Ana", "greedy")
    await play_to_the_end(table, clock)
    ended_seq, final = table.seq, table.state
    await first.close()  # the process stops as the game ends; its player saw up to `seen`
    seen = ended_seq - 3
    clock.advance(RETIRE_AFTER_SECONDS / 2)

    again = Registry(store, clock, InlineBots(), dict(DEFAULTS))
    assert await again.recover() == 0  # only open games are rebuilt at the start
    back = await again.find(table.table_id)
    assert back.state == final and back.state.phase is Phase.FINISHED
    socket = Socket("seat 0 after the restart")
    assert await back.call(commands.Subscribe(socket, token, seen)) == 0
    # What it missed, each once and in order, up to the end; the result is there.
    assert [frame["seq"] for frame in socket.events] == list(range(seen + 1, ended_seq + 1))
    assert socket.events[-1]["kind"] == "game_ended"
    # A stranger's token is refused there as anywhere.
    with pytest.raises(TableError) as refused:
        await back.call(commands.Subscribe(Socket("intruder"), "not-a-token"))
    assert refused.value.code == "bad_token"

    # It is retired when it would have been had the process kept it, not later.
    clock.advance(RETIRE_AFTER_SECONDS / 2 + 1)
    await back.until_idle()
    with pytest.raises(TableError) as gone:
        await again.find(table.table_id)
    assert gone.value.code == "no_such_table"
    await again.close()

    # A process started after that does not bring it back.
    late = Registry(store, clock, InlineBots(), dict(DEFAULTS))
    with pytest.raises(TableError) as still_gone:
        await late.find(table.table_id)
    assert still_gone.value.code == "no_such_table"
    assert late.tables == {}
    await late.close()
    await store.close()


async def test_a_rematch_is_played_on_a_game_rebuilt_after_its_end() -> None:
    store, clock = MemoryStore(), FakeClock()
    await store.start()
    first = Registry(store, clock, InlineBots(), dict(DEFAULTS))
    table, token = await first.practice(TWO, "Ana", "greedy")
    await play_to_the_end(table, clock)
    await first.close()

    again = Registry(store, clock, InlineBots(), dict(DEFAULTS))
    back = await again.find(table.table_id)
    await back.call(commands.Subscribe(Socket("seat 0"), token))
    await back.call(commands.Rematch(0))
    await back.until_idle()
    assert back.state.phase is Phase.PLAYING
    assert back.state.game_number == table.state.game_number + 1
    # Still there past the first game's retirement: the new game is being played.
    clock.advance(RETIRE_AFTER_SECONDS + 1)
    assert await again.find(table.table_id) is back
    await again.close()
    await store.close()
