"""The line's geometry (`tranque.server.table.line_layout`) and the protocol fields that carry it.

Properties over whole random hands of every preset (double-six and double-nine) and over
long lines of distinct tiles: no box overlaps another, no box moves once placed, each box
touches its neighbour at the end's point with the matching pips on both sides, and the board
stays within a fixed width. Then a real game over WebSockets: every play event carries the
box its tile lies in, and a sync (a fresh connection, as after a reconnect) gives the same
boxes the events gave.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.server.support.harness import LiveServer, Player
from tests.server.support.scripted import ScriptedClient, game_settings, stored_events
from tranque.engine import Game, Rules
from tranque.engine.presets import PRESETS
from tranque.server.table.line_layout import (
    HALF_WIDTH,
    Box,
    End,
    LayoutError,
    Plays,
    Snake,
    lay_out,
    plays_of,
)

Play = tuple[str, str | None]
Rect = tuple[float, float, float, float]


def seatings() -> list[tuple[str, int]]:
    """Every preset with every player count it allows (5 and 6 players play double-nine)."""
    return [(name, players) for name, preset in PRESETS.items() for players in sorted(preset.seatings)]


# Geometry checks ------------------------------------------------------------------------------


def rect(box: Box) -> Rect:
    return box.x, box.y, box.x + box.w, box.y + box.h


def overlap(a: Rect, b: Rect) -> bool:
    """Interiors intersect (sharing an edge is touching, not overlapping)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def halves(box: Box) -> list[tuple[Rect, int]]:
    x0, y0, x1, y1 = rect(box)
    if box.vertical:
        middle = (y0 + y1) / 2
        return [((x0, y0, x1, middle), box.pips[0]), ((x0, middle, x1, y1), box.pips[1])]
    middle = (x0 + x1) / 2
    return [((x0, y0, middle, y1), box.pips[0]), ((middle, y0, x1, y1), box.pips[1])]


def on_edge(x: float, y: float, r: Rect) -> bool:
    inside = r[0] <= x <= r[2] and r[1] <= y <= r[3]
    return inside and (x in (r[0], r[2]) or y in (r[1], r[3]))


def touching_pips(box: Box, end: End) -> set[int]:
    """The pips of the halves of `box` whose edge holds the end's point."""
    return {pips for half, pips in halves(box) if on_edge(end.x, end.y, half)}


def check_line(plays: Sequence[Play]) -> Snake:
    """Lay `plays` out one by one, asserting every property after each play."""
    snake = Snake()
    placed: list[Box] = []  # every box as `place` returned it
    neighbours: dict[str, Box] = {}  # the box at each end: (side) -> box
    for tile, side in plays:
        before = snake.ends
        box = snake.place(tile, side)
        high, low = (int(n) for n in tile.split("-"))
        assert box.tile == tile and sorted(box.pips) == sorted((high, low))
        assert {box.w, box.h} == {1, 2}
        if high == low:  # a double stands across its run (the lead's run is horizontal)
            assert box.vertical == (before is None or before[0 if side == "left" else 1].dir.horizontal)
        for other in placed:
            assert not overlap(rect(box), rect(other)), (box, other)
        if before is not None:
            assert side is not None
            end = before[0 if side == "left" else 1]
            neighbour = neighbours[side]
            # The new box and its neighbour meet at the end's point, the end's number on both.
            assert touching_pips(box, end) == {end.pips}, (box, end)
            assert touching_pips(neighbour, end) == {end.pips}, (neighbour, end)
            assert end.pips in (high, low)
            after = snake.ends
            assert after is not None
            assert after[0 if side == "left" else 1].pips == high + low - end.pips
        else:
            neighbours["left"] = neighbours["right"] = box
        neighbours[side or "left"] = box
        placed.append(box)
        # No box ever moves: the line's boxes now are exactly the ones returned when placed.
        assert sorted(map(rect, snake.boxes)) == sorted(map(rect, placed))
        for laid in snake.boxes:
            assert laid.x >= -HALF_WIDTH and laid.x + laid.w <= HALF_WIDTH, laid
    return snake


def random_round(name: str, players: int, seed: int) -> tuple[Plays, Game]:
    """A whole round of `name` with random legal moves; its plays and the game."""
    game = Game(Rules.preset(name, players=players), seed=seed)
    choose = random.Random(seed)
    round_ = game.round
    while not round_.is_over:
        round_.apply(choose.choice(round_.legal_actions()))
    return plays_of(round_.full_events), game


# Long lines of distinct tiles (up to the longest a set allows) -------------------------------


