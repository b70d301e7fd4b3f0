"""What a game's end at a table moves of its pot of fichas (fichas/rules.py `settle`), worked
out as the game ends, from the table's state alone: the table shows it in its `game_ended`
(`ficha_changes`) and the recorder (recorder.py) writes it in the transaction that records the
game's result, once.

The pot of a game is `ledger.pot(table, number)`: while a game is played, `number` is the
table's `game_number`; while none is (waiting for players, or between a game and its
rematch), the stakes are for the game to come, `game_number + 1`.

- A game played to its target: its winners (players/game_rating.py `standings`: an abandoner
  never wins) take the pot less the bank's cut, split between partners; if the game is not
  rated (table_rating.py `unrated_reason`: the same address, a bot from the start, two bots of
  one owner, ...) every stake goes back and the bank takes nothing.
- An annulled game: every stake back, but for a player who abandoned it (a seat still covered
  by a bot at the end, or mostly played by it: `game_rating.abandoned`), whose stake goes to
  the bank. A game annulled before it started gives every stake back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tranque.server.fichas import ledger, rules
from tranque.server.fichas.ledger import Kind, Movement
from tranque.server.players.archive import bot_played_seats
from tranque.server.players.game_rating import abandoned, standings
from tranque.server.players.table_rating import unrated_reason
from tranque.server.table.seats import Seat
from tranque.server.table.state import TableOptions, TableState


def pot_number(state: TableState) -> int:
    """The number of the game whose pot a table's stakes are in now."""
    return state.game_number if state.game is not None else state.game_number + 1


def game_movements(
    table_id: str,
    state: TableState,
    options: TableOptions,
    stakes: Mapping[int, int],
    cut_share: float,
    *,
    annulled: bool,
    at: float,
    bot_accounts: Mapping[int, int] | None = None,
) -> list[Movement]:
    """What the end of the game at `state` (just before its `game_ended`) moves of its pot;
    `stakes`: what each account has in it (`ledger.stakes_in`)."""
    number = pot_number(state)
    pot, ref = ledger.pot(table_id, number), ledger.game_ref(table_id, number)
    if not stakes:
        return []
    game = state.game
    bot_played = bot_played_seats(state) if game is not None and options.competitive else frozenset()
    if annulled or game is None:
        gone = [
            seat.user_id
            for seat in state.seats
            if game is not None and seat.user_id is not None and abandoned(seat, bot_played)
        ]
        return rules.settle(
            pot, ref, stakes, [], cut_share, rated=False, annulled=True, abandoners=gone, at=at
        )
    reason = unrated_reason(options.competitive, state.seats, bot_accounts if options.bots else None)
    finished = standings(state.rules, state.seats, game.winners, game.scores, bot_played)
    winners = [
        seat.user_id
        for seat, standing in zip(state.seats, finished, strict=True)
        if standing.won and seat.user_id is not None
    ]
    return rules.settle(pot, ref, stakes, winners, cut_share, rated=reason is None, annulled=False, at=at)


def ficha_changes(
    movements: Sequence[Movement], stakes: Mapping[int, int], seats: Sequence[Seat]
) -> list[dict[str, Any]]:
    """What the game-end card shows of the pot: one `{"seat", "user_id", "amount", "kind"}` per
    staked seat (`amount` signed: a payout or refund it got, or minus the stake it lost:
    "stake" for a game lost, "forfeit" for an abandon), then the bank's cut (`seat` and
    `user_id` None) if any."""
    by_user = {m.user_id: m for m in movements if m.user_id is not None}
    shown: list[dict[str, Any]] = []
    for seat in seats:
        user_id = seat.user_id
        if user_id is None or user_id not in stakes:
            continue
        movement = by_user.get(user_id)
        if movement is None:
            amount, kind = -stakes[user_id], Kind.STAKE.value
        elif movement.kind is Kind.FORFEIT:
            amount, kind = -movement.amount, movement.kind.value
        else:
            amount, kind = movement.amount, movement.kind.value
        shown.append({"seat": seat.index, "user_id": user_id, "amount": amount, "kind": kind})
    cut = sum(m.amount for m in movements if m.kind is Kind.CUT)
    if cut:
        shown.append({"seat": None, "user_id": None, "amount": cut, "kind": Kind.CUT.value})
    return shown
