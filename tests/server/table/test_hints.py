"""«Pista»: the expert's suggestion for a seat's move at a practice table (docs/protocol.md, `hint`).

In-process (the real `Table` actor on a `MemoryStore`, with `InlineBots`, whose expert is
seeded: the same view always gets the same move) and over real sockets against a real
uvicorn: a hint is one of the seat's legal actions, computed from its own view alone (the
tiles it cannot see re-dealt give the same hint), given once a turn and at most
`hints_per_game` times a game; it is refused with its code, and nothing stored, outside
practice, to a spectator, out of turn and over the limit. The log keeps it (a restart
too), only the asker is told which tile, and the kept game's summary and record say how
many hints each seat used (the record still checks with `POST /api/verify`).

Two tests are expected to fail until modules this feature may not edit take their one line
each: the table's own record (`Table.game_record`) and a hint asked through another
process of a cluster (the commands `cluster/wire.py` forwards).
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.bots.test_no_peeking import positions, redeal
from tests.server.cluster.test_cluster_inprocess import cluster_of, on
from tests.server.cluster.test_cluster_inprocess import until as cluster_until
from tests.server.support.harness import LiveServer, Message, fast_settings
from tests.server.support.inprocess import Socket, TableRig, play_until
from tests.server.support.scenario_helpers import Client, joined, open_table
from tests.server.support.scripted import ScriptedClient, _Seat, stored_events
from tranque.cli import main
from tranque.engine import Action, FirstLead, Game, PlayerView, Rules, action_from_json
from tranque.engine.record import replay
from tranque.server.analysis.verify import verify_record
from tranque.server.settings import Settings
from tranque.server.table.bots import InlineBots
from tranque.server.table.commands import Act, FromSocket, Hint, Rematch, Subscribe
from tranque.server.table.events import HintGiven
from tranque.server.table.hints import HINT_LEVEL, suggest
from tranque.server.table.log import from_stored
from tranque.server.table.state import Phase, TableError, TableKind, TableOptions, TableState

TWO = Rules.preset("clasico", players=2, mode="individual")
SHORT = Rules.preset("clasico", players=2, mode="individual", target=10)
PAIRS = Rules.preset("clasico", players=4, mode="pairs")


# In-process: the table's actor ---------------------------------------------------------


def to_act(seat: int) -> Callable[[TableState], bool]:
    def done(state: TableState) -> bool:
        return state.phase is Phase.PLAYING and state.turn is not None and state.turn.seat == seat

    return done


async def hint(rig: TableRig, socket: Socket, seat: int | None) -> dict[str, Any]:
    answer: dict[str, Any] = await rig.call(FromSocket(socket, Hint(seat)))
    return answer


async def refused(rig: TableRig, socket: Socket, seat: int | None, code: str) -> TableError:
    """`hint` is refused with `code`, and nothing is stored, sent or changed."""
    log, facts, frames = await rig.log(), rig.table.state.facts(), len(socket.frames)
    with pytest.raises(TableError) as refusal:
        await hint(rig, socket, seat)
    assert refusal.value.code == code
    assert refusal.value.message and refusal.value.message_en  # Spanish and English
    assert await rig.log() == log
    assert rig.table.state.facts() == facts
    assert len(socket.frames) == frames
    return refusal.value


def legal_json(state: TableState) -> list[dict[str, Any]]:
    return [action.to_json() for action in state.playing_game().round.legal_actions()]


async def hints_in_log(rig: TableRig) -> list[HintGiven]:
    return [event for event in map(from_stored, await rig.log()) if isinstance(event, HintGiven)]


@pytest.mark.anyio
@pytest.mark.parametrize(
    "rules",
    [TWO, PAIRS, Rules.preset("ponce"), Rules.preset("sin-pozo", players=2)],
    ids=["clasico-2", "clasico-4", "ponce", "sin-pozo-2"],
)
async def test_a_hint_is_one_of_the_legal_actions_on_every_turn_and_playing_it_is_accepted(
    rules: Rules,
) -> None:
    async with TableRig.practice(rules) as rig:
        guest = await rig.hello(0)
        given = 0
        while given < 12 and rig.table.state.phase is not Phase.FINISHED:
            await play_until(rig, lambda s: to_act(0)(s) or s.phase is Phase.FINISHED)
            state = rig.table.state
            if state.phase is Phase.FINISHED:
                break
            assert state.turn is not None
            legal, turn_id = legal_json(state), state.turn.turn_id
            answer = await hint(rig, guest, 0)
            given += 1
            assert answer["turn_id"] == turn_id
            assert answer["action"] in legal
            assert answer["left"] == rig.options.hints_per_game - given
            assert answer["seq"] == rig.table.seq
            await rig.call(Act(0, answer["action"], turn_id))  # the hinted move is played as it is
        assert given >= 3
        logged = await hints_in_log(rig)
        assert [event.count for event in logged] == list(range(1, given + 1))
        assert await rig.replayed() == rig.table.state


@pytest.mark.anyio
async def test_the_hint_is_the_experts_choice_from_the_seats_own_view() -> None:
    """What the bot worker is handed is the seat's `PlayerView`, and the level is the expert."""

    class Spy:
        def __init__(self) -> None:
            self.asked: list[tuple[str, PlayerView]] = []

        async def choose(self, level: str, view: PlayerView) -> Action:
            self.asked.append((level, view))
            return view.legal_actions[-1]

    async with TableRig.practice(TWO) as rig:
        guest = await rig.hello(0)
        await play_until(rig, to_act(0))
        spy = Spy()
        rig.table.bots = spy
        game = rig.table.state.playing_game()
        answer = await hint(rig, guest, 0)
        assert [level for level, _ in spy.asked] == [HINT_LEVEL] == ["expert"]
        ((_, view),) = spy.asked
        assert view == game.view(0)
        assert view.seat == 0 and view.revealed_hands is None
        assert action_from_json(answer["action"]) == view.legal_actions[-1]


