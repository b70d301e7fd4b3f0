"""Server scenarios against a real uvicorn on loopback with real WebSocket clients.

Time is a `FakeClock` the test moves by hand, so every clock assertion is exact. Deals come
from fixed seeds chosen so that a scripted game reaches the position a scenario needs, and a
`Mirror` of the referee's game in the test says exactly what the server must do.
"""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any

import httpx

from tests.server.support.harness import LiveServer, fast_settings
from tests.server.support.scenario_helpers import (
    Client,
    Mirror,
    drive,
    due_at,
    find_seeds,
    fits_both_ends,
    forced,
    joined,
    lowest,
    make_account,
    new_game,
    open_table,
    peek,
    r15_expected,
    salt_for,
    scripted_until,
    seated_game,
    start_game,
    table_of,
    tiles_in,
)
from tranque.engine import Draw, Game, Pass, Play, Rules, action_from_json
from tranque.server.settings import Settings
from tranque.server.table.actor import TableOptions
from tranque.server.table.clock import FakeClock
from tranque.server.table.events import PHRASES
from tranque.server.table.line_layout import lay_out, plays_of
from tranque.server.table.state import TableKind

TWO = Rules.preset("clasico", players=2, mode="individual")
FOUR = Rules.preset("clasico", players=4, mode="individual")
TURN = TWO.turn_seconds  # 30 (R15 default)
BETWEEN = 8.0
AUTO = 1.0
QUICK_WAIT = 10.0


def settings(**changes: Any) -> Settings:
    values: dict[str, Any] = {
        "between_rounds_seconds": BETWEEN,
        "auto_move_seconds": AUTO,
        "quick_match_wait_seconds": QUICK_WAIT,
        "default_bot_level": "greedy",
    }
    return fast_settings(**{**values, **changes})


def now(server: LiveServer) -> float:
    return server.settings.clock.now()


def run(scenario: Any, **changes: Any) -> None:
    with LiveServer(settings(**changes)) as server:
        asyncio.run(scenario(server))


def acted(mirror: Mirror, seat: int, action: dict[str, Any], by: str) -> dict[str, Any]:
    """An action event's data as everybody but a drawer sees it, once `mirror` has followed it:
    who, what, by whom (human, timeout, auto, bot), the line's ends after it and, for a play,
    where the tile lies on the table (tests/server/table/test_line_layout.py pins the geometry)."""
    ends = mirror.game.round.ends
    data: dict[str, Any] = {
        "seat": seat,
        "action": action,
        "by": by,
        "ends": None if ends is None else list(ends),
    }
    if action["type"] == "play":
        snake = lay_out(plays_of(mirror.game.round.full_events))
        assert snake.last is not None
        data.update(place=snake.last.to_json(), line_ends=snake.ends_json())
    return data


async def close_all(*clients: Client) -> None:
    for client in clients:
        await client.close()


# 1. Disconnect and reconnect mid-turn ------------------------------------------------------


def after_lead_other_chooses(seeds: list[bytes]) -> bool:
    game = new_game(TWO, seeds)
    game.apply(lowest(game))  # R6: the only legal lead
    return not forced(game) and len(game.round.legal_actions()) >= 2


