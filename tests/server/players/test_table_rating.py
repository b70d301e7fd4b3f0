"""Which games a table's bot accounts leave unrated (`players.table_rating.unrated_reason`)."""

from __future__ import annotations

from tranque.server.players.table_rating import Unrated, unrated_reason
from tranque.server.table.seats import Seat, SeatKind


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