@pytest.mark.anyio
async def test_a_table_given_up_while_the_expert_thinks_stores_no_hint() -> None:
    """With several processes a table's lease may lapse while the search runs: another
    process owns it then, and this one must not write (nothing stored, `table_moved`)."""

    class LeaseLapses:
        def __init__(self, table: Any) -> None:
            self.table = table

        async def choose(self, level: str, view: PlayerView) -> Action:
            self.table.give_up()  # what cluster.py does when a renewal finds the lease gone
            return view.legal_actions[0]

    async with TableRig.practice(TWO) as rig:
        guest = await rig.hello(0)
        await play_until(rig, to_act(0))
        rig.table.bots = LeaseLapses(rig.table)
        log = await rig.log()
        with pytest.raises(TableError) as refusal:
            await hint(rig, guest, 0)
        assert refusal.value.code == "table_moved"
        assert await rig.log() == log
        assert rig.table.state.hint_counts() == [0, 0]


@pytest.mark.anyio
async def test_asking_again_on_the_same_turn_answers_the_same_hint_and_stores_nothing() -> None:
    async with TableRig.practice(TWO) as rig:
        guest, again = await rig.hello(0), await rig.hello(0, Socket("seat 0, second tab"))
        await play_until(rig, to_act(0))
        first = await hint(rig, guest, 0)
        log, asked = await rig.log(), rig.bots.asked
        assert await hint(rig, again, 0) == first
        assert await hint(rig, guest, 0) == first
        assert await rig.log() == log
        assert rig.bots.asked == asked  # no second search either
        assert rig.table.state.hint_counts() == [1, 0]


