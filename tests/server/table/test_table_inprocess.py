"""The table actor in-process: every phase and seat transition, the refused ones, the ones a
table makes by itself, repeated commands that change nothing, and what each viewer is sent.

No uvicorn and no sockets: the real `Table` on a `MemoryStore`, a `FakeClock` and bots that
answer at once (`tests/server/support/inprocess.py`). After each scenario the state rebuilt from
the stored log must equal the live one.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from tests.server.support.inprocess import Socket, TableRig, play_until
from tranque.engine import Draw, Pass, Rules, Tile
from tranque.server.lobby.restore import replay_log
from tranque.server.store import MemoryStore, Store, StoredEvent
from tranque.server.table.actor import Table
from tranque.server.table.bots import InlineBots
from tranque.server.table.clock import FakeClock
from tranque.server.table.commands import (
    Act,
    AutoMove,
    BotMove,
    FillWithBots,
    FromSocket,
    NextRound,
    Phrase,
    Ready,
    ReturnToSeat,
    Sit,
    Stand,
    Subscribe,
    Timeout,
    Vote,
)
from tranque.server.table.events import (
    EVENT_TYPES,
    ActionTaken,
    GameStarted,
    Mover,
    ReadyGiven,
    RoundStarted,
    SeatChanged,
    TableCreated,
    TurnStarted,
)
from tranque.server.table.log import from_stored, visible
from tranque.server.table.seats import Seat, SeatKind, SeatState, SeatTransitionError
from tranque.server.table.state import (
    Phase,
    TableError,
    TableKind,
    TableOptions,
    TableState,
    TransitionError,
)

pytestmark = pytest.mark.anyio

TWO = Rules.preset("clasico", players=2, mode="individual")
SHORT = Rules.preset("clasico", players=2, mode="individual", target=10)
PAIRS = Rules.preset("clasico", players=4, mode="pairs")
TURN = TWO.turn_seconds
BETWEEN = 8.0
HOST = 7


# Driving the game ------------------------------------------------------------------------


async def act_first(rig: TableRig, seat: int) -> Any:
    """Seat `seat` plays its first legal action on its turn."""
    state = rig.table.state
    assert state.turn is not None and state.game is not None
    action = state.game.round.legal_actions()[0]
    return await rig.call(Act(seat, action.to_json(), state.turn.turn_id))


def seat_0_to_act(state: TableState) -> bool:
    return state.turn is not None and state.turn.seat == 0


async def time_out_until_covered(rig: TableRig) -> None:
    """Seat 0's turns run out until a bot covers it (R16)."""
    while rig.table.state.seats[0].state is not SeatState.COVERED:
        await play_until(rig, seat_0_to_act, humans=())
        await time_out(rig)


async def time_out(rig: TableRig) -> None:
    """The turn in play runs out."""
    turn = rig.table.state.turn
    assert turn is not None
    await rig.advance(turn.deadline - rig.clock.now())


async def refused(rig: TableRig, command: Any, code: str) -> None:
    """`command` is refused with `code`, and neither the log nor the state changes."""
    before, state = await rig.log(), rig.table.state.facts()
    with pytest.raises(TableError) as refusal:
        await rig.call(command)
    assert refusal.value.code == code
    assert await rig.log() == before
    assert rig.table.state.facts() == state


async def assert_replays(rig: TableRig) -> None:
    assert await rig.replayed() == rig.table.state


async def statuses(rig: TableRig) -> list[str]:
    rows = await rig.store.tables(("waiting", "playing", "finished", "annulled"))
    return [row.status for row in rows]


# The table's phases ----------------------------------------------------------------------


