"""Rotating partners over many simulated events: no partner twice while avoidable, fair byes."""

from __future__ import annotations

import random

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from tranque.server.tournaments.partners import RotatingPlayer, RotatingRound, pair_rotating


def partner_free(field: list[int], partnered: set[frozenset[int]]) -> bool:
    """Whether `field` splits into partnerships that never happened (an exhaustive check).

    Any two partnerships can share a table, so that is all "avoidable" asks.
    """
    graph = nx.Graph()
    graph.add_nodes_from(field)
    pairs = [(a, b) for i, a in enumerate(field) for b in field[i + 1 :]]
    graph.add_edges_from(pair for pair in pairs if frozenset(pair) not in partnered)
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(field)


class Event:
    def __init__(self, size: int, rng: random.Random) -> None:
        self.rng = rng
        self.players = {no: RotatingPlayer(no, 0, 0, 0) for no in range(1, size + 1)}
        self.partnered: set[frozenset[int]] = set()
        self.opposed: dict[frozenset[int], int] = {}

    def record(self, paired: RotatingRound) -> None:
        for bye in paired.byes:
            p = self.players[bye]
            self.players[bye] = RotatingPlayer(bye, p.wins + 1, p.efectividad, p.byes + 1)
        for first, second in paired.tables:
            self.partnered |= {frozenset(first), frozenset(second)}
            for x in first:
                for y in second:
                    key = frozenset((x, y))
                    self.opposed[key] = self.opposed.get(key, 0) + 1
            margin = self.rng.randint(1, 100)
            winners, losers = (first, second) if self.rng.random() < 0.5 else (second, first)
            for no in winners:
                p = self.players[no]
                self.players[no] = RotatingPlayer(no, p.wins + 1, p.efectividad + margin, p.byes)
            for no in losers:
                p = self.players[no]
                self.players[no] = RotatingPlayer(no, p.wins, p.efectividad - margin, p.byes)


def check_round(event: Event, paired: RotatingRound) -> None:
    seated = [no for table in paired.tables for side in table for no in side]
    assert sorted(seated + paired.byes) == sorted(event.players), "everyone seated once or on a bye"
    assert len(paired.byes) == len(event.players) % 4
    for bye in paired.byes:
        b = event.players[bye]
        for no in seated:
            p = event.players[no]
            assert p.byes >= b.byes, "a second bye while someone had fewer"
            if p.byes == b.byes:
                assert (p.wins, p.efectividad) >= (b.wins, b.efectividad), "the bye skipped a lower player"
    repeated = [side for table in paired.tables for side in table if frozenset(side) in event.partnered]
    if repeated:
        assert not partner_free(seated, event.partnered), f"avoidable repeated partners {repeated}"


@settings(max_examples=150, deadline=None)
@given(size=st.integers(4, 17), rounds=st.integers(1, 12), seed=st.integers(0, 2**32))
def test_no_partner_twice_and_byes_to_the_lowest_while_avoidable(size: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    event = Event(size, rng)
    for _ in range(rounds):
        paired = pair_rotating(list(event.players.values()), event.partnered, event.opposed, rng)
        check_round(event, paired)
        event.record(paired)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_big_field_never_repeats_a_partner_in_seven_rounds(seed: int) -> None:
    rng = random.Random(seed)
    event = Event(403, rng)
    for _ in range(7):
        paired = pair_rotating(list(event.players.values()), event.partnered, event.opposed, rng)
        check_round(event, paired)
        assert not any(frozenset(side) in event.partnered for table in paired.tables for side in table)
        event.record(paired)


def ranked(*wins: int) -> list[RotatingPlayer]:
    return [RotatingPlayer(no, w, 0, 0) for no, w in enumerate(wins, start=1)]


def test_a_group_plays_first_and_third_against_second_and_fourth() -> None:
    paired = pair_rotating(ranked(4, 3, 2, 1, 0, 0, 0, 0), set(), {}, random.Random(1))
    assert paired.tables[0] == ((1, 3), (2, 4))


def test_a_repeated_partnership_is_split_another_way_inside_the_group() -> None:
    paired = pair_rotating(ranked(4, 3, 2, 1), {frozenset((1, 3))}, {}, random.Random(1))
    assert paired.tables == [((1, 4), (2, 3))]


def test_repeated_opponents_are_avoided_when_the_group_allows() -> None:
    # 1+3 v 2+4 would meet 1 and 2 again; 1+4 v 2+3 too; 1+2 v 3+4 does not
    opposed = {frozenset((1, 2)): 1}
    paired = pair_rotating(ranked(4, 3, 2, 1), set(), opposed, random.Random(1))
    assert paired.tables == [((1, 2), (3, 4))]


def test_a_group_with_every_split_used_is_reformed_with_its_neighbours() -> None:
    partnered = {frozenset(pair) for pair in [(1, 2), (1, 3), (1, 4)]}
    paired = pair_rotating(ranked(9, 8, 7, 6, 5, 4, 3, 2), partnered, {}, random.Random(1))
    assert not any(frozenset(side) in partnered for table in paired.tables for side in table)
    assert sorted(no for table in paired.tables for side in table for no in side) == list(range(1, 9))


def test_the_byes_go_to_the_lowest_without_one() -> None:
    players = [RotatingPlayer(no, 10 - no, 0, int(no == 7)) for no in range(1, 8)]
    # 7 players: 3 byes; 7 is lowest but had one, so 6, 5, 4
    assert pair_rotating(players, set(), {}, random.Random(1)).byes == [6, 5, 4]


def test_a_group_that_cannot_avoid_old_opponents_swaps_its_last_with_the_next_group() -> None:
    # 1 has already faced 2, 3 and 4: in any split of 1..4 it faces two of them again; with 5
    # (the next group's first) in place of 4 it faces one at most
    opposed = {frozenset((1, other)): 1 for other in (2, 3, 4)}
    paired = pair_rotating(ranked(9, 8, 7, 6, 5, 4, 3, 2), set(), opposed, random.Random(1))
    groups = [sorted(no for side in table for no in side) for table in paired.tables]
    assert groups == [[1, 2, 3, 5], [4, 6, 7, 8]]