@pytest.mark.anyio
async def test_refused_outside_practice_for_a_seat_and_for_a_spectator() -> None:
    async with TableRig.opened(TWO, TableKind.PUBLIC) as rig:
        table = rig.table
        for seat in table.seats:
            rig.tokens[seat.index] = await table.take_seat(seat, f"Jugador {seat.index}", None)
        await table.start_game()
        await table.until_idle()
        seated = {seat: await rig.hello(seat) for seat in (0, 1)}
        watcher = await rig.hello(None)
        to_move = rig.table.state.turn
        assert to_move is not None
        error = await refused(rig, seated[to_move.seat], to_move.seat, "not_practice")
        assert error.message == "Las pistas son solo para las partidas de práctica contra la máquina."
        assert error.message_en == "Hints are only for practice games against the machine."
        await refused(rig, watcher, None, "spectator")


@pytest.mark.anyio
async def test_refused_out_of_turn_between_rounds_and_after_the_game() -> None:
    async with TableRig.practice(TWO, humans=(0, 1)) as rig:
        sockets = {seat: await rig.hello(seat) for seat in (0, 1)}
        turn = rig.table.state.turn
        assert turn is not None
        other = 1 - turn.seat
        await refused(rig, sockets[other], other, "not_your_turn")
        await play_until(rig, lambda s: s.phase is Phase.BETWEEN_ROUNDS, humans=(0, 1))
        await refused(rig, sockets[0], 0, "not_playing")
        await play_until(rig, lambda s: s.phase is Phase.FINISHED, humans=(0, 1))
        error = await refused(rig, sockets[0], 0, "not_playing")
        assert error.message == "La partida ya terminó: en esta mesa ya no se juega."


@pytest.mark.anyio
async def test_refused_over_the_limit_of_a_game_and_given_again_in_the_next() -> None:
    async with TableRig.practice(SHORT, hints_per_game=2) as rig:
        guest = await rig.hello(0)
        for count in (1, 2):
            await play_until(rig, to_act(0))
            answer = await hint(rig, guest, 0)
            assert answer["left"] == 2 - count
            await rig.call(Act(0, answer["action"], answer["turn_id"]))
        await play_until(rig, to_act(0))
        error = await refused(rig, guest, 0, "too_many_hints")
        assert error.message == "Ya usaste las 2 pistas de esta partida."
        assert error.message_en == "You have used this game's 2 hints."
        assert rig.table.state.hint_counts() == [2, 0]
        await play_until(rig, lambda s: s.phase is Phase.FINISHED)
        await rig.call(FromSocket(guest, Rematch(0)))  # the next game has its own hints
        assert rig.table.state.hint_counts() == [0, 0]
        await play_until(rig, to_act(0))
        assert (await hint(rig, guest, 0))["left"] == 1


def syncs(socket: Socket) -> list[Message]:
    return [frame for frame in socket.frames if frame["type"] == "sync"]


@pytest.mark.anyio
async def test_a_restart_keeps_the_hints_given_and_their_count() -> None:
    async with TableRig.practice(TWO, hints_per_game=3) as rig:
        guest = await rig.hello(0)
        assert syncs(guest)[-1]["hints"] == {"per_game": 3, "left": 3}
        await play_until(rig, to_act(0))
        first = await hint(rig, guest, 0)
        await rig.restart()  # whoever was to act gets a fresh turn
        assert rig.table.state.hint_counts() == [1, 0]
        assert rig.table.state.last_hint[0] == (first["turn_id"], action_from_json(first["action"]))
        guest = await rig.hello(0)
        assert syncs(guest)[-1]["hints"] == {"per_game": 3, "left": 2}  # the page is told after a reload
        await play_until(rig, to_act(0))
        again = await hint(rig, guest, 0)  # a new turn: a new hint, counted after the first
        assert again["turn_id"] != first["turn_id"] and again["left"] == 1
        assert [event.count for event in await hints_in_log(rig)] == [1, 2]
        assert await rig.replayed() == rig.table.state