class TestPhases:
    async def test_a_table_waits_for_every_seat_then_the_game_starts_by_itself(self) -> None:
        async with TableRig.opened(TWO) as rig:
            assert await statuses(rig) == ["waiting"]
            first = await rig.call(Sit(1, "ana"))
            assert rig.phase() is Phase.WAITING and first["seat"] == 0
            await rig.call(Sit(2, "beto"))
            assert rig.phase() is Phase.PLAYING
            assert await rig.kinds() == [
                "table_created",
                "seat",
                "seat",
                "seat",
                "seat",
                "game_started",
                "round_started",
                "turn",
            ]
            assert await statuses(rig) == ["playing"]
            await assert_replays(rig)

    async def test_the_host_fills_the_empty_seats_with_bots_and_the_game_starts(self) -> None:
        async with TableRig.opened(PAIRS, host_user_id=HOST) as rig:
            await rig.call(Sit(HOST, "ana"))
            await refused(rig, FillWithBots(HOST + 1, "greedy"), "not_host")
            await refused(rig, FillWithBots(HOST, "zzz"), "unknown_bot")
            await rig.call(FillWithBots(HOST, "greedy"))
            state = rig.table.state
            assert state.phase is Phase.PLAYING
            assert [seat.kind for seat in state.seats] == [SeatKind.HUMAN, *[SeatKind.BOT] * 3]
            await refused(rig, FillWithBots(HOST, "greedy"), "started")
            await refused(rig, Sit(HOST + 1, "beto"), "started")
            await refused(rig, Stand(HOST), "started")
            await assert_replays(rig)

    async def test_a_round_ends_between_rounds_and_the_pause_deals_the_next(self) -> None:
        async with TableRig.practice(TWO) as rig:
            await play_until(rig, lambda state: state.phase is Phase.BETWEEN_ROUNDS)
            state = rig.table.state
            assert state.turn is None and (await rig.kinds())[-1] == "round_ended"
            await refused(rig, Act(0, {"type": "pass"}), "not_playing")
            await rig.advance(BETWEEN - 1)
            assert rig.phase() is Phase.BETWEEN_ROUNDS
            await rig.advance(1)
            assert rig.phase() is Phase.PLAYING
            assert rig.table.state.playing_game().round_number == 1
            await assert_replays(rig)

    async def test_when_every_human_is_ready_the_next_round_is_dealt_at_once(self) -> None:
        async with TableRig.practice(PAIRS, humans=(0, 1)) as rig:
            await play_until(rig, lambda state: state.phase is Phase.BETWEEN_ROUNDS, humans=(0, 1))
            await rig.call(Ready(0))
            await rig.call(Ready(0))  # a second «listo» changes nothing
            assert rig.phase() is Phase.BETWEEN_ROUNDS
            assert (await rig.kinds())[-2:] == ["round_ended", "ready"]
            seq = rig.table.seq
            await rig.call(Ready(1))
            assert rig.phase() is Phase.PLAYING
            assert (await rig.kinds(seq))[:3] == ["ready", "round_started", "turn"]
            await refused(rig, Ready(0), "not_between_rounds")
            await assert_replays(rig)

    async def test_the_game_finishes_at_the_target_stores_its_record_and_stops_its_clocks(self) -> None:
        async with TableRig.practice(SHORT) as rig:
            await play_until(rig, lambda state: state.phase.is_over)
            state = rig.table.state
            assert state.phase is Phase.FINISHED
            ended = from_stored((await rig.log())[-1])
            assert ended.kind == "game_ended" and ended.to_data()["reason"] == "target"
            assert await statuses(rig) == ["finished"]
            record = await rig.store.load_record(rig.table_id)
            assert record is not None and record["winners"] == state.playing_game().winners
            seq, asked = rig.table.seq, rig.bots.asked
            await rig.advance(3600)
            assert (rig.table.seq, rig.bots.asked) == (seq, asked)
            await assert_replays(rig)

    async def test_every_human_agreeing_annuls_a_game_and_a_no_clears_the_votes(self) -> None:
        async with TableRig.practice(PAIRS, humans=(0, 2)) as rig:
            await rig.call(Vote(0, True))
            await rig.call(Vote(2, False))
            assert rig.table.state.votes == set()
            await refused(rig, Vote(1, True), "bots_do_not_vote")
            await refused(rig, Vote(None, True), "spectator")
            await rig.call(Vote(0, True))
            await rig.call(Vote(2, True))
            assert rig.table.state.phase is Phase.ANNULLED
            assert (await rig.kinds())[-5:] == ["vote", "vote", "vote", "annulled", "game_ended"]
            assert await statuses(rig) == ["annulled"]
            await refused(rig, Vote(0, True), "not_playing")
            await assert_replays(rig)

    async def test_a_vote_annuls_a_game_between_rounds_too(self) -> None:
        async with TableRig.practice(TWO) as rig:
            await play_until(rig, lambda state: state.phase is Phase.BETWEEN_ROUNDS)
            await rig.call(Vote(0, True))
            assert rig.table.state.phase is Phase.ANNULLED
            await rig.advance(BETWEEN)  # the pause's timer is gone with the game
            assert rig.table.state.phase is Phase.ANNULLED
            await assert_replays(rig)

    async def test_a_vote_before_the_game_starts_is_refused(self) -> None:
        async with TableRig.opened(TWO) as rig:
            await rig.call(Sit(1, "ana"))
            await refused(rig, Vote(0, True), "not_playing")


# Tables that end by themselves -------------------------------------------------------------


