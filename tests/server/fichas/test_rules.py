"""What a game's end moves of its pot (fichas/rules.py `settle`), figures by hand: winners paid
less the bank's 40%, partners splitting, the odd chip to the bank, an unrated game's stakes
back, an annulled game's back but for an abandoner's; and the tournament podium."""

from __future__ import annotations

import pytest

from tranque.server.fichas.ledger import BANK, Kind, Movement, stakes_in
from tranque.server.fichas.rules import cut_of, prizes, settle, valid_stake

POT, REF = "pot:t.1", "t.1"


def moved(movements: list[Movement]) -> list[tuple[str, str, int]]:
    return [(movement.kind.value, movement.destination, movement.amount) for movement in movements]


def test_a_duel_won_pays_the_winner_the_pot_less_the_banks_40_percent() -> None:
    out = settle(POT, REF, {1: 50, 2: 50}, [1], 0.4, rated=True, annulled=False)
    assert moved(out) == [("payout", "account:1", 60), ("cut", BANK, 40)]
    assert sum(movement.amount for movement in out) == 100  # the pot is emptied, to the chip


def test_partners_split_the_winnings_and_the_odd_chip_goes_to_the_bank() -> None:
    # 4 × 10 = 40; the cut 16; 24 between two partners: 12 each.
    out = settle(POT, REF, {1: 10, 2: 10, 3: 10, 4: 10}, [1, 3], 0.4, rated=True, annulled=False)
    assert moved(out) == [("payout", "account:1", 12), ("payout", "account:3", 12), ("cut", BANK, 16)]
    # 3 × 5 = 15: the cut 6 (40% rounded down), 9 between two: 4 each, 1 left over to the bank.
    out = settle(POT, REF, {1: 5, 2: 5, 3: 5}, [1, 3], 0.4, rated=True, annulled=False)
    assert moved(out) == [("payout", "account:1", 4), ("payout", "account:3", 4), ("cut", BANK, 7)]


def test_an_unrated_game_gives_every_stake_back_and_the_bank_takes_nothing() -> None:
    out = settle(POT, REF, {1: 50, 2: 50}, [1], 0.4, rated=False, annulled=False)
    assert moved(out) == [("refund", "account:1", 50), ("refund", "account:2", 50)]


def test_an_annulled_game_gives_stakes_back_but_an_abandoners_goes_to_the_bank() -> None:
    out = settle(POT, REF, {1: 50, 2: 50, 3: 50}, [], 0.4, rated=True, annulled=True, abandoners=[2])
    assert moved(out) == [("refund", "account:1", 50), ("forfeit", BANK, 50), ("refund", "account:3", 50)]
    assert [movement.user_id for movement in out] == [1, 2, 3]


def test_a_won_game_with_no_staked_winner_gives_the_stakes_back() -> None:
    out = settle(POT, REF, {2: 50}, [1], 0.4, rated=True, annulled=False)
    assert moved(out) == [("refund", "account:2", 50)]
    assert settle(POT, REF, {}, [1], 0.4, rated=True, annulled=False) == []


def test_every_key_names_the_game_and_the_account_so_a_second_settling_is_the_same() -> None:
    first = settle(POT, REF, {1: 50, 2: 50}, [1], 0.4, rated=True, annulled=False, at=1.0)
    again = settle(POT, REF, {1: 50, 2: 50}, [1], 0.4, rated=True, annulled=False, at=2.0)
    assert [movement.key for movement in first] == ["payout:t.1:1", "cut:t.1"]
    assert [movement.key for movement in again] == [movement.key for movement in first]


@pytest.mark.parametrize(
    ("amount", "valid"), [(0, True), (50, True), (20, False), (-10, False), (True, False)]
)
def test_a_stake_is_one_of_the_levels(amount: int, valid: bool) -> None:
    assert valid_stake(amount, (0, 10, 50, 100, 500)) is valid


def test_the_cut_is_exact_with_no_float_error() -> None:
    assert [cut_of(pot, 0.4) for pot in (0, 1, 2, 3, 5, 10, 15, 100, 1000)] == [0, 0, 0, 1, 2, 4, 6, 40, 400]
    assert cut_of(100, 0.0) == 0 and cut_of(100, 1.0) == 100


def test_a_tournament_pays_its_podium_five_three_two_after_the_cut() -> None:
    out = prizes("pot:tournament:x", "x", "tournament:x", 1000, [[1], [2], [3]], 0.4)
    assert moved(out) == [
        ("prize", "account:1", 300),
        ("prize", "account:2", 180),
        ("prize", "account:3", 120),
        ("cut", BANK, 400),
    ]
    pairs = prizes("pot:tournament:x", "x", "tournament:x", 1000, [[1, 2], [3, 4]], 0.4)
    assert moved(pairs)[:4] == [
        ("prize", "account:1", 187),
        ("prize", "account:2", 187),
        ("prize", "account:3", 112),
        ("prize", "account:4", 112),
    ]
    assert sum(movement.amount for movement in pairs) == 1000


def test_what_an_account_has_in_a_pot_counts_its_stakes_less_what_came_back() -> None:
    found = stakes_in(
        [
            Movement("a", "account:1", POT, 50, Kind.STAKE, 1, REF, 0.0),
            Movement("b", POT, "account:1", 50, Kind.UNSTAKE, 1, REF, 0.0),
            Movement("c", "account:1", POT, 50, Kind.STAKE, 1, REF, 0.0),
            Movement("d", "account:2", POT, 10, Kind.STAKE, 2, REF, 0.0),
            Movement("e", "account:3", POT, 10, Kind.STAKE, 3, REF, 0.0),
            Movement("f", POT, "account:3", 10, Kind.UNSTAKE, 3, REF, 0.0),
        ]
    )
    assert found == {1: 50, 2: 10}


def test_a_movement_moves_a_positive_amount_between_two_holders() -> None:
    with pytest.raises(ValueError, match="positive"):
        Movement("k", "account:1", POT, 0, Kind.STAKE, 1, REF, 0.0)
    with pytest.raises(ValueError, match="one holder to another"):
        Movement("k", POT, POT, 5, Kind.STAKE, 1, REF, 0.0)
