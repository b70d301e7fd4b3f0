"""A tournament's tables (`TableKind.TOURNAMENT` and its options): the time cap ends a game
after the hand in play with the side ahead winning; a person absent at the start is covered
after the grace and marked `no_show`; tables of the same shared deals deal the same hands
with the same starters, whose seeds no client gets before they are revealed; a chosen id is
created once; and `game_outcome` reads a finished game back from the store.

The real `Registry` and `Table` on a store, a `FakeClock` and bots that answer at once.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.server.support.inprocess import Socket, fixed_secret
from tranque.engine import Rules
from tranque.engine.game import Game
from tranque.engine.rules import NextStart, TieStart
from tranque.server.lobby.registry import Registry, TableExists
from tranque.server.store import MemoryStore, Store
from tranque.server.table import commands, views
from tranque.server.table.actor import Table, TableError
from tranque.server.table.bots import InlineBots
from tranque.server.table.clock import FakeClock
from tranque.server.table.log import record_withheld
from tranque.server.table.outcome import game_outcome
from tranque.server.table.seats import SeatState
from tranque.server.table.state import Phase

pytestmark = pytest.mark.anyio

DEFAULTS = {"bot_min_seconds": 0.0, "auto_move_seconds": 0.0, "between_rounds_seconds": 5.0}
TWO = Rules.preset("clasico", players=2, mode="individual", target=50)


async def registry_on(store: Store | None = None) -> tuple[Registry, FakeClock]:
    if store is None:
        store = MemoryStore()
        await store.start()
    clock = FakeClock()
    return Registry(store, clock, InlineBots(), dict(DEFAULTS)), clock


async def tournament_table(
    registry: Registry, rules: Rules, bots: str | None = "greedy", table_id: str | None = None, **options: Any
) -> Table:
    """A tournament's table: every seat a bot of `bots` (None: left empty), not started."""
    chosen = registry.options(kind="tournament", tournament="copa", tournament_round=1, **options)
    table = await registry.create(rules, chosen, table_id=table_id)
    if bots is not None:
        for seat in table.seats:
            await table.give_to_bot(seat, bots)
    return table


async def play_out(table: Table, clock: FakeClock, humans: tuple[int, ...] = ()) -> None:
    """People at `humans` play their first legal action; bots and the clock do the rest."""
    for _ in range(20_000):
        state = table.state
        if state.phase.is_over:
            return
        turn = state.turn
        if (
            turn is not None
            and state.phase is Phase.PLAYING
            and turn.seat in humans
            and not state.seats[turn.seat].played_by_bot
        ):
            action = state.playing_game().round.legal_actions()[0]
            await table.call(commands.Act(turn.seat, action.to_json(), turn.turn_id))
        else:
            clock.advance(1)
        await table.until_idle()
    raise AssertionError("the game never ended")


def phase_of(table: Table) -> Phase:
    """The table's phase, read afresh (mypy keeps an earlier narrowing across an await)."""
    return table.state.phase


def leaders(scores: list[int]) -> list[int]:
    return [team for team, total in enumerate(scores) if total == max(scores)]


def totals_after_each_hand(game: Game) -> list[list[int]]:
    totals, running = [], [0] * game.rules.team_count
    for result in game.results:
        running = [total + points for total, points in zip(running, result.points, strict=True)]
        totals.append(running)
    return totals


# The kind ---------------------------------------------------------------------------------


async def test_a_tournament_table_is_unlisted_watchable_and_its_seats_are_the_tournaments() -> None:
    registry, _ = await registry_on()
    table = await tournament_table(registry, TWO, bots=None)
    token = await table.take_seat(table.seats[0], "Ana", 1)
    assert registry.lobby() == []
    with pytest.raises(TableError) as sit:
        await table.call(commands.Sit(2, "Luis"))
    assert sit.value.code == "tournament_seats" and sit.value.message_en
    with pytest.raises(TableError) as stand:
        await table.call(commands.Stand(1))
    assert stand.value.code == "tournament_seats"
    spectator = Socket("spectator")
    assert await table.call(commands.Subscribe(spectator)) is None  # spectators welcome
    assert spectator.frames[0]["type"] == "sync"
    assert spectator.frames[0]["tournament"] == {"id": "copa", "round": 1}
    await table.give_to_bot(table.seats[1], "greedy")
    await table.start_game()
    await table.call(commands.Subscribe(Socket("ana"), token))
    assert table.state.seats[0].state is SeatState.PRESENT
    await registry.close()