class TestDesertedTables:
    async def test_a_waiting_table_nobody_follows_expires(self) -> None:
        async with TableRig.opened(TWO, idle_waiting_seconds=600) as rig:
            await rig.call(Sit(1, "ana"))  # a seat taken, but nobody at the table
            await rig.advance(599)
            assert rig.phase() is Phase.WAITING
            await rig.advance(1)
            assert rig.phase() is Phase.ANNULLED
            assert (await rig.kinds())[-1] == "game_ended"
            assert await statuses(rig) == ["annulled"]
            await assert_replays(rig)

    async def test_a_waiting_table_someone_follows_waits_until_they_leave(self) -> None:
        async with TableRig.opened(TWO, idle_waiting_seconds=600) as rig:
            watcher = await rig.hello(None)
            await rig.advance(6000)
            assert rig.phase() is Phase.WAITING
            await rig.leave(watcher)
            await rig.advance(600)
            assert rig.phase() is Phase.ANNULLED
            assert watcher.kinds() == []  # it had gone: nothing more reached it

    async def test_a_practice_game_every_human_left_is_annulled_and_its_bots_stop(self) -> None:
        async with TableRig.practice(TWO, deserted_game_seconds=300) as rig:
            guest = await rig.hello(0)
            await rig.leave(guest)
            await rig.advance(299)
            assert rig.table.state.phase.in_game
            await rig.advance(1)
            assert rig.table.state.phase is Phase.ANNULLED
            assert await statuses(rig) == ["annulled"]
            seq, asked = rig.table.seq, rig.bots.asked
            await rig.advance(3600)
            assert (rig.table.seq, rig.bots.asked) == (seq, asked)
            await assert_replays(rig)

    async def test_a_human_back_in_time_keeps_the_game_going(self) -> None:
        async with TableRig.practice(TWO, deserted_game_seconds=300) as rig:
            guest = await rig.hello(0)
            await rig.leave(guest)
            await rig.advance(200)
            await rig.hello(0)
            await rig.advance(250)
            assert "game_ended" not in await rig.kinds()

    async def test_a_public_game_is_never_annulled_for_being_left(self) -> None:
        async with TableRig.opened(TWO, host_user_id=HOST, deserted_game_seconds=300) as rig:
            await rig.call(Sit(HOST, "ana"))
            await rig.call(FillWithBots(HOST, "greedy"))
            await rig.advance(3000)
            assert "annulled" not in [
                event.to_data().get("reason") for event in map(from_stored, await rig.log())
            ]

    async def test_after_a_restart_a_deserted_practice_game_still_ends(self) -> None:
        async with TableRig.practice(TWO, deserted_game_seconds=300) as rig:
            await rig.hello(0)
            await rig.restart()
            await rig.advance(300)
            assert rig.table.state.phase is Phase.ANNULLED


# A human's seat --------------------------------------------------------------------------


class TestSeats:
    async def test_a_seat_is_present_while_any_connection_follows_it(self) -> None:
        async with TableRig.practice(TWO) as rig:
            assert rig.seat_state(0) is SeatState.AWAY
            first = await rig.hello(0)
            assert rig.seat_state(0) is SeatState.PRESENT
            second = await rig.hello(0)
            await rig.leave(first)
            assert rig.seat_state(0) is SeatState.PRESENT
            await rig.leave(second)
            assert rig.seat_state(0) is SeatState.AWAY
            seat_states = [e["data"]["state"] for e in second.events if e["kind"] == "seat"]
            assert seat_states == []  # the second socket found the seat present and left it last
            assert [e["data"]["state"] for e in first.events if e["kind"] == "seat"] == ["present"]
            await assert_replays(rig)

    async def test_R16_three_timeouts_cover_the_seat_and_return_hands_it_back(self) -> None:
        async with TableRig.practice(TWO) as rig:
            guest = await rig.hello(0)
            await time_out_until_covered(rig)
            assert rig.table.state.seats[0].timeouts == 3
            await rig.call(ReturnToSeat(0))
            seat = rig.table.state.seats[0]
            assert (seat.state, seat.timeouts) == (SeatState.PRESENT, 0)
            await rig.call(ReturnToSeat(0))  # nothing left to give back
            assert [e["data"]["state"] for e in guest.events if e["kind"] == "seat"][-2:] == [
                "covered",
                "present",
            ]
            await assert_replays(rig)

    async def test_R16_return_after_three_timeouts_counts_from_zero_after_a_restart(self) -> None:
        """The drift this design removes: live, «Volver a mi puesto» restarts the count; a
        replay that did not know it kept 3, so after a restart one timeout brought the bot."""
        async with TableRig.practice(TWO) as rig:
            await rig.hello(0)
            await time_out_until_covered(rig)
            await rig.call(ReturnToSeat(0))
            assert (await rig.replayed()).seats[0].timeouts == 0
            await rig.restart()
            await play_until(rig, seat_0_to_act, humans=())
            await time_out(rig)
            seat = rig.table.state.seats[0]
            assert (seat.state, seat.timeouts) == (SeatState.AWAY, 1)
            await assert_replays(rig)

    async def test_R16_acting_on_its_turn_hands_a_covered_seat_back(self) -> None:
        async with TableRig.practice(TWO, bot_min_seconds=5.0) as rig:
            await rig.hello(0)
            await time_out_until_covered(rig)
            await play_until(rig, seat_0_to_act, humans=())
            await act_first(rig, 0)  # before the covering bot's moment is up
            seat = rig.table.state.seats[0]
            assert (seat.state, seat.timeouts) == (SeatState.PRESENT, 0)
            moves = [from_stored(e) for e in await rig.log() if e.kind in ("seat", "action")][-2:]
            assert isinstance(moves[0], SeatChanged) and isinstance(moves[1], ActionTaken)
            assert moves[1].by is Mover.HUMAN
            await assert_replays(rig)

    async def test_standing_empties_the_seat_and_its_sockets_see_no_more_of_it(self) -> None:
        async with TableRig.opened(TWO) as rig:
            seated = await rig.call(Sit(1, "ana", 0))
            socket = Socket("ana")
            socket.tokens[0] = seated["token"]
            await rig.hello(0, socket)
            await rig.call(Stand(1))
            assert rig.table.state.seats[0] == Seat(0)
            assert rig.table.subscribers[socket] is None
            await refused(rig, Stand(1), "not_seated")
            other = await rig.call(Sit(2, "beto", 0))
            await rig.call(Sit(3, "carla"))
            started = next(e for e in socket.events if e["kind"] == "round_started")
            assert started["data"]["hand"] is None
            with pytest.raises(TableError) as refusal:
                await rig.call(Subscribe(socket, seated["token"]))
            assert refusal.value.code == "bad_token"
            assert other["token"] != seated["token"]
            # The socket still believes it holds seat 0; the table knows better.
            await refused(rig, FromSocket(socket, Vote(0, True)), "not_your_seat")
            beto = Socket("beto")
            beto.tokens[0] = other["token"]
            await rig.hello(0, beto)
            await rig.call(FromSocket(beto, Vote(0, True)))
            assert rig.table.state.votes == {0}
            await assert_replays(rig)

    async def test_sitting_is_refused_where_the_seat_cannot_be_had(self) -> None:
        async with TableRig.opened(TWO) as rig:
            await rig.call(Sit(1, "ana", 0))
            await refused(rig, Sit(1, "ana"), "already_seated")
            await refused(rig, Sit(2, "beto", 0), "seat_taken")
            await refused(rig, Sit(2, "beto", 2), "no_such_seat")
            await rig.call(Sit(2, "beto"))
            await refused(rig, Sit(3, "carla"), "started")