def test_disconnect_keeps_the_seat_and_reconnect_with_last_seq_resumes_exactly() -> None:
    seeds = find_seeds("reconnect", after_lead_other_chooses)

    async def scenario(server: LiveServer) -> None:
        table, tokens = open_table(server, TWO, [0, 1], seeds=seeds)
        mirror = Mirror(TWO, seeds)
        starter = mirror.game.round.turn
        other = 1 - starter
        start = now(server)
        clients = {seat: await joined(server, table, tokens[seat]) for seat in (0, 1)}
        on_turn, leaving = clients[starter], clients[other]
        await leaving.settle()
        last_seen = leaving.last_seq
        await leaving.close()

        away = await on_turn.until("seat", seat=other, state="away")
        assert away["data"]["kind"] == "human"
        # The starter's turn: time passes, less than a turn; nothing happens to anybody.
        server.advance(TURN - 5)
        await on_turn.quiet()
        sync = next(f for f in on_turn.frames if f["type"] == "sync")
        assert sync["turn"] == {"seat": starter, "turn_id": 1, "deadline": start + TURN}

        lead = lowest(mirror.game).to_json()
        await on_turn.ok({"type": "act", "action": lead, "turn_id": 1})
        played = await on_turn.next_event()
        mirror.follow(played)
        assert (played["kind"], played["data"]) == ("action", acted(mirror, starter, lead, "human"))
        turn = await on_turn.next_event()
        # The away seat's clock starts only now, on its own turn: a full turn from here.
        assert (turn["kind"], turn["data"]) == (
            "turn",
            {"seat": other, "turn_id": 2, "deadline": start + TURN - 5 + TURN, "auto": False},
        )
        server.advance(TURN - 1)
        await on_turn.quiet()

        back = Client(server)
        await back.connect()
        answer = await back.hello(table, tokens[other], last_seq=last_seen)
        assert answer["type"] == "ack" and answer["seat"] == other
        missed = back.events
        # Exactly the missing events: contiguous from last_seq + 1, none lost, none twice.
        assert [e["seq"] for e in missed] == list(range(last_seen + 1, answer["seq"] + 1))
        # ...then what it may do now that it is its turn, then its own return ("present").
        assert [f["type"] for f in back.frames] == ["event"] * 3 + ["options", "event", "ack"]
        options = back.frames[3]
        legal = [a.to_json() for a in mirror.game.round.legal_actions()]
        assert options == {"type": "options", "turn_id": 2, "legal_actions": legal}
        assert [(e["kind"], e["data"].get("seat")) for e in missed] == [
            ("seat", other),
            ("action", starter),
            ("turn", other),
            ("seat", other),
        ]
        assert missed[0]["data"]["state"] == "away" and missed[-1]["data"]["state"] == "present"
        await on_turn.until("seat", seat=other, state="present")
        seen_by_starter = {e["seq"]: e for e in on_turn.events}
        assert missed == [seen_by_starter[e["seq"]] for e in missed]

        reply = lowest(mirror.game).to_json()
        await back.ok({"type": "act", "action": reply, "turn_id": 2})
        answered = await on_turn.next_event()
        mirror.follow(answered)
        assert answered["data"] == acted(mirror, other, reply, "human")
        await close_all(back, on_turn)

    run(scenario)


# 2. R15: timeout auto-play -----------------------------------------------------------------


def r15_is_left_of_two(game: Game) -> bool:
    """Past the lead, a real choice: two or more playable tiles and R15's fits both ends."""
    plays = [a for a in game.round.legal_actions() if isinstance(a, Play)]
    if game.round.ends is None or len({a.tile for a in plays}) < 2:
        return False
    expected = r15_expected(game)
    return expected["side"] == "left" and fits_both_ends(game, expected["tile"])


def test_R15_timeout_plays_most_pips_on_the_left_end_and_the_next_turn_starts() -> None:
    seeds = find_seeds("r15", lambda s: scripted_until(new_game(TWO, s), r15_is_left_of_two))

    async def scenario(server: LiveServer) -> None:
        mirror, clients = await seated_game(server, TWO, seeds)
        watch = clients[0]
        turn = await drive(watch, clients, mirror, r15_is_left_of_two)
        seat, turn_id = turn["data"]["seat"], turn["data"]["turn_id"]
        assert turn["data"]["deadline"] == now(server) + TURN
        expected = r15_expected(mirror.game)
        assert expected != lowest(mirror.game).to_json()
        playable = [a.tile for a in mirror.game.round.legal_actions() if isinstance(a, Play)]
        chosen = action_from_json(expected)
        assert isinstance(chosen, Play) and chosen.tile.pips == max(t.pips for t in playable)

        await due_at(server, watch, TURN)
        timed_out = await watch.next_event()
        mirror.follow(timed_out)
        assert (timed_out["kind"], timed_out["data"]) == ("action", acted(mirror, seat, expected, "timeout"))
        following = await watch.next_event()
        assert (following["kind"], following["data"]) == (
            "turn",
            {
                "seat": mirror.game.round.turn,
                "turn_id": turn_id + 1,
                "deadline": now(server) + TURN,
                "auto": forced(mirror.game),
            },
        )
        await close_all(*clients.values())

    run(scenario)


# 3. R16: bot takeover after 3 timeouts, and the return ----------------------------------


HUMAN_AWAY = 1  # the seat whose player stops answering


def three_chosen_timeouts_then_bot_turn(seeds: list[bytes]) -> bool:
    """Seat 1 times out (R15) on its first three turns, none forced, within round 0, and the
    round lasts to its fourth turn."""
    game = new_game(TWO, seeds)
    timeouts = 0
    while not game.round.is_over:
        if game.round.turn == HUMAN_AWAY:
            if timeouts == 3:
                return True
            if forced(game):
                return False
            timeouts += 1
            game.apply(action_from_json(r15_expected(game)))
        else:
            game.apply(lowest(game))
    return False