async def test_a_finished_tournament_game_has_no_rematch_and_is_never_deserted() -> None:
    registry, clock = await registry_on()
    table = await tournament_table(registry, TWO, bots=None)
    await table.take_seat(table.seats[0], "Ana", 1)
    await table.give_to_bot(table.seats[1], "greedy")
    await table.start_game()
    clock.advance(3600)  # nobody follows the table for an hour: a tournament waits for its game
    await table.until_idle()
    assert table.state.phase.in_game
    await play_out(table, clock, humans=(0,))
    assert table.state.phase is Phase.FINISHED
    with pytest.raises(TableError) as rematch:
        await table.call(commands.Rematch(0))
    assert rematch.value.code == "rematch" and "torneo" in rematch.value.message
    await registry.close()


# The time cap -----------------------------------------------------------------------------


async def test_at_the_cap_the_hand_in_play_is_finished_and_the_side_ahead_wins() -> None:
    registry, clock = await registry_on()
    rules = Rules.preset("clasico", target=500)  # nobody reaches it: time decides
    table = await tournament_table(registry, rules, game_cap_seconds=20.0)
    watcher = Socket("watcher")
    await table.call(commands.Subscribe(watcher))
    await table.start_game()
    started = table.state.started_at
    assert started is not None
    await play_out(table, clock)
    kinds = watcher.kinds()
    assert kinds.count("time_called") == 1
    called = next(event for event in watcher.events if event["kind"] == "time_called")
    assert started + 20.0 <= called["at"] < started + 21.0
    assert called["data"]["message"].startswith("Se acabó el tiempo")
    assert called["data"]["message_en"].startswith("Time is up")
    game = table.state.playing_game()
    time_called = called["data"]["round"]
    assert game.time_called == time_called
    # Every hand after the one time was called in was played because the lead was shared.
    totals = totals_after_each_hand(game)
    for hand in range(time_called, len(totals) - 1):
        assert len(leaders(totals[hand])) > 1
    assert game.winners == leaders(game.scores) and len(game.winners) == 1
    ended = next(event for event in watcher.events if event["kind"] == "game_ended")
    assert ended["data"]["winners"] == game.winners
    outcome = await game_outcome(registry.store, table.table_id)
    assert outcome is not None and outcome.reason == "time" and list(outcome.winners) == game.winners
    await registry.close()


async def test_the_cap_survives_a_restart_and_calls_time_once() -> None:
    store = MemoryStore()
    await store.start()
    registry, clock = await registry_on(store)
    table = await tournament_table(registry, Rules.preset("clasico", target=500), game_cap_seconds=20.0)
    await table.start_game()
    await table.until_idle()
    await registry.close()  # the process stops before the cap
    again = Registry(store, clock, InlineBots(), dict(DEFAULTS))
    assert await again.recover() == 1
    back = again.get(table.table_id)
    await play_out(back, clock)
    kinds = [event.kind for event in await store.load_events(table.table_id)]
    assert kinds.count("time_called") == 1
    assert back.state.playing_game().ended_by is not None
    await again.close()


async def test_time_called_between_hands_decides_the_game_at_once() -> None:
    registry, clock = await registry_on()
    table = await tournament_table(registry, Rules.preset("clasico", target=500), game_cap_seconds=3600.0)
    await table.start_game()
    # The deal is random: a hand that ends level (a tranque tied on points) scores nothing,
    # so play on to the first pause between hands with one side ahead.
    for _ in range(20_000):
        game = table.state.playing_game()
        if table.state.phase is Phase.BETWEEN_ROUNDS and len(leaders(game.scores)) == 1:
            break
        clock.advance(1)
        await table.until_idle()
    game = table.state.playing_game()
    assert table.state.phase is Phase.BETWEEN_ROUNDS and len(leaders(game.scores)) == 1
    played = game.round_number + 1
    await table.call(commands.CallTime(table.state.game_number))
    await table.until_idle()
    assert phase_of(table) is Phase.FINISHED
    assert game.winners == leaders(game.scores) and game.round_number == played - 1  # no hand more
    await table.call(commands.CallTime(table.state.game_number))  # once over, nothing more
    outcome = await game_outcome(registry.store, table.table_id)
    assert outcome is not None and outcome.reason == "time" and len(outcome.hands) == played
    await registry.close()


# The grace for the absent -----------------------------------------------------------------