class TestSeatLifecycle:
    """Each change is a method that refuses what the lifecycle does not allow."""

    HUMAN = Seat(0).seat_human("ana", 1, "hash")

    def test_the_allowed_changes(self) -> None:
        present = self.HUMAN.arrive()
        assert (self.HUMAN.state, present.state, present.leave().state) == (
            SeatState.AWAY,
            SeatState.PRESENT,
            SeatState.AWAY,
        )
        covered = present.timed_out().timed_out().cover()
        assert (covered.state, covered.timeouts) == (SeatState.COVERED, 2)
        assert covered.played_by_bot and not present.played_by_bot
        back = covered.come_back()
        assert (back.state, back.timeouts) == (SeatState.PRESENT, 0)
        assert present.vacate() == Seat(0)
        assert Seat(1).seat_bot("greedy").played_by_bot

    @pytest.mark.parametrize(
        "change",
        [
            lambda s: s.arrive().arrive(),
            lambda s: s.leave(),
            lambda s: s.cover().cover(),
            lambda s: s.come_back(),
            lambda s: s.cover().vacate(),
            lambda s: s.seat_human("beto", 2, "other"),
            lambda s: s.seat_bot("greedy"),
            lambda s: Seat(0).arrive(),
            lambda s: Seat(0).vacate(),
            lambda s: Seat(0).seat_bot("greedy").cover(),
        ],
    )
    def test_refused_changes(self, change: Any) -> None:
        with pytest.raises(SeatTransitionError):
            change(self.HUMAN)

    def test_a_stored_change_is_checked_the_same_way(self) -> None:
        assert self.HUMAN.transition_to(self.HUMAN.arrive()) == self.HUMAN.arrive()
        with pytest.raises(SeatTransitionError):
            self.HUMAN.cover().transition_to(self.HUMAN.leave())
        with pytest.raises(SeatTransitionError, match="changed hands"):
            self.HUMAN.transition_to(Seat(0).seat_human("beto", 2, "other").arrive())
        with pytest.raises(SeatTransitionError):
            Seat(0).seat_bot("greedy").transition_to(Seat(0))