def test_R16_three_timeouts_bring_a_bot_and_the_player_takes_the_seat_back() -> None:
    seeds = find_seeds("r16", three_chosen_timeouts_then_bot_turn)

    async def scenario(server: LiveServer) -> None:
        mirror, clients = await seated_game(server, TWO, seeds, bot_level="greedy")
        away = HUMAN_AWAY
        present = 1 - away
        watch, idle = clients[present], clients[away]

        async def present_plays(turn: dict[str, Any]) -> None:
            action = lowest(mirror.game).to_json()
            await watch.ok({"type": "act", "action": action, "turn_id": turn["turn_id"]})

        async def next_event() -> dict[str, Any]:
            """The next event (the bot's random choice of end may make a round end anywhere:
            then both say «listo»)."""
            event = await watch.next_event()
            mirror.follow(event)
            if event["kind"] == "round_ended":
                for client in clients.values():
                    await client.ok({"type": "ready"})
            return event

        async def time_out(covered: bool) -> None:
            """The away seat's turn runs out: R15 plays, after a `covered` seat event if due."""
            expected = r15_expected(mirror.game)
            await due_at(server, watch, TURN)
            if covered:
                seat = await next_event()
                assert (seat["kind"], seat["data"]["seat"], seat["data"]["state"]) == (
                    "seat",
                    away,
                    "covered",
                )
                assert seat["data"]["kind"] == "human"
            action = await next_event()
            assert (action["kind"], action["data"]) == ("action", acted(mirror, away, expected, "timeout"))

        async def away_turn(timeouts: int, covered_at: int) -> int:
            """Play on until the away seat has timed out `covered_at` times in a row (forced
            moves auto-played meanwhile count neither way); the count reached."""
            while timeouts < covered_at:
                event = await next_event()
                if event["kind"] != "turn":
                    continue
                turn = event["data"]
                if turn["seat"] == present:
                    await present_plays(turn)
                elif turn["auto"]:
                    server.advance(AUTO)
                    auto = await next_event()
                    assert auto["kind"] == "action" and auto["data"]["by"] == "auto"
                else:
                    timeouts += 1
                    await time_out(covered=timeouts == covered_at == 3)
            return timeouts

        # Three turns run out in a row: the third makes the seat "covered", then a bot plays it.
        await away_turn(0, 3)
        bot_moves = 0
        while True:
            event = await next_event()
            if event["kind"] != "turn":
                continue
            if event["data"]["seat"] == present:
                if bot_moves:
                    break
                await present_plays(event["data"])
            else:
                bot_move = await next_event()
                assert bot_move["kind"] == "action" and bot_move["data"]["seat"] == away
                assert bot_move["data"]["by"] == "bot"
                bot_moves += 1
        # The player comes back: "present", and the count of timeouts starts again from 0.
        await idle.ok({"type": "return"})
        back = await next_event()
        assert (back["kind"], back["data"]["seat"], back["data"]["state"]) == ("seat", away, "present")
        await present_plays(event["data"])
        # Two more timeouts do not bring the bot back (without the reset the first would)...
        await away_turn(0, 2)
        # ...acting resets the count too (C10)...
        while True:
            event = await next_event()
            if event["kind"] == "turn" and event["data"]["seat"] == present:
                await present_plays(event["data"])
            elif event["kind"] == "turn":
                await idle.ok(
                    {
                        "type": "act",
                        "action": lowest(mirror.game).to_json(),
                        "turn_id": event["data"]["turn_id"],
                    }
                )
                own = await next_event()
                assert own["data"]["by"] == "human"
                break
        # ...so it takes three new timeouts in a row to be covered again.
        await away_turn(0, 2)
        await away_turn(2, 3)
        await close_all(*clients.values())

    run(scenario)


def test_R16_covered_player_takes_the_seat_back_by_acting_on_their_turn() -> None:
    seeds = find_seeds("r16", three_chosen_timeouts_then_bot_turn)

    async def scenario(server: LiveServer) -> None:
        mirror, clients = await seated_game(server, TWO, seeds)
        away, present = HUMAN_AWAY, 1 - HUMAN_AWAY
        watch, idle = clients[present], clients[away]
        timeouts = 0
        while True:
            event = await watch.next_event()
            mirror.follow(event)
            if event["kind"] != "turn":
                continue
            turn = event["data"]
            if turn["seat"] == present:
                await watch.ok(
                    {"type": "act", "action": lowest(mirror.game).to_json(), "turn_id": turn["turn_id"]}
                )
            elif timeouts < 3:
                server.advance(TURN)
                timeouts += 1
            else:
                break  # covered: the bot is thinking (bot_min_seconds is an hour of real time)
        states = [
            e["data"]["state"] for e in watch.events if e["kind"] == "seat" and e["data"]["seat"] == away
        ]
        assert states[-1] == "covered"
        mine = lowest(mirror.game).to_json()
        await idle.ok({"type": "act", "action": mine, "turn_id": turn["turn_id"]})
        back = await watch.next_event()
        assert (back["kind"], back["data"]["seat"], back["data"]["state"]) == ("seat", away, "present")
        played = await watch.next_event()
        mirror.follow(played)
        assert played["data"] == acted(mirror, away, mine, "human")
        await close_all(*clients.values())

    run(scenario, bot_min_seconds=3600)


