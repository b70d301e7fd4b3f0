"""Duplicado: seating with balanced sides and new opponents, and matchpoints deal by deal."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from tranque.server.tournaments.duplicate import duplicate_tables, matchpoints


def matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for tail in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def flaws(games: list[tuple[int, int]], played: set[frozenset[int]], lean: dict[int, int]) -> tuple[int, int]:
    """(rematches, games between two entrants leaning the same way: one of them ends two sides off)."""
    rematches = sum(frozenset(game) in played for game in games)
    clashes = sum(bool(lean[a]) and lean[a] == lean[b] for a, b in games)
    return rematches, clashes


@settings(max_examples=200, deadline=None)
@given(size=st.integers(2, 11), rounds=st.integers(1, 10), seed=st.integers(0, 2**32))
def test_new_opponents_and_balanced_sides_as_far_as_any_seating_allows(
    size: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    entrants = list(range(1, size + 1))
    played: set[frozenset[int]] = set()
    sides = dict.fromkeys(entrants, (0, 0))
    byes = dict.fromkeys(entrants, 0)
    for number in range(1, rounds + 1):
        order = sorted(entrants, key=lambda no: (-rng.randint(0, 3), no))
        tables, bye = duplicate_tables(order, number, played, sides)
        seated = [no for table in tables for no in table]
        assert sorted(seated + ([bye] if bye is not None else [])) == entrants
        if bye is not None:
            fewest = min(byes.values())
            assert byes[bye] == fewest, "a second bye while someone had fewer"
            lower = order[order.index(bye) + 1 :]
            assert all(byes[no] > fewest for no in lower), "the bye skipped a lower entrant"
            byes[bye] += 1
        lean = {no: sides[no][0] - sides[no][1] for no in entrants}
        # an exhaustive search finds no seating with fewer rematches, nor fewer unbalanced sides
        best = min(flaws(games, played, lean) for games in matchings(seated))
        assert flaws(tables, played, lean) == best
        for zero, one in tables:
            assert lean[zero] <= lean[one], "side 0 to whoever sat there less often"
            sides[zero] = (sides[zero][0] + 1, sides[zero][1])
            sides[one] = (sides[one][0], sides[one][1] + 1)
            played.add(frozenset((zero, one)))


def test_a_thousand_entrants_get_new_opponents_and_balanced_sides_for_nine_rounds() -> None:
    rng = random.Random(7)
    entrants = list(range(1, 1001))
    played: set[frozenset[int]] = set()
    sides = dict.fromkeys(entrants, (0, 0))
    for number in range(1, 10):
        order = sorted(entrants, key=lambda no: (-rng.randint(0, number * 4), no))
        tables, bye = duplicate_tables(order, number, played, sides)
        assert bye is None and len(tables) == 500
        assert not any(frozenset(table) in played for table in tables)
        for zero, one in tables:
            sides[zero] = (sides[zero][0] + 1, sides[zero][1])
            sides[one] = (sides[one][0], sides[one][1] + 1)
            played.add(frozenset((zero, one)))
        assert all(abs(a - b) <= 1 for a, b in sides.values())


def test_matchpoints_compare_each_side_with_the_same_side_at_every_other_table() -> None:
    # deal 0: table 1 scored +10 for side 0, tables 2 and 3 +5 each
    # deal 1: tables 1 and 2 scored 0, table 3 -3
    result = matchpoints({1: [10, 0], 2: [5, 0], 3: [5, -3]})
    # table 1 side 0: deal 0 beat 2 tables (4), deal 1 tied 1 and beat 1 (3) = 7; side 1: 0 + 1
    assert result == {1: (7.0, 1.0), 2: (4.0, 4.0), 3: (1.0, 7.0)}


def test_each_deal_shares_out_two_points_per_pair_of_tables() -> None:
    diffs = {table: [random.Random(table).randint(-30, 30) for _ in range(4)] for table in range(6)}
    result = matchpoints(diffs)
    assert sum(zero for zero, _ in result.values()) == 4 * 6 * 5  # per deal: T*(T-1) shared by side 0s
    assert all(zero + one == 4 * 2 * 5 for zero, one in result.values())


def test_one_table_alone_earns_no_matchpoints() -> None:
    assert matchpoints({1: [12, -4]}) == {1: (0.0, 0.0)}