@pytest.mark.anyio
async def test_R17_only_the_asker_is_told_the_tile_its_partner_sees_that_a_hint_was_used() -> None:
    async with TableRig.practice(PAIRS, humans=(0, 2)) as rig:
        asker, partner = await rig.hello(0), await rig.hello(2)
        await play_until(rig, to_act(0), humans=(0, 2))
        answer = await hint(rig, asker, 0)
        (told,) = [e for e in asker.events if e["kind"] == "hint"]
        (seen,) = [e for e in partner.events if e["kind"] == "hint"]
        assert told["data"] == {
            "seat": 0,
            "turn_id": answer["turn_id"],
            "action": answer["action"],
            "count": 1,
        }
        assert seen["data"] == {"seat": 0, "turn_id": answer["turn_id"], "count": 1}
        assert told["seq"] == seen["seq"]
        (stored,) = await hints_in_log(rig)
        assert stored.audience(0) != stored.audience(2) == stored.audience(None) == stored.audience(1)
        assert "action" not in stored.project(None) and "action" not in stored.project(1)


@pytest.mark.anyio
async def test_a_kept_game_says_how_many_hints_each_seat_used_and_its_record_still_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with TableRig.practice(SHORT, hints_per_game=100) as rig:
        guest = await rig.hello(0)
        used = 0
        while True:
            await play_until(rig, lambda s: to_act(0)(s) or s.phase.is_over)
            if rig.table.state.phase.is_over:
                break
            answer = await hint(rig, guest, 0)
            used += 1
            await rig.call(Act(0, answer["action"], answer["turn_id"]))
        assert rig.table.state.phase is Phase.FINISHED
        await rig.record_games()
        kept = await rig.store.load_game(f"{rig.table_id}.1")
        assert kept is not None
        assert kept.summary["hints"] == [used, 0]
        assert kept.record["hints"] == [used, 0]
        assert verify_record(kept.record)["ok"] is True
        assert replay(kept.record).scores == rig.table.state.playing_game().scores
        path = tmp_path / "partida.json"
        path.write_text(json.dumps(kept.record), encoding="utf-8")
        capsys.readouterr()
        assert main(["verify", str(path)]) == 0, capsys.readouterr()


@pytest.mark.anyio
async def test_the_tables_record_says_how_many_hints_each_seat_used_too() -> None:
    async with TableRig.practice(SHORT, hints_per_game=100) as rig:
        guest = await rig.hello(0)
        await play_until(rig, to_act(0))
        await hint(rig, guest, 0)
        await play_until(rig, lambda s: s.phase.is_over)
        record = await rig.store.load_record(rig.table_id)
        assert record is not None and record["hints"] == [1, 0]


@pytest.mark.anyio
async def test_a_game_without_hints_keeps_its_record_as_it_was() -> None:
    async with TableRig.practice(SHORT) as rig:
        await rig.hello(0)
        await play_until(rig, lambda s: s.phase.is_over)
        await rig.record_games()
        kept = await rig.store.load_game(f"{rig.table_id}.1")
        assert kept is not None
        assert kept.summary["hints"] == [0, 0]
        assert "hints" not in kept.record
        assert kept.record == await rig.store.load_record(rig.table_id)


# No peeking: the hint is the seat's view's, whatever the hidden tiles are --------------------


NO_PEEKING = [
    pytest.param("clasico", 2, "individual", id="clasico-2-drawing"),
    pytest.param("clasico", 4, "pairs", id="clasico-4-pairs"),
    pytest.param("ponce", 4, "pairs", id="ponce"),
    pytest.param("en-contra", 3, "individual", id="en-contra-3"),
]


def game_from(rules: Rules, deal: Any, actions: list[Action]) -> Game:
    """The game of one explicit deal after `actions` (its first lead as the bots' tests start it)."""
    first = None if rules.first_round_lead is FirstLead.HIGHEST_DOUBLE else 0
    game = Game(rules, deals=[deal], first_starter=first)
    for action in actions:
        game.apply(action)
    return game