# 4. Forced moves ---------------------------------------------------------------------------


def lone(kind: type) -> Any:
    def stop(game: Game) -> bool:
        legal = game.round.legal_actions()
        return forced(game) and isinstance(legal[0], kind)

    return stop


async def until_auto_move(
    server: LiveServer, mirror: Mirror, clients: dict[int, Client], kind: type, early: float
) -> dict[str, Any]:
    """Play on to the first turn whose one legal action is a `kind` (draw or pass): its turn
    event says `auto`, and nothing happens until `auto_move_seconds` have passed (`early`
    short of them, nothing yet). Returns that turn event; the server's move is the next event."""
    turn = await drive(clients[0], clients, mirror, lone(kind))
    assert turn["data"]["auto"] is True
    await due_at(server, clients[0], AUTO, early=early)
    return turn


def test_forced_lone_draw_is_played_by_the_server_after_auto_move_seconds() -> None:
    seeds = find_seeds("lone-draw", lambda s: scripted_until(new_game(TWO, s), lone(Draw)))

    async def scenario(server: LiveServer) -> None:
        mirror, clients = await seated_game(server, TWO, seeds)
        watch = clients[0]
        turn = await until_auto_move(server, mirror, clients, Draw, early=AUTO / 2)
        seat = turn["data"]["seat"]
        tile = str(mirror.game.round.boneyard[0])
        drawn = await watch.next_event()
        mirror.follow(drawn)
        expected = acted(mirror, seat, {"type": "draw"}, "auto")
        drawer, other = clients[seat], clients[1 - seat]
        # The drawer alone is told the tile (R17).
        await drawer.settle()
        assert [e["data"] for e in drawer.events if e["seq"] == drawn["seq"]] == [{**expected, "drawn": tile}]
        await other.settle()
        assert [e["data"] for e in other.events if e["seq"] == drawn["seq"]] == [expected]
        following = await watch.next_event()
        assert following["data"] == {
            "seat": mirror.game.round.turn,
            "turn_id": turn["data"]["turn_id"] + 1,
            "deadline": now(server) + TURN,
            "auto": forced(mirror.game),
        }
        await close_all(*clients.values())

    run(scenario)


def test_forced_lone_pass_is_played_by_the_server_after_auto_move_seconds() -> None:
    seeds = find_seeds("lone-pass", lambda s: scripted_until(new_game(FOUR, s), lone(Pass)))

    async def scenario(server: LiveServer) -> None:
        mirror, clients = await seated_game(server, FOUR, seeds)
        watch = clients[0]
        turn = await until_auto_move(server, mirror, clients, Pass, early=0.01)
        seat = turn["data"]["seat"]
        passed = await watch.next_event()
        mirror.follow(passed)
        assert passed["data"] == acted(mirror, seat, {"type": "pass"}, "auto")
        following = await watch.next_event()
        assert following["kind"] == "turn" and following["data"]["seat"] == mirror.game.round.turn
        assert mirror.game.round.turn == (seat + 1) % 4
        await close_all(*clients.values())

    run(scenario)


# 5. Between rounds -------------------------------------------------------------------------


def three_rounds(seeds: list[bytes]) -> bool:
    game = new_game(TWO, seeds)
    for _ in range(2):
        scripted_until(game, lambda g: False)
        if game.is_over:
            return False
        game.start_next_round()
    return True


def test_round_end_reveals_every_hand_and_the_committed_seed_then_the_next_round_starts() -> None:
    seeds = find_seeds("between", three_rounds)

    async def scenario(server: LiveServer) -> None:
        mirror, clients = await seated_game(server, TWO, seeds)
        watch = clients[0]

        async def round_ends(number: int) -> None:
            ended = await drive(watch, clients, mirror)
            game = mirror.game
            seed, salt = seeds[number], salt_for(seeds[number])
            expected: dict[str, Any] = {
                "round": number,
                "result": game.round.result.to_json(),  # type: ignore[union-attr]
                "hands": [[str(t) for t in hand] for hand in game.round.hands],
                "seed": seed.hex(),
                "salt": salt.hex(),
                "commitment": hashlib.sha256(seed + salt).hexdigest(),
                "scores": list(game.scores),
                "goals": list(game.goals),
            }
            for client in clients.values():
                await client.settle()
                (mine,) = [e for e in client.events if e["seq"] == ended["seq"]]
                assert mine == ended and ended["data"] == expected
                started = [e for e in client.events if e["kind"] == "round_started"][-1]["data"]
                # Only the commitment was published at the deal; it matches the revealed pair.
                assert set(started) == {
                    "round",
                    "starter",
                    "commitment",
                    "hand_counts",
                    "boneyard_count",
                    "hand",
                    "scores",  # the game's as the round starts, not a secret
                    "goals",
                }
                assert started["round"] == number and len(started["hand"]) == 7
                revealed = bytes.fromhex(mine["data"]["seed"]) + bytes.fromhex(mine["data"]["salt"])
                assert hashlib.sha256(revealed).hexdigest() == started["commitment"]
            assert sum(len(hand) for hand in expected["hands"]) > 0

        await round_ends(0)
        await clients[0].refused({"type": "act", "action": {"type": "pass"}}, "not_playing")
        next_starter = mirror.game.next_starter()
        await due_at(server, watch, BETWEEN)
        started = await watch.next_event()
        assert (started["kind"], started["data"]["round"], started["data"]["starter"]) == (
            "round_started",
            1,
            next_starter,
        )
        mirror.follow(started)

        await round_ends(1)
        await clients[0].ok({"type": "ready"})
        assert (await watch.next_event())["data"] == {"seat": 0}
        await watch.quiet()
        await clients[1].ok({"type": "ready"})  # every human is ready: no need to wait
        assert (await watch.next_event())["data"] == {"seat": 1}
        started = await watch.next_event()
        assert (started["kind"], started["data"]["round"]) == ("round_started", 2)
        await close_all(*clients.values())

    run(scenario)


