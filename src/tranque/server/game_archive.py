"""Keeping a finished game: the `games` row its players' history, profiles and replays read,
and a `game_players` row per account at the table.

`finished_game` reads the table as the game ends (its state, options and the game's record)
and says what to keep; the table saves it with `Store.save_game` in the same step that
stores the game's end, so a restart that replays the log finds it kept (saving it again
changes nothing).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tranque.engine import Rules
from tranque.server.seats import SeatKind
from tranque.server.store import GamePlayerRow, GameRow, RatingRow
from tranque.server.table_state import TableKind, TableOptions, TableState


def game_format(rules: Rules) -> str:
    """The format a game is rated in: `duel` (1 contra 1), `individual` (3 to 6) or `pairs`."""
    if rules.is_pairs:
        return "pairs"
    return "duel" if rules.players == 2 else "individual"


@dataclass(frozen=True)
class FinishedGame:
    """What one finished game leaves in the store."""

    game: GameRow
    players: list[GamePlayerRow]
    ratings: list[RatingRow]
    xp: list[tuple[str, int, int]]


def finished_game(
    table_id: str, state: TableState, options: TableOptions, record: dict[str, Any], now: float
) -> FinishedGame:
    rules = state.rules
    game = state.playing_game()
    winners = set(game.winners)
    private = options.kind is TableKind.PRIVATE
    fmt = game_format(rules)
    summary = {
        "seats": [
            {
                "seat": seat.index,
                "name": seat.name,
                "kind": seat.kind.value,
                "user_id": seat.user_id,
                "bot_level": seat.bot_level,
            }
            for seat in state.seats
        ],
        "scores": list(game.scores),
        "goals": list(game.goals),
        "winners": sorted(winners),
        "rounds": game.round_number + 1,
    }
    row = GameRow(
        game_id=f"{table_id}.{state.game_number}",
        table_id=table_id,
        number=state.game_number,
        finished_at=now,
        preset=rules.preset_name,
        format=fmt,
        players=rules.players,
        table_kind=options.kind.value,
        private=private,
        competitive=False,
        rated=False,
        unrated_reason=None,
        summary=summary,
        record=record,
    )
    players = [
        GamePlayerRow(
            game_id=row.game_id,
            user_id=seat.user_id,
            seat=seat.index,
            finished_at=now,
            preset=rules.preset_name,
            format=fmt,
            private=private,
            won=rules.side_of(seat.index) in winners,
            abandoned=False,
            xp=0,
        )
        for seat in state.seats
        if seat.kind is SeatKind.HUMAN and seat.user_id is not None
    ]
    return FinishedGame(row, players, [], [])