async def test_an_absent_seat_is_covered_after_the_grace_and_marked_no_show() -> None:
    registry, clock = await registry_on()
    table = await tournament_table(registry, TWO, bots=None, absent_grace_seconds=45.0)
    await table.take_seat(table.seats[0], "Ana", 1)  # never connects
    luis = await table.take_seat(table.seats[1], "Luis", 2)
    socket = Socket("luis")
    await table.call(commands.Subscribe(socket, luis))
    await table.start_game()
    await table.until_idle()
    while table.state.turn is not None and table.state.turn.seat == 1:  # Luis plays on meanwhile
        turn = table.state.turn
        action = table.state.playing_game().round.legal_actions()[0]
        await table.call(commands.Act(1, action.to_json(), turn.turn_id))
    clock.advance(44)
    await table.until_idle()
    assert 0 not in table.state.no_show  # not yet
    clock.advance(1)
    await table.until_idle()
    seats = table.state.seats
    assert seats[0].state is SeatState.COVERED and seats[1].state is SeatState.PRESENT
    marked = [event for event in socket.events if event["kind"] == "seat" and event["data"].get("no_show")]
    assert [event["data"]["seat"] for event in marked] == [0]
    assert marked[0]["data"]["state"] == "covered"
    assert await game_outcome(registry.store, table.table_id) is None  # not over yet
    # She may still come back and play on, as after R16.
    await table.call(commands.ReturnToSeat(0))
    assert table.state.seats[0].state is SeatState.PRESENT
    await play_out(table, clock, humans=(0, 1))
    outcome = await game_outcome(registry.store, table.table_id)
    assert outcome is not None
    assert [seat.no_show for seat in outcome.seats] == [True, False]
    assert [seat.user_id for seat in outcome.seats] == [1, 2]
    await registry.close()


async def test_a_person_present_within_the_grace_is_not_covered() -> None:
    registry, clock = await registry_on()
    table = await tournament_table(registry, TWO, bots=None, absent_grace_seconds=45.0)
    ana = await table.take_seat(table.seats[0], "Ana", 1)
    await table.take_seat(table.seats[1], "Luis", 2)
    await table.start_game()
    clock.advance(20)
    socket = Socket("ana")
    await table.call(commands.Subscribe(socket, ana))  # late, within the grace
    await table.call(commands.Unsubscribe(socket))  # and gone again
    clock.advance(30)
    await table.until_idle()
    assert table.state.no_show == {1}  # Luis never came
    assert table.state.seats[0].state is SeatState.AWAY
    await registry.close()


# Shared deals (duplicado) -----------------------------------------------------------------


class Deals:
    """The tournaments' hooks: every ref's deals from one fixed source; revealed on demand."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.revealed: set[str] = set()

    async def source(self, ref: str) -> Any:
        self.asked.append(ref)
        return fixed_secret(ref)

    async def is_revealed(self, ref: str) -> bool:
        return ref in self.revealed


def hooked(registry: Registry) -> Deals:
    deals = Deals()
    registry.deal_sources = deals.source
    registry.deals_revealed = deals.is_revealed
    return deals


async def dealt(registry: Registry, table: Table) -> list[tuple[int, int, list[list[str]]]]:
    """(round, starter, hands) of every deal in the table's log."""
    return [
        (event.data["round"], event.data["starter"], event.data["hands"])
        for event in await registry.store.load_events(table.table_id)
        if event.kind == "round_started"
    ]


@pytest.mark.parametrize("preset", ["internacional", "clasico", "salon"])
async def test_tables_of_the_same_deals_deal_the_same_hands_and_starters(preset: str) -> None:
    registry, clock = await registry_on()
    deals = hooked(registry)
    rules = Rules.preset(preset, hands=4)
    # Different bots play the same deals differently: the starters must not follow results.
    one = await tournament_table(registry, rules, bots="greedy", deals="copa:1")
    two = await tournament_table(registry, rules, bots="random", deals="copa:1")
    other = await tournament_table(registry, rules, bots="greedy", deals="copa:2")
    assert deals.asked == ["copa:1", "copa:1", "copa:2"]
    assert one.rules.next_round_start is NextStart.ROTATE_RIGHT
    assert one.rules.tie_next_start is TieStart.ROTATE_RIGHT
    for table in (one, two, other):
        await table.start_game()
        await play_out(table, clock)
    first, second = await dealt(registry, one), await dealt(registry, two)
    assert len(first) == len(second) == 4
    assert first == second
    assert one.state.first_starter == two.state.first_starter
    assert [hands for _, _, hands in await dealt(registry, other)] != [hands for _, _, hands in first]
    await registry.close()


async def test_a_restored_table_of_shared_deals_asks_its_source_again() -> None:
    store = MemoryStore()
    await store.start()
    registry, clock = await registry_on(store)
    hooked(registry)
    table = await tournament_table(registry, Rules.preset("clasico", hands=3), deals="copa:1")
    twin = await tournament_table(registry, Rules.preset("clasico", hands=3), deals="copa:1")
    await table.start_game()
    await twin.start_game()
    await table.until_idle()
    await registry.close()
    again = Registry(store, clock, InlineBots(), dict(DEFAULTS))
    deals = hooked(again)
    assert await again.recover() == 2
    assert deals.asked == ["copa:1", "copa:1"]
    for table_id in (table.table_id, twin.table_id):
        await play_out(again.get(table_id), clock)
    assert await dealt(again, again.get(table.table_id)) == await dealt(again, again.get(twin.table_id))
    await again.close()