class TestRefusedTransitions:
    """The fold refuses what the lifecycle does not allow, and changes nothing then."""

    @pytest.mark.parametrize(
        ("start", "to"),
        [
            (Phase.WAITING, Phase.BETWEEN_ROUNDS),
            (Phase.WAITING, Phase.FINISHED),
            (Phase.PLAYING, Phase.WAITING),
            (Phase.PLAYING, Phase.FINISHED),
            (Phase.BETWEEN_ROUNDS, Phase.WAITING),
            (Phase.FINISHED, Phase.BETWEEN_ROUNDS),  # back to PLAYING only by a rematch
            (Phase.ANNULLED, Phase.PLAYING),
            (Phase.FINISHED, Phase.ANNULLED),
        ],
    )
    def test_a_phase_change_the_lifecycle_does_not_allow(self, start: Phase, to: Phase) -> None:
        state = TableState(TWO)
        state.phase = start
        with pytest.raises(TransitionError):
            state.enter(to)
        assert state.phase is start

    async def test_events_out_of_place_are_refused_and_change_nothing(self) -> None:
        async with TableRig.practice(TWO) as rig:
            state = rig.table.state
            events = [from_stored(stored) for stored in await rig.log()]
            turn = state.turn
            assert turn is not None
            other = 1 - turn.seat
            wrong = [
                TableCreated(TWO.to_json(), TableKind.PRACTICE, "greedy"),
                GameStarted(None),
                replace(next(e for e in events if isinstance(e, RoundStarted)), round=1),
                TurnStarted(other, turn.turn_id + 1, 0.0, False),
                TurnStarted(turn.seat, turn.turn_id, 0.0, False),
                ReadyGiven(0),
                SeatChanged(Seat(0)),
                ActionTaken(other, state.playing_game().round.legal_actions()[0], None, Mover.BOT, None),
            ]
            before = state.facts()
            for event in wrong:
                with pytest.raises((TransitionError, SeatTransitionError)):
                    state.apply(event, state.seq + 1)
                assert state.facts() == before, event
            with pytest.raises(TransitionError):
                state.apply(ReadyGiven(0), state.seq + 2)  # a gap in the numbering

    async def test_an_action_before_the_game_is_refused_by_the_fold(self) -> None:
        async with TableRig.opened(TWO) as rig:
            state = rig.table.state
            with pytest.raises(TransitionError):
                state.apply(ActionTaken(0, Pass(), None, Mover.BOT, None), state.seq + 1)
            assert state.phase is Phase.WAITING


# Repeated commands change nothing --------------------------------------------------------


class TestRepeats:
    async def test_300_votes_store_one_event(self) -> None:
        async with TableRig.practice(PAIRS, humans=(0, 2)) as rig:
            seq = rig.table.seq
            for _ in range(300):
                await rig.call(Vote(0, True))
            for _ in range(300):
                await rig.call(Vote(2, False))  # the first clears, the rest have nothing to clear
            assert await rig.kinds(seq) == ["vote", "vote"]

    async def test_300_hellos_on_one_socket_store_one_event_and_each_gets_its_catch_up(self) -> None:
        async with TableRig.practice(TWO) as rig:
            socket = Socket()
            seq = rig.table.seq
            for _ in range(300):
                await rig.hello(0, socket)
            assert await rig.kinds(seq) == ["seat"]  # away → present, once
            assert sum(frame["type"] == "sync" for frame in socket.frames) == 300
            await rig.hello(0, socket, last_seq=rig.table.seq)
            assert await rig.kinds(seq) == ["seat"]

    async def test_a_sit_stand_cycle_stores_only_its_two_changes(self) -> None:
        async with TableRig.opened(TWO) as rig:
            socket = Socket()
            seq = rig.table.seq
            for _ in range(150):
                seated = await rig.call(Sit(1, "ana", 0))
                socket.tokens[0] = seated["token"]
                await rig.hello(0, socket)
                await rig.hello(0, socket)
                await rig.call(Stand(1))
            kinds = await rig.kinds(seq)
            assert len(kinds) == 150 * 3  # taken, present (once per sitting), empty
            states = [(e["data"]["kind"], e["data"]["state"]) for e in socket.events]
            assert states[:3] == [("human", "present"), ("empty", "away"), ("human", "away")]
            await assert_replays(rig)


# What each viewer is sent ----------------------------------------------------------------