@pytest.mark.anyio
@pytest.mark.parametrize(("name", "players", "mode"), NO_PEEKING)
async def test_R17_no_peeking_the_same_view_with_the_hidden_tiles_redealt_gets_the_same_hint(
    name: str, players: int, mode: str
) -> None:
    rules = Rules.preset(name, players=players, mode=mode)
    rng = random.Random(7)
    compared = 0
    for seed in range(2):
        for deal, actions, seat in positions(rules, seed):
            game = game_from(rules, deal, actions)
            other_deal, moved = redeal(rules, deal, actions, seat, rng)
            other = game_from(rules, other_deal, actions)
            assert moved >= 4 and other_deal != deal  # the other hands and the pozo really differ
            assert other.view(seat) == game.view(seat)
            for bot_seed in (1, 2):
                ours = await suggest(InlineBots(bot_seed), game, seat)
                theirs = await suggest(InlineBots(bot_seed), other, seat)
                assert ours == theirs
                assert ours in game.round.legal_actions()
            compared += 1
    assert compared >= 3


# Over real sockets against a real uvicorn ------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    settings = fast_settings(default_bot_level="greedy", hints_per_game=2, between_rounds_seconds=3600)
    with LiveServer(settings) as live:
        yield live


def first_options(client: Client, after: int) -> Message | None:
    return next((f for f in client.frames if f["type"] == "options" and f["turn_id"] > after), None)


async def my_turn(server: LiveServer, client: Client, after: int = 0) -> Message:
    """The seat's next `options` after turn `after` (the bots play at once; a round's end is
    answered with «listo»)."""
    ready: set[int] = set()
    while True:

        def found() -> Message | None:
            options = first_options(client, after)
            if options is not None:
                return options
            return next(
                (e for e in client.events if e["kind"] == "round_ended" and e["seq"] not in ready), None
            )

        frame = await client.wait_for(found)
        if frame["type"] == "options":
            return frame
        ready.add(frame["seq"])
        assert (await client.ask({"type": "ready"}))["type"] == "ack"


def http(server: LiveServer, method: str, path: str, **kwargs: Any) -> httpx.Response:
    return httpx.request(method, server.http + path, timeout=30, **kwargs)


def test_over_the_socket_a_practice_seat_gets_a_legal_hint_then_the_limit(server: LiveServer) -> None:
    asyncio.run(a_practice_seat_gets_a_legal_hint_then_the_limit(server))


async def a_practice_seat_gets_a_legal_hint_then_the_limit(server: LiveServer) -> None:
    seated = server.post("/api/practice", {"preset": "clasico", "players": 2, "bot_level": "greedy"})
    table = seated["table"]
    client = await joined(server, table, seated["token"])
    try:
        turn_id = 0
        for left in (1, 0):
            options = await my_turn(server, client, turn_id)
            turn_id = options["turn_id"]
            answer = await client.ok({"type": "hint"})
            assert set(answer) == {"type", "id", "turn_id", "action", "left", "seq"}
            assert answer["turn_id"] == turn_id and answer["left"] == left
            assert answer["action"] in options["legal_actions"]
            (event,) = [e for e in client.events if e["kind"] == "hint" and e["data"]["turn_id"] == turn_id]
            assert event["data"]["action"] == answer["action"] and event["seq"] <= answer["seq"]
            await client.ok({"type": "act", "action": answer["action"], "turn_id": turn_id})
        options = await my_turn(server, client, turn_id)
        before = stored_events(server, table)
        refusal = await client.refused({"type": "hint"}, "too_many_hints")
        assert refusal["message"] == "Ya usaste las 2 pistas de esta partida."
        assert refusal["message_en"] == "You have used this game's 2 hints."
        assert stored_events(server, table) == before
        await client.ok({"type": "act", "action": options["legal_actions"][0], "turn_id": options["turn_id"]})
    finally:
        await client.close()


def test_over_the_socket_refused_with_its_code_and_nothing_stored(server: LiveServer) -> None:
    asyncio.run(refused_with_its_code_and_nothing_stored(server))