async def test_a_table_of_shared_deals_needs_a_source() -> None:
    registry, _ = await registry_on()
    with pytest.raises(RuntimeError):
        await tournament_table(registry, TWO, deals="copa:1")
    assert registry.tables == {} and await registry.store.tables(("waiting",)) == []
    await registry.close()


async def test_seeds_are_withheld_from_every_frame_and_record_until_revealed() -> None:
    registry, clock = await registry_on()
    deals = hooked(registry)
    table = await tournament_table(registry, TWO, deals="copa:1")
    spectator = Socket("spectator")
    await table.call(commands.Subscribe(spectator))
    await table.start_game()
    await play_out(table, clock)
    logged = await registry.store.load_events(table.table_id)
    stored = [event for event in logged if event.kind == "round_ended"]
    seeds = [event.data["seed"] for event in stored] + [event.data["salt"] for event in stored]
    assert stored and all(seeds)  # the log keeps them
    late = Socket("late")
    await table.call(commands.Subscribe(late, last_seq=0))  # catches up from the log
    sync = Socket("sync")
    await table.call(commands.Subscribe(sync))
    for socket in (spectator, late, sync):
        sent = json.dumps(socket.frames)
        assert not any(seed in sent for seed in seeds)
    ended = [event["data"] for event in spectator.events if event["kind"] == "round_ended"]
    assert ended and all(data["seed"] is None and data["commitment"] for data in ended)
    assert await registry.hides_seeds(table.table_id)
    record = record_withheld(views.game_record(table))
    assert [data["commitment"] for data in record["rounds"]] == [event.data["commitment"] for event in stored]
    assert not any(seed in json.dumps(record) for seed in seeds)

    deals.revealed.add("copa:1")
    assert not await registry.hides_seeds(table.table_id)
    after = Socket("after")
    await table.call(commands.Subscribe(after, last_seq=0))
    shown = [event["data"] for event in after.events if event["kind"] == "round_ended"]
    assert [data["seed"] for data in shown] == [event.data["seed"] for event in stored]
    await registry.close()


# Chosen ids -------------------------------------------------------------------------------


async def test_creating_a_chosen_id_twice_raises_table_exists() -> None:
    store = MemoryStore()
    await store.start()
    registry, clock = await registry_on(store)
    table = await tournament_table(registry, TWO, table_id="copa-1-1")
    assert table.table_id == "copa-1-1"
    with pytest.raises(TableExists) as again:
        await tournament_table(registry, TWO, table_id="copa-1-1")
    assert again.value.table_id == "copa-1-1"
    other = Registry(store, clock, InlineBots(), dict(DEFAULTS))  # another process, same store
    with pytest.raises(TableExists):
        await other.create(TWO, other.options(kind="tournament"), table_id="copa-1-1")
    assert len(await store.load_events("copa-1-1")) == len(await store.load_events(table.table_id))
    await other.close()
    await registry.close()


# The outcome, on every backend ------------------------------------------------------------


async def test_game_outcome_reads_a_finished_game_back_from_the_store(store: Store) -> None:
    registry, clock = await registry_on(store)
    rules = Rules.preset("clasico", hands=3)
    table = await tournament_table(registry, rules, table_id="copa-2-1", game_cap_seconds=3600.0)
    assert await game_outcome(store, "copa-2-1") is None  # not started
    await table.start_game()
    await play_out(table, clock)
    outcome = await game_outcome(store, "copa-2-1")
    game = table.state.playing_game()
    assert outcome is not None and not outcome.annulled
    assert outcome.table_id == "copa-2-1" and outcome.reason == "hands"
    assert list(outcome.scores) == game.scores and list(outcome.winners) == game.winners
    assert outcome.target == rules.target
    assert len(outcome.hands) == 3
    assert [sum(hand[team] for hand in outcome.hands) for team in range(2)] == game.scores
    assert [(seat.seat, seat.team, seat.bot_level) for seat in outcome.seats] == [
        (0, 0, "greedy"),
        (1, 1, "greedy"),
        (2, 0, "greedy"),
        (3, 1, "greedy"),
    ]
    assert not any(seat.no_show or seat.abandoned for seat in outcome.seats)
    assert outcome.ended_at == (await store.load_events("copa-2-1"))[-1].at
    await registry.close()


async def test_game_outcome_of_an_annulled_game(store: Store) -> None:
    registry, _ = await registry_on(store)
    table = await tournament_table(registry, TWO, table_id="copa-3-1")
    await table.start_game()
    await table.call(commands.EndByOperator("stuck"))
    outcome = await game_outcome(store, "copa-3-1")
    assert outcome is not None and outcome.annulled and outcome.reason == "annulled" and outcome.winners == ()
    assert await game_outcome(store, "no-such-table") is None
    await registry.close()