# 6. Quick match ("Jugar ahora") --------------------------------------------------------


def matched_frame(client: Client) -> dict[str, Any] | None:
    return next((f for f in client.frames if f["type"] == "matched"), None)


async def matched(client: Client) -> dict[str, Any]:
    """The `matched` message, waiting for it."""
    return await client.wait_for(lambda: matched_frame(client))


async def check_quick_table(server: LiveServer, client: Client, matched: dict[str, Any], players: int) -> Any:
    assert set(matched) == {"type", "table", "seat", "token"}
    answer = await client.hello(matched["table"], matched["token"])
    assert answer["type"] == "ack" and answer["seat"] == matched["seat"]
    sync = next(f for f in client.frames if f["type"] == "sync")
    rules = sync["rules"]
    assert (sync["kind"], rules["preset_name"], rules["players"], rules["mode"], rules["target"]) == (
        "quick",
        "clasico",
        players,
        "individual",
        100,
    )
    table = table_of(server, matched["table"])
    defaults = server.settings.table_defaults()
    assert {key: getattr(table.options, key) for key in defaults} == defaults
    return sync


def test_quick_match_pairs_four_at_once_two_after_the_wait_and_bots_only_on_request() -> None:
    async def scenario(server: LiveServer) -> None:
        accounts = [make_account(server, f"jugador{i}") for i in range(7)]
        clients = [Client(server, headers=headers) for _, headers in accounts]
        for client in clients:
            await client.connect()

        # Four waiting: one table of four, at once.
        for client in clients[:4]:
            await client.ok({"type": "quick_match"})
        four = [await matched(c) for c in clients[:4]]
        assert len({m["table"] for m in four}) == 1
        assert sorted(m["seat"] for m in four) == [0, 1, 2, 3]
        for client, found in zip(clients[:4], four, strict=True):
            sync = await check_quick_table(server, client, found, 4)
        assert sorted(s["name"] for s in sync["seats"]) == [f"jugador{i}" for i in range(4)]
        assert all(s["kind"] == "human" for s in sync["seats"]) and sync["phase"] == "playing"

        # Two waiting: a table of two only once the first has waited quick_match_wait_seconds.
        tables_before = len(server.state.registry.tables)
        for client in clients[4:6]:
            await client.ok({"type": "quick_match"})
        server.advance(QUICK_WAIT - 1)
        for client in clients[4:6]:
            await client.ok({"type": "ping"})
            assert matched_frame(client) is None
        assert len(server.state.registry.tables) == tables_before
        server.advance(1)
        two = [await matched(c) for c in clients[4:6]]
        assert len({m["table"] for m in two}) == 1 and sorted(m["seat"] for m in two) == [0, 1]
        for client, found in zip(clients[4:6], two, strict=True):
            sync = await check_quick_table(server, client, found, 2)
        assert [s["kind"] for s in sync["seats"]] == ["human", "human"]

        # One alone, without bots: stays waiting however long, and no table is made.
        alone = clients[6]
        tables_before = len(server.state.registry.tables)
        await alone.ok({"type": "quick_match"})
        server.advance(QUICK_WAIT)
        server.advance(10 * QUICK_WAIT)
        await alone.ok({"type": "ping"})
        assert matched_frame(alone) is None
        assert len(server.state.registry.tables) == tables_before
        assert (await alone.ok({"type": "cancel_quick_match"}))["cancelled"] is True
        assert (await alone.ok({"type": "cancel_quick_match"}))["cancelled"] is False

        # With bots asked for: after the wait, a table of two against a bot.
        await alone.ok({"type": "quick_match", "with_bots": True})
        server.advance(QUICK_WAIT - 1)
        await alone.ok({"type": "ping"})
        assert matched_frame(alone) is None
        server.advance(1)
        found = await matched(alone)
        assert found["seat"] == 0
        sync = await check_quick_table(server, alone, found, 2)
        assert [s["kind"] for s in sync["seats"]] == ["human", "bot"]
        # Without an account there is no quick match.
        async with Client(server) as guest:
            await guest.refused({"type": "quick_match"}, "login_required")
        await close_all(*clients)

    run(scenario)


