"""R17 over the wire: no frame tells anybody a tile they may not know (the "leak scanner").

Hundreds of whole games run at once on one real server, with bots, scripted people and a
spectator at every table (some join late, some drop their socket and resume by event
number). Afterwards the scanner reads each table's stored log, the referee's truth with
every hand and every drawn tile, and replays what each receiver was allowed to know at each
frame it got: its own hand and draws, the tiles on the line, and every hand once the round
has ended. Any other tile in any frame is a leak; so is a round's seed or salt before that
round ended, and any seat token or its hash, ever.

Practice tables with two people, each asking for hints («Pista») on many turns, are
scanned the same way: the tile a hint suggests is the asker's, and no one else's frames may
carry it.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.server.support.harness import LiveServer, Message
from tests.server.support.scripted import (
    ScriptedClient,
    game_settings,
    seat_table,
    start_table,
    stored_events,
)
from tranque.engine import Rules
from tranque.engine.presets import PRESETS
from tranque.server.store import StoredEvent
from tranque.server.table.log import visible
from tranque.server.table.state import TableKind

TILE = re.compile(r"^\d-\d$")
GAMES = 200
AT_ONCE = 25


# The truth ------------------------------------------------------------------------------


@dataclass
class Truth:
    """What one receiver may know after each event number, from the referee's log."""

    known: list[frozenset[str]]  # known[seq]: tiles it may have seen once event seq is out
    hidden: list[frozenset[str]]  # hidden[seq]: secrets no frame may carry yet at that point


def truth(events: list[StoredEvent], viewer: int | None, never: frozenset[str]) -> Truth:
    secrets_of = {
        event.data["round"]: {event.data["seed"], event.data["salt"]}
        for event in events
        if event.kind == "round_started"
    }
    unrevealed = set().union(*secrets_of.values()) if secrets_of else set()
    known: set[str] = set()
    known_at, hidden_at = [frozenset[str]()], [frozenset(unrevealed | never)]
    for event in events:
        data = event.data
        if event.kind == "round_started":
            known = set(data["hands"][viewer]) if viewer is not None else set()
        elif event.kind == "action":
            if data["action"]["type"] == "play":
                known.add(data["action"]["tile"])
            elif data["seat"] == viewer and data["drawn"] is not None:
                known.add(data["drawn"])
        elif event.kind == "round_ended":
            known.update(tile for hand in data["hands"] for tile in hand)
            unrevealed -= secrets_of[data["round"]]
        known_at.append(frozenset(known))
        hidden_at.append(frozenset(unrevealed | never))
    return Truth(known_at, hidden_at)


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def leaks_in(stream: list[Message], knowledge: Truth) -> list[str]:
    """Scan one socket's frames in order; a description of each leak found."""
    found = []
    seq = 0
    for frame in stream:
        if frame.get("type") in ("sync", "event"):
            seq = frame["seq"]
        tiles = {text for text in strings(frame) if TILE.match(text)}
        for tile in sorted(tiles - knowledge.known[seq]):
            found.append(f"tile {tile} at seq {seq}: {frame}")
        text = json.dumps(frame)
        found += [f"secret at seq {seq}: {frame}" for secret in knowledge.hidden[seq] if secret in text]
    return found


def scan(events: list[StoredEvent], client: ScriptedClient, never: frozenset[str]) -> list[str]:
    knowledge = truth(events, client.seat, never)
    return [leak for stream in client.streams for leak in leaks_in(stream, knowledge)]


def never_sent(events: list[StoredEvent], tokens: dict[int, str]) -> frozenset[str]:
    """Seat tokens and their hashes: no frame may ever carry one."""
    hashes = {str(e.data["token_hash"]) for e in events if e.kind == "seat" and e.data.get("token_hash")}
    return frozenset(hashes | set(tokens.values()))


# The games ------------------------------------------------------------------------------


@dataclass
class Plan:
    preset: str
    players: int
    mode: str
    overrides: dict[str, Any]
    humans: list[int]
    bot_level: str
    late_spectator: bool
    reconnect: bool
    rules: Rules = field(init=False)

    def __post_init__(self) -> None:
        self.rules = Rules.preset(self.preset, players=self.players, mode=self.mode, **self.overrides)