def longest_trail(set_max: int, rng: random.Random) -> list[tuple[int, int]]:
    """A random line using as many tiles of the double-`set_max` set as one line can (all 28
    of double-six; double-nine has ten odd numbers, so four tiles must stay out: 51)."""
    edges = [(a, b) for a in range(set_max + 1) for b in range(a, set_max + 1)]
    degree = dict.fromkeys(range(set_max + 1), 0)
    for a, b in edges:
        degree[a] += 1
        degree[b] += 1
    odd = [n for n in degree if degree[n] % 2]
    rng.shuffle(odd)
    for a, b in zip(odd[2::2], odd[3::2], strict=True):  # leave out a tile between paired odd numbers
        edges.remove((min(a, b), max(a, b)))
    adjacency: dict[int, list[tuple[int, int]]] = {n: [] for n in degree}
    for index, (a, b) in enumerate(edges):
        adjacency[a].append((b, index))
        if a != b:
            adjacency[b].append((a, index))
    for neighbours in adjacency.values():
        rng.shuffle(neighbours)
    used = [False] * len(edges)
    start = odd[0] if odd else rng.randrange(set_max + 1)
    stack: list[tuple[int, tuple[int, int] | None]] = [(start, None)]
    trail: list[tuple[int, int]] = []
    while stack:  # Hierholzer's walk
        vertex, via = stack[-1]
        while adjacency[vertex] and used[adjacency[vertex][-1][1]]:
            adjacency[vertex].pop()
        if adjacency[vertex]:
            other, index = adjacency[vertex].pop()
            used[index] = True
            stack.append((other, (vertex, other)))
        else:
            stack.pop()
            if via is not None:
                trail.append(via)
    trail.reverse()
    assert len(trail) == len(edges)
    return trail


def plays_from_trail(trail: list[tuple[int, int]], rng: random.Random) -> list[Play]:
    """The trail (left to right) played from a random lead outwards, ends chosen at random."""
    lead = rng.randrange(len(trail))
    a, b = trail[lead]
    if a != b and (a, b) != (max(a, b), min(a, b)):  # the lead lies high half left: mirror the trail
        trail = [(q, p) for p, q in reversed(trail)]
        lead = len(trail) - 1 - lead
    name = [f"{max(p, q)}-{min(p, q)}" for p, q in trail]
    plays: list[Play] = [(name[lead], None)]
    left, right = lead - 1, lead + 1
    while left >= 0 or right < len(trail):
        if right >= len(trail) or (left >= 0 and rng.random() < 0.5):
            plays.append((name[left], "left"))
            left -= 1
        else:
            plays.append((name[right], "right"))
            right += 1
    return plays


# Tests ----------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seating=st.sampled_from(seatings()), seed=st.integers(0, 2**32 - 1))
def test_whole_random_hands_of_every_preset_never_overlap_move_or_break_the_width(
    seating: tuple[str, int], seed: int
) -> None:
    name, players = seating
    plays, game = random_round(name, players, seed)
    snake = check_line(plays)
    # The geometry's ends are the engine's ends: the layout follows the line the rules made.
    ends = snake.ends
    assert ends is not None
    assert (ends[0].pips, ends[1].pips) == game.round.ends
    assert [box.tile for box in snake.boxes] == [str(tile) for tile in game.round.line]


@settings(max_examples=40, deadline=None)
@given(set_max=st.sampled_from([6, 9]), seed=st.integers(0, 2**32 - 1))
def test_the_longest_lines_of_double_six_and_double_nine_keep_every_property(set_max: int, seed: int) -> None:
    rng = random.Random(seed)
    trail = longest_trail(set_max, rng)
    assert len(trail) == (28 if set_max == 6 else 51)
    plays = plays_from_trail(trail, rng)
    snake = check_line(plays)
    assert len(snake.boxes) == len(trail)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), length=st.integers(1, 55))
def test_lines_of_up_to_55_double_nine_tiles_keep_every_property(seed: int, length: int) -> None:
    """Any prefix of a long double-nine line (the plays in order), up to 55 tiles: the four
    tiles past the longest real line (51) repeat earlier ones (geometry never looks at the set)."""
    rng = random.Random(seed)
    plays = plays_from_trail(longest_trail(9, rng), rng)
    ends = lay_out(plays).ends
    assert ends is not None
    pips = ends[1].pips
    while len(plays) < 55:  # four more on the right end
        other = (pips + 1) % 10
        plays.append((f"{max(pips, other)}-{min(pips, other)}", "right"))
        pips = other
    check_line(plays[:length])


def test_the_width_stays_bounded_however_long_one_arm_grows() -> None:
    """Two hundred tiles on the right end alone (a synthetic chain): still within the width,
    the rows stacking downwards, none overlapping."""
    plays: list[Play] = [("6-5", None)]
    pips = 5
    for step in range(200):
        other = (pips + 1 + step % 3) % 7
        if other == pips:
            other = (other + 1) % 7
        plays.append((f"{max(pips, other)}-{min(pips, other)}", "right"))
        pips = other
    snake = check_line(plays)
    assert max(box.y for box in snake.boxes) > 40  # it went down, row after row
    assert min(box.x for box in snake.boxes) >= -HALF_WIDTH