def test_quick_match_lone_waiting_player_arms_no_timer_that_is_already_due() -> None:
    """A lone player without bots can only be matched by someone joining: no timer may stay
    armed at a time already past (with the real clock that re-fires at once, for ever)."""

    async def scenario(server: LiveServer) -> None:
        _, headers = make_account(server, "solo")
        async with Client(server, headers=headers) as alone:
            await alone.ok({"type": "quick_match"})
            server.advance(QUICK_WAIT)
            server.advance(1)
            await alone.ok({"type": "ping"})
            clock = server.settings.clock
            assert isinstance(clock, FakeClock)

            async def due() -> int:
                return len(
                    [when for when, _, t, _ in clock._timers if not t.cancelled and when <= clock.now()]
                )

            assert server.on_server(due) == 0
            assert matched_frame(alone) is None

    run(scenario)


def test_quick_match_seats_each_waiting_player_once_when_a_join_meets_the_due_timer(tmp_path: Path) -> None:
    """A join arriving while the due timer's matching is still writing to the database must
    not seat the same two players at a second table."""

    async def scenario(server: LiveServer) -> None:
        accounts = [make_account(server, name) for name in ("uno", "dos")]
        clients = [Client(server, headers=headers) for _, headers in accounts]
        for client in clients:
            await client.connect()
            await client.ok({"type": "quick_match"})
        state = server.state
        third: list[dict[str, Any]] = []
        tables_before = len(state.registry.tables)

        async def race() -> None:
            before = asyncio.all_tasks()
            state.settings.clock.advance(QUICK_WAIT)  # the due timer starts a matching task
            matching = asyncio.all_tasks() - before
            assert len(matching) == 1
            await state.quick.join(999, "tres", third.append, False)
            await asyncio.gather(*matching)

        server.on_server(race)
        for client in clients:
            await matched(client)
            await client.ok({"type": "ping"})
        assert [len([f for f in c.frames if f["type"] == "matched"]) for c in clients] == [1, 1]
        assert len(state.registry.tables) == tables_before + 1
        assert third == []

        async def still_waiting() -> list[str]:
            return [w.name for w in state.quick.waiting]

        assert server.on_server(still_waiting) == ["tres"]  # nobody dropped from the queue
        await close_all(*clients)

    run(scenario, database_url=f"sqlite+aiosqlite:///{tmp_path / 'quick.db'}")


# 7. Private invite -------------------------------------------------------------------------


def test_private_table_seats_by_invite_only_and_the_host_fills_it_with_bots() -> None:
    async def scenario(server: LiveServer) -> None:
        (host_id, host_headers), (_, guest_headers), (_, outsider_headers) = (
            make_account(server, name) for name in ("anfitriona", "invitado", "colado")
        )
        state = server.state
        rules = Rules.preset("clasico")  # 4 in pairs

        async def create() -> tuple[str, str]:
            options = TableOptions(
                kind=TableKind.PRIVATE, host_user_id=host_id, **state.settings.table_defaults()
            )
            table = await state.registry.create(rules, options)
            assert table.options.invite_code is not None
            return table.table_id, table.options.invite_code

        table, invite = server.on_server(create)
        assert len(invite) >= 16
        host, guest, outsider = (
            Client(server, headers=h) for h in (host_headers, guest_headers, outsider_headers)
        )
        anonymous, spectator = Client(server), Client(server)
        for client in (host, guest, outsider, anonymous, spectator):
            await client.connect()

        await spectator.refused({"type": "hello", "table": table}, "no_spectators")  # the default policy
        await outsider.refused({"type": "sit", "table": table}, "bad_invite")
        await outsider.refused({"type": "sit", "invite": "x" * len(invite)}, "bad_invite")
        await anonymous.refused({"type": "sit", "invite": invite}, "login_required")
        assert httpx.get(server.http + "/api/lobby").json() == []

        seated = await host.ok({"type": "sit", "invite": invite, "seat": 0})
        assert (seated["table"], seated["seat"]) == (table, 0)
        joined_guest = await guest.ok({"type": "sit", "invite": invite})
        assert (joined_guest["table"], joined_guest["seat"]) == (table, 1)
        await guest.refused({"type": "sit", "invite": invite}, "already_seated")
        assert (await host.hello(table, seated["token"]))["seat"] == 0
        assert (await guest.hello(table, joined_guest["token"]))["seat"] == 1
        sync = next(f for f in host.frames if f["type"] == "sync")
        assert sync["phase"] == "waiting"
        assert [s["kind"] for s in sync["seats"]] == ["human", "human", "empty", "empty"]

        await guest.refused({"type": "fill_bots", "level": "greedy"}, "not_host")
        await host.refused({"type": "fill_bots", "level": "nadie"}, "unknown_bot")
        await host.ok({"type": "fill_bots", "level": "greedy"})
        seats = [await host.until("seat", seat=seat) for seat in (2, 3)]
        assert [(s["data"]["kind"], s["data"]["bot_level"]) for s in seats] == [("bot", "greedy")] * 2
        assert (await host.next_event())["kind"] == "game_started"
        started = await host.next_event()
        assert started["kind"] == "round_started" and len(started["data"]["hand"]) == 7
        await outsider.refused({"type": "sit", "invite": invite}, "started")
        await spectator.refused({"type": "hello", "table": table}, "no_spectators")  # the default policy
        await close_all(host, guest, outsider, anonymous, spectator)

    run(scenario)