async def refused_with_its_code_and_nothing_stored(server: LiveServer) -> None:
    public, public_tokens = open_table(server, TWO, [0, 1], kind=TableKind.PUBLIC)
    practice, practice_tokens = open_table(server, TWO, [0, 1], kind=TableKind.PRACTICE)
    stranger = Client(server)
    await stranger.connect()
    clients = [stranger]
    try:
        await stranger.refused({"type": "hint", "id": "sin mesa"}, "no_table")
        watcher = await joined(server, public)
        seated = await joined(server, public, public_tokens[0])
        both = {seat: await joined(server, practice, token) for seat, token in practice_tokens.items()}
        clients += [watcher, seated, *both.values()]
        before = stored_events(server, public), stored_events(server, practice)
        await watcher.refused({"type": "hint"}, "spectator")
        await seated.refused({"type": "hint"}, "not_practice")
        sync = next(f for f in both[0].frames if f["type"] == "sync")
        waiting = 1 - sync["turn"]["seat"]
        refusal = await both[waiting].refused({"type": "hint"}, "not_your_turn")
        assert refusal["message_en"] == "It is not your turn."
        assert (stored_events(server, public), stored_events(server, practice)) == before
    finally:
        for client in clients:
            await client.close()


def test_over_http_the_kept_game_says_hints_were_used_and_its_record_verifies(server: LiveServer) -> None:
    seated = server.post(
        "/api/practice", {"preset": "clasico", "players": 2, "target": 100, "bot_level": "greedy"}
    )

    async def play() -> ScriptedClient:
        async with ScriptedClient(
            server, seated["table"], seated["token"], rng=random.Random(5), hints=1.0
        ) as guest:
            await guest.play()
            return guest

    guest = asyncio.run(play())
    server.recorded()  # the game's history is kept after its end
    assert len(guest.hints_given) == 2  # every turn asked; the game's two, then refusals
    game_id = f"{seated['table']}.1"
    page = http(server, "GET", f"/api/games/{game_id}").json()
    assert page["hints"] == [2, 0]
    record = http(server, "GET", f"/api/games/{game_id}/record").json()
    assert record["hints"] == [2, 0]
    verdict = http(server, "POST", "/api/verify", json=record).json()
    assert verdict["ok"] is True, verdict
    replay_body = http(server, "GET", f"/api/games/{game_id}/replay").json()
    assert replay_body["game"]["hints"] == [2, 0]


def test_the_documents_say_the_servers_limit() -> None:
    root = Path(__file__).resolve().parents[3]
    most = TableOptions().hints_per_game
    assert Settings().hints_per_game == most
    protocol = " ".join((root / "docs" / "protocol.md").read_text(encoding="utf-8").split())
    assert f"**At most {most} a game** per seat" in protocol
    assert f"Ya usaste las {most} pistas de esta partida." in protocol
    readme = " ".join((root / "README.md").read_text(encoding="utf-8").split())
    assert f"One a turn, {most} a game" in readme


def test_a_hint_event_decodes_back_to_itself() -> None:
    event = HintGiven(1, 7, action_from_json({"type": "play", "tile": "6-4", "side": "right"}), 3)
    assert HintGiven.from_data(event.to_data()) == event
    assert replace(event, count=4) != event


@pytest.mark.anyio
async def test_a_hint_asked_on_another_process_is_decided_by_the_tables_owner() -> None:
    async with cluster_of(2) as (nodes, _clock, store):
        owner, other = nodes
        options = owner.registry.options(kind=TableKind.PRACTICE, bot_level="greedy")
        table = await owner.registry.create(TWO, options)
        tokens: dict[int, str] = await table.call(_Seat([0], "greedy"))
        await table.start_game()
        replica = await on(other, table.table_id)
        socket = Socket("seat 0 on the other process")
        await replica.call(Subscribe(socket, tokens[0]))
        await cluster_until(
            lambda: table.state.turn is not None and table.state.turn.seat == 0, "seat 0 to act"
        )
        answer = await replica.call(FromSocket(socket, Hint(0)))
        assert answer["action"] in [a.to_json() for a in table.state.playing_game().round.legal_actions()]
        assert [event.kind for event in await store.load_events(table.table_id)][-1] == "hint"