def plans(count: int, rng: random.Random) -> list[Plan]:
    """`count` games over every preset, player count and mode, most of them to short targets."""
    seatings = [
        (name, players, mode.value)
        for name, preset in PRESETS.items()
        for players, modes in sorted(preset.seatings.items())
        for mode in modes
    ]
    made = []
    for number in range(count):
        name, players, mode = seatings[number % len(seatings)]
        overrides: dict[str, Any] = {}
        if number % 5:  # four games in five are short; the fifth plays to the preset's target
            overrides["target"] = 8 if name == "ponce" else 30
            if name == "futbol":
                overrides["goals_to_win"] = 2
        humans = rng.sample(range(players), k=1 if players == 2 or number % 3 else 2)
        made.append(
            Plan(
                name,
                players,
                mode,
                overrides,
                sorted(humans),
                rng.choice(["greedy", "random"]),
                late_spectator=number % 4 == 1,
                reconnect=number % 3 == 2,
            )
        )
    return made


@dataclass
class Played:
    table: str
    tokens: dict[int, str]
    clients: list[ScriptedClient]


async def play(server: LiveServer, plan: Plan, number: int) -> Played:
    table, tokens = await asyncio.to_thread(seat_table, server, plan.rules, plan.humans, plan.bot_level)
    rng = random.Random(number)
    people = [
        ScriptedClient(
            server,
            table,
            token,
            rng=random.Random(number * 10 + seat),
            compression=False,
            autoplay_forced=rng.random() < 0.3,
            reconnect_after=rng.randrange(20, 200) if plan.reconnect else None,
        )
        for seat, token in tokens.items()
    ]
    spectator = ScriptedClient(
        server,
        table,
        compression=False,
        reconnect_after=rng.randrange(20, 200) if plan.reconnect else None,
    )
    clients = [*people, spectator]
    watching_from_start = people if plan.late_spectator else clients
    for client in watching_from_start:
        await client.player.connect()
        await client.join()
    await start_table(server, table)
    if plan.late_spectator:
        await spectator.player.connect()
    try:
        await asyncio.gather(*(client.play() for client in clients))
    finally:
        for client in clients:
            await client.player.close()
    return Played(table, tokens, clients)


@dataclass
class Tally:
    games: int = 0
    frames: int = 0
    receivers: int = 0
    leaks: list[str] = field(default_factory=list)
    presets: set[tuple[str, int, str]] = field(default_factory=set)


async def play_and_scan(server: LiveServer, plan: Plan, number: int, tally: Tally) -> None:
    played = await play(server, plan, number)
    events = await asyncio.to_thread(stored_events, server, played.table)
    assert any(event.kind == "game_ended" for event in events)
    never = never_sent(events, played.tokens)
    for client in played.clients:
        tally.leaks += scan(events, client, never)
        tally.frames += sum(len(stream) for stream in client.streams)
        tally.receivers += 1
        seqs = client.event_seqs()
        assert seqs == list(range(seqs[0], seqs[-1] + 1)), "a receiver missed or repeated an event"
    tally.games += 1
    tally.presets.add((plan.preset, plan.players, plan.mode))


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with LiveServer(game_settings()) as live:
        yield live


def test_R17_scanner_finds_planted_leaks(server: LiveServer) -> None:
    """The scanner is evidence only if it can fail: plant each kind of leak in a real stream."""
    plan = Plan("clasico", 4, "pairs", {"target": 30}, [0], "greedy", late_spectator=False, reconnect=False)
    played = asyncio.run(play(server, plan, 0))
    events = stored_events(server, played.table)
    never = never_sent(events, played.tokens)
    person, spectator = played.clients
    assert scan(events, person, never) == scan(events, spectator, never) == []

    started = next(e for e in events if e.kind == "round_started")
    ended = next(e for e in events if e.kind == "round_ended")
    first_play = next(e for e in events if e.kind == "action" and e.data["action"]["type"] == "play")
    partner_tile = next(t for t in started.data["hands"][2] if t != first_play.data["action"]["tile"])
    token_hash = next(e.data["token_hash"] for e in events if e.kind == "seat" and e.data["token_hash"])
    planted = [
        ("a partner's tile", started.seq, {"note": [{"deep": partner_tile}]}),
        ("a seat's own tile, to a spectator", started.seq, {partner_tile: 1}),
        ("a seed before its round ended", ended.seq - 1, {"x": "seed:" + started.data["seed"]}),
        ("a salt before its round ended", started.seq, {"salt": started.data["salt"]}),
        ("a token hash", ended.seq, {"token_hash": token_hash}),
        ("a token", ended.seq, {"t": played.tokens[0]}),
    ]
    for what, seq, data in planted:
        frame = {"type": "event", "seq": seq, "kind": "phrase", "data": data}
        viewer = spectator if "spectator" in what else person
        knowledge = truth(events, viewer.seat, never)
        assert leaks_in([frame], knowledge), what
    # What may be said: one's own hand at once; the line; every hand once the round is over.
    own = started.data["hands"][0]
    allowed = [
        (started.seq, own),
        (first_play.seq, [first_play.data["action"]["tile"]]),
        (ended.seq, [t for hand in ended.data["hands"] for t in hand] + [started.data["seed"]]),
    ]
    knowledge = truth(events, 0, never)
    for seq, tiles in allowed:
        assert leaks_in([{"type": "event", "seq": seq, "data": tiles}], knowledge) == []