def test_private_table_starts_when_invited_humans_take_every_seat() -> None:
    async def scenario(server: LiveServer) -> None:
        (host_id, host_headers), (_, guest_headers) = (make_account(server, n) for n in ("ana", "beto"))
        state = server.state

        async def create() -> tuple[str, str]:
            options = TableOptions(
                kind=TableKind.PRIVATE, host_user_id=host_id, **state.settings.table_defaults()
            )
            table = await state.registry.create(TWO, options)
            return table.table_id, str(table.options.invite_code)

        table, invite = server.on_server(create)
        async with (
            Client(server, headers=host_headers) as host,
            Client(server, headers=guest_headers) as guest,
        ):
            seat = await host.ok({"type": "sit", "invite": invite})
            await host.hello(table, seat["token"])
            await guest.ok({"type": "sit", "invite": invite})
            await host.until("game_started")
            assert (await host.next_event())["kind"] == "round_started"

    run(scenario)


# 8. Annul by vote (as on the Minitorneos rules page) -------------------------------------------


def test_annul_needs_every_human_a_no_clears_the_votes_and_bots_do_not_vote() -> None:
    async def scenario(server: LiveServer) -> None:
        table, tokens = open_table(server, FOUR, [0, 2], bot_level="greedy")
        first, second = [await joined(server, table, tokens[seat]) for seat in (0, 2)]

        async def votes_seen() -> list[tuple[int, bool]]:
            await first.settle()
            return [(e["data"]["seat"], e["data"]["agree"]) for e in first.events if e["kind"] == "vote"]

        await first.ok({"type": "vote", "agree": True})
        await second.ok({"type": "vote", "agree": False})
        assert await votes_seen() == [(0, True), (2, False)]
        assert (await peek(server, table, tokens[0]))["votes"] == []
        await second.ok({"type": "vote", "agree": True})  # the "no" cleared the first "yes"
        assert (await peek(server, table, tokens[0]))["votes"] == [2]
        assert not [e for e in first.events if e["kind"] in ("annulled", "game_ended")]

        await first.ok({"type": "vote", "agree": True})  # both humans; the two bots never vote
        annulled = await first.until("annulled")
        assert annulled["data"] == {"votes": [0, 2]}
        ended = await first.next_event()
        assert ended["kind"] == "game_ended"
        assert ended["data"]["reason"] == "annulled" and ended["data"]["winners"] == []
        assert (await second.until("game_ended"))["data"] == ended["data"]
        await first.refused({"type": "act", "action": {"type": "pass"}}, "not_playing")
        await second.refused({"type": "vote", "agree": True}, "not_playing")

        async def statuses() -> list[str]:
            return [row.table_id for row in await server.state.store.tables(("annulled",))]

        assert server.on_server(statuses) == [table]
        await close_all(first, second)

    run(scenario)


# 9. Quick phrases --------------------------------------------------------------------------