def test_the_arms_turn_at_the_corners_and_come_back() -> None:
    """Straight until the reach, one tile around the corner, then back the other way."""
    plays: list[Play] = [("6-5", None), ("5-4", "right"), ("4-3", "right")]
    snake = lay_out(plays)
    assert [box.x for box in snake.boxes] == [-1, 1, 3]  # the lead in the middle, a straight run
    corner = snake.place("3-2", "right")  # one more would pass the reach: around the corner
    assert (corner.x, corner.y, corner.w, corner.h, corner.pips) == (5, -0.5, 1, 2, (3, 2))
    turn = snake.place("2-1", "right")  # and back along a row below
    assert (turn.x, turn.y, turn.w, turn.h, turn.pips) == (4, 1.5, 2, 1, (1, 2))
    back = snake.place("1-0", "right")
    assert (back.x, back.y, back.pips) == (2, 1.5, (0, 1))
    ends = snake.ends
    assert ends is not None and ends[1].to_json() == {"x": 2, "y": 2, "dir": "left", "pips": 0}
    # The left arm turns upwards at its own corner.
    for tile in ["6-6", "6-4", "4-2", "2-0"]:
        snake.place(tile, "left")
    assert snake.ends is not None and snake.ends[0].dir == "up"
    assert min(box.y for box in snake.boxes) < -1


def test_doubles_stand_across_a_straight_run() -> None:
    snake = lay_out([("6-5", None), ("5-5", "right"), ("6-6", "left")])
    left, lead, right = snake.boxes
    assert (left.w, left.h) == (1, 2) and (right.w, right.h) == (1, 2) and (lead.w, lead.h) == (2, 1)


def test_the_same_plays_give_the_same_boxes() -> None:
    plays, _ = random_round("clasico", 4, 7)
    assert lay_out(plays).boxes == lay_out(plays).boxes
    assert [box.to_json() for box in lay_out(plays).boxes] == [
        box.to_json() for box in lay_out(list(plays)).boxes
    ]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_line_grown_one_play_at_a_time_is_the_line_laid_whole_and_its_copies_grow_apart(seed: int) -> None:
    """A table grows its line by each play, and decides a play's place on a copy of it."""
    rng = random.Random(seed)
    plays = tuple(plays_from_trail(longest_trail(9, rng), rng))
    grown, copies = Snake(), []
    for n, (tile, side) in enumerate(plays, start=1):
        trial = grown.copy()
        assert trial.place(tile, side) == grown.place(tile, side)
        whole = lay_out(plays[:n])
        assert (grown.boxes, grown.ends, grown.last) == (whole.boxes, whole.ends, whole.last)
        copies.append(trial)
    for n, trial in enumerate(copies, start=1):  # growing the line changed none of its copies
        assert trial.boxes == lay_out(plays[:n]).boxes


def test_a_tile_that_does_not_fit_is_refused() -> None:
    snake = lay_out([("6-5", None)])
    with pytest.raises(LayoutError):
        snake.place("4-3", "right")
    with pytest.raises(LayoutError):
        snake.place("5-3", None)
    assert len(snake.boxes) == 1


# Over a real game -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with LiveServer(game_settings()) as live:
        yield live


@pytest.mark.parametrize(("preset", "players"), [("clasico", 2), ("clasico", 6)])
def test_play_events_and_syncs_over_a_real_game_carry_the_same_boxes(
    server: LiveServer, preset: str, players: int
) -> None:
    """A practice game to its end (double-six and, with six players, double-nine): on every
    turn the client compares the boxes it built from the play events with a fresh sync's
    `line` and `line_ends` (ScriptedClient's verify); it also drops its socket once and
    resumes. Every stored play's `place` is the box the layout gives its round's plays."""
    practice = server.post("/api/practice", {"preset": preset, "players": players, "bot_level": "greedy"})

    async def scenario() -> ScriptedClient:
        client = ScriptedClient(
            server,
            practice["table"],
            practice["token"],
            rng=random.Random(3),
            verify=True,
            reconnect_after=40,
        )
        async with client:
            await client.play()
        # A new connection after the end (as after a reload): its sync shows the last hand's
        # line exactly as the events built it.
        async with Player(server) as again:
            await again.send({"type": "hello", "table": practice["table"], "token": practice["token"]})
            sync = await again.expect(lambda m: m["type"] == "sync")
        assert client.boxes and sync["view"]["line"] == client.boxes
        assert sync["view"]["line_ends"] == client.line_ends
        return client

    client = asyncio.run(scenario())
    # Nearly every move it made was checked first, however long the game: the deals are
    # random, so a count of checks depends on how many moves this seat happened to make.
    assert client.views_checked > 0.9 * client.actions_acked > 0
    assert client.dropped, "the client reconnected once"
    events = stored_events(server, practice["table"])
    plays: list[Play] = []
    seen = 0
    for event in events:
        if event.kind == "round_started":
            plays = []
        if event.kind == "action" and event.data["action"]["type"] == "play":
            action = event.data["action"]
            plays.append((action["tile"], action["side"]))
            snake = lay_out(plays)
            assert snake.last is not None
            assert event.data["place"] == snake.last.to_json()
            assert event.data["line_ends"] == snake.ends_json()
            seen += 1
    assert seen > 10
    # What the events sent equals what they stored (the projection keeps both fields).
    frames = [f for stream in client.streams for f in stream if f.get("kind") == "action"]
    sent = [f["data"] for f in frames if f["data"]["action"]["type"] == "play"]
    assert sent and all("place" in data and "line_ends" in data for data in sent)