def test_R17_no_frame_to_any_seat_or_spectator_leaks_a_tile_in_200_games(server: LiveServer) -> None:
    tally = Tally()
    all_plans = plans(GAMES, random.Random(17))

    async def run_all() -> None:
        gate = asyncio.Semaphore(AT_ONCE)

        async def one(number: int, plan: Plan) -> None:
            async with gate:
                await play_and_scan(server, plan, number, tally)

        await asyncio.gather(*(one(number, plan) for number, plan in enumerate(all_plans)))

    asyncio.run(run_all())
    print(f"leak scan: {tally.games} games, {tally.receivers} receivers, {tally.frames} frames")
    assert tally.leaks == []
    assert tally.games == GAMES
    assert len(tally.presets) == len({(p.preset, p.players, p.mode) for p in all_plans})
    assert tally.frames > 100 * GAMES


# Hints at practice tables: the suggested tile is the asker's alone --------------------------

HINT_GAMES = 12
# (preset, players, mode, the people's seats): partners, opponents, and a lone pair of rivals.
HINT_SEATINGS = [
    ("clasico", 4, "pairs", [0, 2]),
    ("clasico", 4, "pairs", [0, 1]),
    ("clasico", 2, "individual", [0, 1]),
    ("ponce", 4, "pairs", [1, 3]),
    ("en-contra", 3, "individual", [0, 2]),
    ("sin-pozo", 4, "pairs", [2, 3]),
]


async def play_with_hints(server: LiveServer, number: int) -> Played:
    """A practice game with two people who ask for a hint before most of their moves."""
    name, players, mode, humans = HINT_SEATINGS[number % len(HINT_SEATINGS)]
    target = {"target": 8} if name == "ponce" else {"target": 30}
    rules = Rules.preset(name, players=players, mode=mode, **target)
    table, tokens = await asyncio.to_thread(seat_table, server, rules, humans, "greedy", TableKind.PRACTICE)
    people = [
        ScriptedClient(
            server,
            table,
            token,
            rng=random.Random(number * 10 + seat),
            compression=False,
            reconnect_after=60 if number % 3 == 2 else None,
            hints=0.7,
        )
        for seat, token in tokens.items()
    ]
    for person in people:
        await person.player.connect()
        await person.join()
    await start_table(server, table)
    try:
        await asyncio.gather(*(person.play() for person in people))
    finally:
        for person in people:
            await person.player.close()
    return Played(table, tokens, people)


def test_R17_a_hint_tells_its_tile_to_the_asker_and_to_nobody_else(server: LiveServer) -> None:
    async def run_all() -> list[Played]:
        return list(await asyncio.gather(*(play_with_hints(server, number) for number in range(HINT_GAMES))))

    leaks: list[str] = []
    hints = planted = 0
    for played in asyncio.run(run_all()):
        events = stored_events(server, played.table)
        assert events[-1].kind == "game_ended"
        never = never_sent(events, played.tokens)
        given = [event for event in events if event.kind == "hint"]
        assert len(given) == sum(len(person.hints_given) for person in played.clients)
        hints += len(given)
        for person in played.clients:
            leaks += scan(events, person, never)
            for frame in (f for stream in person.streams for f in stream):
                if frame.get("kind") == "hint":
                    assert ("action" in frame["data"]) == (frame["data"]["seat"] == person.seat), frame
        # The scan would see it: the asker's own frame of a hint to play a tile, sent to the
        # other person while that tile is still in the asker's hand, is a leak.
        knowledge = {person.seat: truth(events, person.seat, never) for person in played.clients}
        for event in given:
            shown = visible(event, event.data["seat"])
            tile = shown["data"]["action"].get("tile")
            (other,) = [seat for seat in knowledge if seat != event.data["seat"]]
            if tile is not None and tile not in knowledge[other].known[event.seq]:
                assert leaks_in([shown], knowledge[other]), shown
                planted += 1
    print(f"hint scan: {HINT_GAMES} games, {hints} hints, {planted} planted leaks found")
    assert leaks == []
    assert hints >= 10 * HINT_GAMES
    assert planted >= HINT_GAMES