def test_quick_phrases_reach_everybody_and_nothing_else_can_be_said() -> None:
    async def scenario(server: LiveServer) -> None:
        table, tokens = open_table(server, TWO, [0, 1], kind=TableKind.PUBLIC)
        speaker, listener = [await joined(server, table, tokens[seat]) for seat in (0, 1)]
        spectator = await joined(server, table)
        everybody = (speaker, listener, spectator)

        await speaker.ok({"type": "phrase", "phrase": "buena"})
        for client in everybody:
            assert (await client.until("phrase"))["data"] == {"seat": 0, "phrase": "buena"}
        await speaker.refused({"type": "phrase", "phrase": "gracias"}, "too_fast")
        for unlisted in ("hola", PHRASES["buena"], "pasa el 6-6"):
            server.advance(2)
            await speaker.refused({"type": "phrase", "phrase": unlisted}, "unknown_phrase")
        await speaker.refused({"type": "phrase", "phrase": "gracias", "text": "tengo el 6-6"}, "bad_message")
        # A public table of strangers has no chat (docs/protocol.md, «Table talk»).
        await speaker.refused({"type": "chat", "text": "tengo el 6-6"}, "chat_closed")
        await speaker.refused({"type": "phrase"}, "bad_message")
        await spectator.refused({"type": "phrase", "phrase": "gracias"}, "spectator")
        await listener.ok({"type": "phrase", "phrase": "rapido"})
        for client in everybody:
            assert (await client.until("phrase"))["data"] == {"seat": 1, "phrase": "rapido"}
            await client.settle()
            assert [e for e in client.unread() if e["kind"] == "phrase"] == []
            assert len([e for e in client.events if e["kind"] == "phrase"]) == 2
        await close_all(*everybody)

    run(scenario)


# 10. Spectators see only public information -----------------------------------------------


def draws_by_both(seeds: list[bytes]) -> bool:
    game = new_game(TWO, seeds)
    scripted_until(game, lambda g: False)
    drawers = {seat for _, seat, action in game.actions if isinstance(action, Draw)}
    return drawers == {0, 1}


def test_spectator_of_a_public_table_gets_only_public_information() -> None:
    seeds = find_seeds("spectator", draws_by_both)

    async def scenario(server: LiveServer) -> None:
        table, tokens = open_table(server, TWO, [0, 1], kind=TableKind.PUBLIC, seeds=seeds, start=False)
        mirror = Mirror(TWO, seeds)
        clients = {seat: await joined(server, table, tokens[seat]) for seat in (0, 1)}
        spectator = await joined(server, table)
        start_game(server, table)
        await spectator.until("turn")
        spectator.cursor = 0
        # A spectator arriving mid-round: no hand, no legal actions, nothing revealed.
        sync = await peek(server, table, None)
        assert sync["you"] is None and sync["view"]["hand"] == [] and sync["view"]["legal_actions"] == []
        assert sync["view"]["revealed_hands"] is None and tiles_in(sync) == set()
        for refused in (
            {"type": "act", "action": {"type": "draw"}},
            {"type": "ready"},
            {"type": "vote", "agree": True},
        ):
            await spectator.refused(refused, "spectator")

        await drive(spectator, clients, mirror)
        # Every frame before the round's end names only tiles already on the line.
        public: set[str] = set()
        for frame in spectator.frames:
            if frame.get("kind") == "round_ended":
                break
            if frame.get("kind") == "action" and frame["data"]["action"]["type"] == "play":
                public.add(frame["data"]["action"]["tile"])
            assert tiles_in(frame) <= public, frame
            if frame.get("kind") == "round_started":
                assert frame["data"]["hand"] is None
            if frame.get("kind") == "seat":
                assert set(frame["data"]) == {"seat", "name", "kind", "state", "bot_level"}
        draws = [
            e for e in spectator.events if e["kind"] == "action" and e["data"]["action"]["type"] == "draw"
        ]
        assert draws and all("drawn" not in e["data"] for e in draws)
        for seat, client in clients.items():
            await client.until("round_ended")
            mine = [e for e in client.events if e["seq"] in {d["seq"] for d in draws}]
            assert [("drawn" in e["data"]) for e in mine] == [e["data"]["seat"] == seat for e in mine]
        await close_all(spectator, *clients.values())

    run(scenario)


def test_practice_table_refuses_spectators() -> None:
    async def scenario(server: LiveServer) -> None:
        seated = server.post("/api/practice", {"preset": "clasico", "bot_level": "greedy"})
        async with Client(server) as stranger:
            await stranger.refused({"type": "hello", "table": seated["table"]}, "private")
            await stranger.refused(
                {"type": "hello", "table": seated["table"], "token": "x" * 32}, "bad_token"
            )

    run(scenario)


def test_mirror_seeds_give_the_dealt_hands() -> None:
    """The helpers' premise: a table dealt from fixed seeds deals what the mirror deals."""
    seeds = find_seeds("premise", lambda s: True)

    async def scenario(server: LiveServer) -> None:
        table, tokens = open_table(server, TWO, [0, 1], seeds=seeds)
        mirror = Mirror(TWO, seeds)
        for seat in (0, 1):
            async with Client(server) as client:
                await client.hello(table, tokens[seat])
                sync = next(f for f in client.frames if f["type"] == "sync")
                assert sorted(sync["view"]["hand"]) == sorted(str(t) for t in mirror.game.round.hands[seat])
                assert sync["commitment"] == hashlib.sha256(seeds[0] + salt_for(seeds[0])).hexdigest()

    run(scenario)