class TestViewers:
    async def test_each_event_is_serialised_once_per_audience(self) -> None:
        async with TableRig.opened(TWO, host_user_id=HOST) as rig:
            seated = await rig.call(Sit(HOST, "ana", 0))
            mine = [Socket("ana 1"), Socket("ana 2")]
            for socket in mine:
                socket.tokens[0] = seated["token"]
                await rig.hello(0, socket)
            watchers = [await rig.hello(None) for _ in range(5)]
            texts = {id(s): len(s.texts) for s in [*mine, *watchers]}
            await rig.call(FillWithBots(HOST, "greedy"))

            def sent(socket: Socket, kind: str) -> list[str]:
                new = socket.texts[texts[id(socket)] :]
                return [text for text in new if f'"kind":"{kind}"' in text]

            (started_0,), (started_1,) = sent(mine[0], "round_started"), sent(mine[1], "round_started")
            assert started_0 is started_1
            spectators = [sent(w, "round_started")[0] for w in watchers]
            assert all(text is spectators[0] for text in spectators) and spectators[0] is not started_0
            turns = [sent(s, "turn")[0] for s in [*mine, *watchers]]
            assert all(text is turns[0] for text in turns)

    async def test_R17_a_draw_shows_its_tile_only_to_the_drawer(self) -> None:
        drawn = ActionTaken(1, Draw(), Tile(6, 5), Mover.BOT, (0, 1))
        assert drawn.project(1)["drawn"] == "6-5"
        assert "drawn" not in drawn.project(0) and "drawn" not in drawn.project(None)
        assert drawn.audience(0) == drawn.audience(None) != drawn.audience(1)

    async def test_R17_every_projection_of_a_whole_game_keeps_to_its_whitelist(self) -> None:
        async with TableRig.practice(SHORT, humans=(0,)) as rig:
            await rig.hello(0)
            await play_until(rig, lambda state: state.phase.is_over)
            for stored in await rig.log():
                event = from_stored(stored)
                assert event.to_data() == stored.data  # the stored form, exactly as stored
                for viewer in (0, 1, None):
                    shown = event.project(viewer)
                    assert set(shown) <= set(EVENT_TYPES[stored.kind].visible_keys)
                    assert (
                        not {"seed", "salt", "hands", "boneyard"} & set(shown) or stored.kind == "round_ended"
                    )
                    assert not {"user_id", "token_hash", "timeouts"} & set(shown)
                    if stored.kind == "round_started":
                        hand = stored.data["hands"][viewer] if viewer is not None else None
                        assert shown["hand"] == hand


# Storing a command's events ---------------------------------------------------------------


class BatchesStore(MemoryStore):
    """A `MemoryStore` that keeps each `append_events` call's seqs, and refuses the next
    batch once told to (the database gone, or another owner's event in the way)."""

    def __init__(self, refusal: Exception | None = None) -> None:
        super().__init__()
        self.batches: list[list[int]] = []
        self.refuse_next = False
        self.refusal = refusal or OSError("disk I/O error")

    async def append_events(
        self, table_id: str, events: Sequence[StoredEvent], epoch: int | None = None
    ) -> None:
        if self.refuse_next:
            self.refuse_next = False
            raise self.refusal
        self.batches.append([event.seq for event in events])
        await super().append_events(table_id, events, epoch)


class TestStoring:
    async def test_a_moves_events_are_stored_in_one_append_and_sent_after_it(self) -> None:
        store = BatchesStore()
        async with TableRig.practice(TWO, humans=(0, 1), store=store) as rig:
            turn = rig.table.state.turn
            assert turn is not None
            seat = turn.seat
            await rig.hello(seat)
            watcher = await rig.hello(1 - seat)
            store.batches.clear()
            before = len(watcher.events)
            await act_first(rig, seat)
            (batch,) = store.batches  # the action and the next turn: one wait for the store
            assert len(batch) >= 2 and batch == list(range(batch[0], batch[0] + len(batch)))
            sent = watcher.events[before:]
            assert [event["seq"] for event in sent] == batch
            assert [event["kind"] for event in sent] == ["action", "turn"]
            assert rig.table.sent_seq == rig.table.seq == batch[-1]
            await assert_replays(rig)

    async def test_a_refused_append_rebuilds_the_state_from_the_log_and_sends_nothing(self) -> None:
        store = BatchesStore(ValueError("a bug in the store"))
        async with TableRig.practice(TWO, humans=(0, 1), store=store) as rig:
            turn = rig.table.state.turn
            assert turn is not None
            await rig.hello(turn.seat)
            watcher = await rig.hello(1 - turn.seat)
            log, facts, sent = await rig.log(), rig.table.state.facts(), len(watcher.frames)
            store.refuse_next = True
            with pytest.raises(TableError) as failure:
                await act_first(rig, turn.seat)
            assert failure.value.code == "internal"
            assert await rig.log() == log
            assert rig.table.state.facts() == facts
            assert rig.table.sent_seq == rig.table.seq == log[-1].seq
            assert len(watcher.frames) == sent
            await assert_replays(rig)
            await act_first(rig, turn.seat)  # the same move, once the store takes it
            assert (await rig.log())[len(log)].kind == "action"
            await assert_replays(rig)

    async def test_an_append_refused_by_an_outage_waits_then_gives_a_full_new_turn(self) -> None:
        store = BatchesStore(OSError("disk I/O error"))
        async with TableRig.practice(TWO, humans=(0, 1), store=store) as rig:
            turn = rig.table.state.turn
            assert turn is not None
            mover = await rig.hello(turn.seat)
            log, sent = await rig.log(), len(mover.frames)
            store.refuse_next = True
            with pytest.raises(TableError) as failure:
                await act_first(rig, turn.seat)
            assert failure.value.code == "unavailable"
            assert rig.table.waiting and await rig.log() == log
            assert [frame["type"] for frame in mover.frames[sent:]] == ["paused"]
            await rig.advance(0.25)  # the actor's first look back at the store
            assert not rig.table.waiting
            logged = await rig.log()
            assert logged[: len(log)] == log
            new = logged[len(log) :]
            assert [event.kind for event in new] == ["turn"]
            assert new[0].data["seat"] == turn.seat and new[0].data["turn_id"] > turn.turn_id
            assert new[0].data["deadline"] - new[0].at == rig.rules.turn_seconds
            assert [frame["type"] for frame in mover.frames[sent:]][:2] == ["paused", "resumed"]
            await assert_replays(rig)
            await act_first(rig, turn.seat)  # the move, once the store takes it
            assert (await rig.log())[len(logged)].kind == "action"

    async def test_options_go_only_with_the_turn_still_in_play(self) -> None:
        async with TableRig.practice(TWO, humans=(0, 1)) as rig:
            sockets = {seat: await rig.hello(seat) for seat in (0, 1)}
            for _ in range(6):
                turn = rig.table.state.turn
                assert turn is not None
                before = {seat: len(socket.frames) for seat, socket in sockets.items()}
                await act_first(rig, turn.seat)
                now = rig.table.state.turn
                for seat, socket in sockets.items():
                    options = [f for f in socket.frames[before[seat] :] if f["type"] == "options"]
                    if now is not None and now.seat == seat:
                        assert [f["turn_id"] for f in options] == [now.turn_id]
                    else:
                        assert options == []


