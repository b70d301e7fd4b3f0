"""Which games a table's bot accounts leave unrated (`players.table_rating.unrated_reason`)."""

from __future__ import annotations

from tranque.server.players.table_rating import Unrated, unrated_reason
from tranque.server.table.seats import MAX_PLACES, Seat, SeatKind


def test_a_person_or_two_bots_of_one_owner_at_a_table_that_accepts_bots_make_its_game_unrated() -> None:
    # bot accounts 7 and 8, owned by the people 1 and 2; one address: the bots' owners' machine
    seats = [Seat(0).seat_human("Robotina", 7, "h0", "a"), Seat(1).seat_human("Robotín", 8, "h1", "a")]
    assert unrated_reason(True, seats, {7: 1, 8: 2}) is None  # two owners, one address: rated
    assert unrated_reason(True, seats, {7: 1, 8: 1}) is Unrated.SAME_OWNER
    assert unrated_reason(True, seats, {7: 1}) is Unrated.PERSON_AT_BOTS_TABLE
    assert unrated_reason(False, seats, {7: 1, 8: 2}) is Unrated.CASUAL
    assert unrated_reason(True, [seats[0], Seat(1).seat_bot("greedy")], {7: 1}) is Unrated.BOT
    assert unrated_reason(True, seats, None) is Unrated.SAME_ADDRESS  # the same seats at a people's table
    assert seats[1].kind is SeatKind.HUMAN


def test_seats_used_from_one_place_after_sitting_make_the_game_unrated_and_too_many_places_too() -> None:
    seats = [Seat(0).seat_human("ana", 1, "h0", "a"), Seat(1).seat_human("beto", 2, "h1", "b")]
    assert unrated_reason(True, seats, None) is None
    elsewhere = [seats[0].seen_at("c"), seats[1].seen_at("d")]
    assert unrated_reason(True, elsewhere, None) is None  # each from its own places
    assert unrated_reason(True, [seats[0], seats[1].seen_at("a")], None) is Unrated.SAME_ADDRESS_IN_PLAY
    assert (
        unrated_reason(True, [seats[0].seen_at("x"), seats[1].seen_at("x")], None)
        is Unrated.SAME_ADDRESS_IN_PLAY
    )
    wanderer = seats[1]
    for n in range(MAX_PLACES):
        wanderer = wanderer.seen_at(f"place{n}")
    assert unrated_reason(True, [seats[0], wanderer], None) is Unrated.MANY_PLACES
    assert Seat.from_json(wanderer.to_json()) == wanderer  # the places are in the seat's record
    assert "places" not in wanderer.public_json()  # and never on the wire
