"""The arena's re-pairing: similar scores together, no rematch of the last game and, in a battle
of peña against peña, no two members of one peña as opponents, while avoidable."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tranque.server.tournaments.arena_pairing import ArenaPlayer, pair_arena


def opposite(table: tuple[int, ...], per_table: int) -> list[tuple[int, int]]:
    if per_table == 4:
        return [(table[i], table[j]) for i, j in ((0, 1), (0, 3), (2, 1), (2, 3))]
    return list(itertools.combinations(table, 2))


def rematches(tables: list[tuple[int, ...]], last: dict[int, set[int]], per_table: int) -> int:
    return sum(b in last[a] or a in last[b] for table in tables for a, b in opposite(table, per_table))


def seatable_without_rematch(players: list[int], last: dict[int, set[int]], per_table: int) -> bool:
    """Exhaustive: some way to seat `players` at tables with no rematch."""
    if not players:
        return True
    first, rest = players[0], players[1:]
    for others in itertools.combinations(rest, per_table - 1):
        group = (first, *others)
        orders = itertools.permutations(group) if per_table == 4 else [group]
        if any(rematches([order], last, per_table) == 0 for order in orders):
            remaining = [p for p in rest if p not in others]
            if seatable_without_rematch(remaining, last, per_table):
                return True
    return False


@settings(max_examples=300, deadline=None)
@given(
    per_table=st.sampled_from([2, 3, 4]),
    size=st.integers(0, 9),
    seed=st.integers(0, 2**32),
)
def test_no_rematch_of_the_last_game_while_avoidable(per_table: int, size: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = list(range(1, size + 1))
    last: dict[int, set[int]] = {no: set() for no in entrants}
    # random last games among the free: groups of per_table from a shuffle, a few not free anymore
    shuffled = entrants[:]
    rng.shuffle(shuffled)
    for i in range(0, len(shuffled) - per_table + 1, per_table):
        group = shuffled[i : i + per_table]
        for a, b in opposite(tuple(group), per_table):
            last[a].add(b)
            last[b].add(a)
    free = [
        ArenaPlayer(no, rng.randint(0, 5), rng.choice([0.0, 1.0, 2.0]), tuple(sorted(last[no])))
        for no in entrants
    ]
    tables = pair_arena(free, per_table)
    seated = [no for table in tables for no in table]
    assert len(seated) == len(set(seated)) == (size // per_table) * per_table
    assert all(len(table) == per_table for table in tables)
    # the longest-waiting sit down: nobody seated became free after someone who waits
    since = {p.entrant: p.since for p in free}
    waiting = set(entrants) - set(seated)
    assert all(since[s] <= since[w] for s in seated for w in waiting)
    if rematches(tables, last, per_table):
        assert not seatable_without_rematch(seated, last, per_table)


@settings(max_examples=300, deadline=None)
@given(
    per_table=st.sampled_from([2, 4]),
    size=st.integers(0, 9),
    penas=st.integers(1, 3),
    seed=st.integers(0, 2**32),
)
def test_no_two_of_one_pena_are_opponents_while_avoidable(
    per_table: int, size: int, penas: int, seed: int
) -> None:
    rng = random.Random(seed)
    entrants = list(range(1, size + 1))
    team = {no: rng.randrange(penas) for no in entrants}
    free = [ArenaPlayer(no, rng.randint(0, 5), 0.0, (), team[no]) for no in entrants]
    tables = pair_arena(free, per_table)
    seated = [no for table in tables for no in table]
    assert len(seated) == len(set(seated)) == (size // per_table) * per_table
    # (one peña's members as each other's «last opponents»: the same thing to avoid)
    same = {a: {b for b in entrants if b != a and team[b] == team[a]} for a in entrants}
    if rematches(tables, same, per_table):
        assert not seatable_without_rematch(seated, same, per_table)


def test_two_penas_play_each_other_not_themselves() -> None:
    # By score alone 1 would meet 2 and 3 would meet 4, both within a peña.
    free = [ArenaPlayer(no, 10 - no, 0.0, (), pena) for no, pena in [(1, 7), (2, 7), (3, 8), (4, 8)]]
    tables = pair_arena(free, 2)
    assert sorted(sorted(t) for t in tables) == [[1, 3], [2, 4]]
    # Four-handed: the two of a peña are partners (seats 0 and 2), never opponents.
    (table,) = pair_arena(free, 4)
    assert {frozenset(table[0::2]), frozenset(table[1::2])} == {frozenset({1, 2}), frozenset({3, 4})}


def test_members_of_one_pena_alone_still_play_each_other() -> None:
    free = [ArenaPlayer(no, 0, 0.0, (), 7) for no in (1, 2)]
    assert pair_arena(free, 2) == [(1, 2)]


def test_scores_near_each_other_meet() -> None:
    free = [ArenaPlayer(no, score, 0.0, ()) for no, score in [(1, 9), (2, 0), (3, 8), (4, 1)]]
    assert sorted(sorted(t) for t in pair_arena(free, 2)) == [[1, 3], [2, 4]]


def test_a_four_handed_table_seats_first_and_third_against_second_and_fourth() -> None:
    free = [ArenaPlayer(no, 10 - no, 0.0, ()) for no in range(1, 5)]
    assert pair_arena(free, 4) == [(1, 2, 3, 4)]  # seats 0 and 2 (1 and 3) partner


def test_last_opponents_are_split_up() -> None:
    free = [
        ArenaPlayer(1, 5, 0.0, (2,)),
        ArenaPlayer(2, 5, 0.0, (1,)),
        ArenaPlayer(3, 1, 0.0, (4,)),
        ArenaPlayer(4, 1, 0.0, (3,)),
    ]
    assert sorted(sorted(t) for t in pair_arena(free, 2)) == [[1, 3], [2, 4]]


def test_two_free_last_opponents_play_again_rather_than_wait() -> None:
    free = [ArenaPlayer(1, 5, 0.0, (2,)), ArenaPlayer(2, 5, 0.0, (1,))]
    assert pair_arena(free, 2) == [(1, 2)]


def test_the_latest_finisher_waits() -> None:
    free = [ArenaPlayer(1, 5, 3.0, ()), ArenaPlayer(2, 5, 1.0, ()), ArenaPlayer(3, 5, 2.0, ())]
    assert sorted(pair_arena(free, 2)[0]) == [2, 3]


def test_a_table_of_one_is_refused() -> None:
    with pytest.raises(ValueError):
        pair_arena([], 1)