# Restarts --------------------------------------------------------------------------------


class TestRestart:
    async def test_a_restart_marks_people_away_and_gives_a_full_new_turn(self) -> None:
        async with TableRig.practice(TWO) as rig:
            await rig.hello(0)
            await rig.advance(10)
            before = rig.table.state.turn
            assert before is not None
            seq = rig.table.seq
            await rig.restart()
            assert await rig.kinds(seq) == ["seat", "turn"]
            turn = rig.table.state.turn
            assert turn is not None
            assert (turn.seat, turn.turn_id) == (before.seat, before.turn_id + 1)
            assert turn.deadline == rig.clock.now() + TURN > before.deadline
            assert rig.table.state.seats[0].state is SeatState.AWAY
            await assert_replays(rig)

    async def test_a_restart_between_rounds_keeps_the_pause_and_deals_after_it(self) -> None:
        async with TableRig.practice(TWO) as rig:
            await play_until(rig, lambda state: state.phase is Phase.BETWEEN_ROUNDS)
            await rig.restart()
            assert rig.table.state.phase is Phase.BETWEEN_ROUNDS
            await rig.advance(BETWEEN)
            assert rig.table.state.playing_game().round_number == 1
            await assert_replays(rig)

    async def test_a_whole_game_with_restarts_replays_from_every_store(self, store: Store) -> None:
        """The stored forms survive each backend's JSON (floats, lists, nulls) and fold back."""
        async with TableRig.practice(TWO, store=store) as rig:
            await rig.hello(0)
            await time_out_until_covered(rig)
            await rig.restart()
            await rig.hello(0)
            assert rig.table.state.phase.in_game  # a return after the end is refused (not_playing)
            await rig.call(ReturnToSeat(0))
            await play_until(rig, lambda state: state.phase is not Phase.PLAYING)
            await rig.restart()
            await play_until(rig, lambda state: state.phase.is_over)
            assert rig.table.state.phase is Phase.FINISHED
            await assert_replays(rig)
            for stored in await rig.log():
                assert from_stored(stored).to_data() == stored.data

    async def test_a_log_stored_before_seat_records_carried_their_count_restores(self) -> None:
        async with TableRig.practice(TWO) as rig:
            await rig.hello(0)
            for _ in range(2):
                await play_until(rig, seat_0_to_act, humans=())
                await time_out(rig)
            old = [
                type(e)(e.seq, e.kind, {k: v for k, v in e.data.items() if k != "timeouts"}, e.at)
                if e.kind == "seat"
                else e
                for e in await rig.log()
            ]
            twin = TableState(TWO)
            for stored in old:
                twin.apply(from_stored(stored), stored.seq)
            assert twin == rig.table.state
            assert twin.seats[0].timeouts == 2


# Stale timers and late bots ----------------------------------------------------------------


async def test_a_stale_timer_or_a_late_bot_does_nothing() -> None:
    async with TableRig.practice(TWO) as rig:
        turn = rig.table.state.turn
        assert turn is not None
        await play_until(rig, lambda state: state.turn is not None and state.turn.turn_id > turn.turn_id + 1)
        seq = rig.table.seq
        stale = (Timeout(turn.turn_id), BotMove(turn.turn_id, Pass()), AutoMove(turn.turn_id), NextRound(0))
        for command in stale:
            await rig.call(command)
        assert rig.table.seq == seq


async def test_a_phrase_is_said_to_everybody_but_not_twice_in_a_row() -> None:
    async with TableRig.practice(TWO) as rig:
        guest = await rig.hello(0)
        await rig.call(Phrase(0, "buena"))
        await refused(rig, Phrase(0, "buena"), "too_fast")
        await refused(rig, Phrase(0, "hola"), "unknown_phrase")
        await rig.advance(2)
        await rig.call(Phrase(0, "gracias"))
        assert [e["data"]["phrase"] for e in guest.events if e["kind"] == "phrase"] == ["buena", "gracias"]
        await assert_replays(rig)


async def test_an_act_is_refused_off_turn_stale_or_illegal() -> None:
    async with TableRig.practice(TWO) as rig:
        await play_until(rig, seat_0_to_act, humans=())
        turn = rig.table.state.turn
        assert turn is not None
        await refused(rig, Act(None, {"type": "pass"}), "spectator")
        await refused(rig, Act(1, {"type": "pass"}), "not_your_turn")
        await refused(rig, Act(0, {"type": "pass"}, turn.turn_id - 1), "stale")
        await refused(rig, Act(0, {"type": "play", "tile": "9-9", "side": None}), "illegal")
        await refused(rig, Act(0, {"type": "dance"}), "illegal")


def test_a_log_stored_before_typed_events_restores_and_every_frame_is_as_it_was_sent() -> None:
    """`data/log_before_typed_events.json`: a practice game stored by the server as it was
    before this design (a repeated hello's two seat events, three timeouts and a return,
    seat records without a count), with the frames its player's socket received then."""
    saved = json.loads((Path(__file__).parents[1] / "data" / "log_before_typed_events.json").read_text())
    state = TableState(Rules.from_json(saved["rules"]))
    log = {e["seq"]: StoredEvent(e["seq"], e["kind"], e["data"], e["at"]) for e in saved["events"]}
    for stored in log.values():
        event = from_stored(stored)
        data = event.to_data()
        if stored.kind == "game_started":  # stored before games were numbered: the first
            assert data.pop("game") == 1
        assert data == stored.data
        state.apply(event, stored.seq)
    assert (state.phase.value, state.playing_game().scores) == (saved["phase"], saved["scores"])
    assert state.seats[0].state is SeatState.AWAY
    assert saved["frames"]
    assert all(as_sent_then(visible(log[frame["seq"]], 0)) == frame for frame in saved["frames"])
    sync = saved["sync"]  # the snapshot its first hello got, rebuilt from the log up to there
    table = Table(
        sync["table"],
        state.rules,
        TableOptions(kind=TableKind.PRACTICE),
        MemoryStore(),
        FakeClock(),
        InlineBots(),
    )
    replay_log(table, [log[seq] for seq in range(1, sync["seq"] + 1)])
    # The line was still empty there, so its `line` (boxes now, names then) reads the same.
    assert sync["view"]["line"] == []
    assert as_sent_then(table.snapshot(0)) == sync


# Fields frames gained after the saved log was stored (docs/protocol.md names each); a frame
# without them is the frame that was sent.
ADDED_TO_SYNC = ("game", "scores", "goals", "rematch", "host", "rating", "chat", "hints")
ADDED_TO_VIEW = ("line_ends",)
ADDED_TO_DATA = {"seat": ("name_en", "face", "abandoned"), "game_started": ("game",)}


def as_sent_then(frame: dict[str, Any]) -> dict[str, Any]:
    frame = json.loads(json.dumps(frame))
    if frame["type"] == "sync":
        for key in ADDED_TO_SYNC:
            del frame[key]
        for seat in frame["seats"]:
            for key in ("name_en", "face", "abandoned"):
                del seat[key]
        for key in ADDED_TO_VIEW:
            if frame["view"] is not None:
                del frame["view"][key]
    elif frame["type"] == "event":
        for key in ADDED_TO_DATA.get(frame["kind"], ()):
            del frame["data"][key]
    return frame


class _LosesItsCancellation:
    """A command that waits until cancelled and then returns as if it had finished (as a call
    through Python 3.11's `asyncio.wait_for`, which redis-py makes, may)."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.cancelled = 0

    async def run(self, table: Table) -> None:
        self.started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            self.cancelled += 1


async def test_a_table_stops_even_when_a_command_loses_its_cancellation() -> None:
    async with TableRig.opened(Rules.preset("clasico")) as rig:
        command = _LosesItsCancellation()
        call = asyncio.create_task(rig.table.call(command))
        await command.started.wait()
        stopping = asyncio.create_task(rig.table.stop())
        # A bound on a hang, not a measure: it waited for ever. (Not `asyncio.timeout`: its
        # cancellation would reach the actor through `stop` and end it.)
        await asyncio.wait([stopping], timeout=10)
        if not stopping.done():
            stopping.cancel()
        assert stopping.done() and not stopping.cancelled(), "stop never returned"
        assert command.cancelled == 1
        assert rig.table._task is not None and rig.table._task.cancelled()
        call.cancel()
