"""Keeping a finished game: the `games` row its players' history, profiles and replays read,
a `game_players` row per account at the table and, for a rated game (players/table_rating.py), the
players' new ratings and the XP they gained (players/game_rating.py).

`finished_game` reads the table as the game ends (its state, options, the game's record and
its players' ratings) and says what to keep; it reads nothing else. The table shows its
`rating_changes` in `game_ended`; the recorder (recorder.py) keeps it, after the game's end is
stored, once (ratings and XP are never counted twice). A game in which a seat asked for
hints («Pista», hints.py) says how many each seat used, in its summary and its record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from tranque.engine import Rules
from tranque.server.players import ratings, xp
from tranque.server.players.access import private_game
from tranque.server.players.game_rating import RatedPlayer, mostly_bot, rate_game, standings
from tranque.server.players.table_rating import unrated_reason
from tranque.server.store import GamePlayerRow, GameRow, RatingRow
from tranque.server.table.hints import with_hints
from tranque.server.table.seats import SeatKind
from tranque.server.table.state import TableOptions, TableState


def game_format(rules: Rules) -> str:
    """The format a game is rated in: `duel` (1 contra 1), `individual` (3 to 6) or `pairs`."""
    if rules.is_pairs:
        return "pairs"
    return "duel" if rules.players == 2 else "individual"


@dataclass(frozen=True)
class FinishedGame:
    """What one finished game leaves in the store, and what its `game_ended` tells the table
    (`rating_changes`: one `{"seat", "before", "after", "xp"}` per seat of a rated game)."""

    game: GameRow
    players: list[GamePlayerRow]
    ratings: list[RatingRow]
    xp: list[tuple[str, int, int]]
    rating_changes: list[dict[str, int]]


def finished_game(
    table_id: str,
    state: TableState,
    options: TableOptions,
    record: dict[str, Any],
    now: float,
    known: Mapping[int, RatingRow],
    bot_accounts: Mapping[int, int] | None = None,
) -> FinishedGame:
    """What the game just ended at `state` leaves; `known`: the current ratings, in the
    game's pool, of the accounts at the table (by user id; a newcomer has none)."""
    rules = state.rules
    game = state.playing_game()
    winners = set(game.winners)
    private = private_game(options)  # a competitive game is public once it ends (access.py)
    fmt = game_format(rules)
    reason = unrated_reason(options.competitive, state.seats, bot_accounts if options.bots else None)
    pool = ratings.bots_pool(fmt) if options.bots else fmt  # bots are rated among themselves, with no XP
    summary = {
        "seats": [
            {
                "seat": seat.index,
                "team": rules.team_of(seat.index),
                "name": seat.name,
                "kind": seat.kind.value,
                "user_id": seat.user_id,
                "bot_level": seat.bot_level,
                "face": seat.face,
            }
            for seat in state.seats
        ],
        "scores": list(game.scores),
        "goals": list(game.goals),
        "winners": sorted(winners),
        "rounds": game.round_number + 1,
        "hints": state.hint_counts(),  # «Pista» at a practice table: how many each seat used
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
        competitive=options.competitive,
        rated=reason is None,
        unrated_reason=None if reason is None else reason.value,
        summary=summary,
        record=with_hints(record, state),
    )
    # At a competitive table a seat the covering bot mostly played is scored as abandoned.
    bot_played = bot_played_seats(state) if options.competitive else frozenset()
    rated = (
        rate_game(rules, state.seats, game.winners, game.scores, known, bot_played) if reason is None else []
    )
    by_seat = {player.seat: player for player in rated}
    players = []
    for standing in standings(rules, state.seats, game.winners, game.scores, bot_played):
        seat = state.seats[standing.seat]
        if seat.kind is not SeatKind.HUMAN or seat.user_id is None:
            continue
        player = GamePlayerRow(
            game_id=row.game_id,
            user_id=seat.user_id,
            seat=seat.index,
            finished_at=now,
            preset=rules.preset_name,
            format=fmt,
            private=private,
            won=standing.won,
            abandoned=standing.abandoned,
            xp=0,
        )
        players.append(_with_rating(player, by_seat.get(seat.index)))
    return FinishedGame(
        row,
        players,
        [_rating_row(player, pool, now) for player in rated],
        [
            (period, player.user_id, player.xp)
            for player in rated
            if player.xp and not options.bots
            for period in xp.periods(now)
        ],
        [_change(player) for player in rated],
    )


def bot_played_seats(state: TableState) -> frozenset[int]:
    """The people's seats whose decisions in the game the covering bot mostly made
    (game_rating.mostly_bot), back at the end or not."""
    return frozenset(
        seat.index
        for seat in state.humans
        if mostly_bot(state.decisions.get(seat.index, 0), state.bot_moves.get(seat.index, 0))
    )


def _with_rating(row: GamePlayerRow, rated: RatedPlayer | None) -> GamePlayerRow:
    if rated is None:
        return row
    return replace(
        row,
        xp=rated.xp,
        mu_before=rated.before.mu,
        sigma_before=rated.before.sigma,
        mu_after=rated.after.mu,
        sigma_after=rated.after.sigma,
    )


def _rating_row(player: RatedPlayer, pool: str, now: float) -> RatingRow:
    after = player.after
    return RatingRow(player.user_id, pool, after.mu, after.sigma, ratings.shown(after), player.games, now)


def _change(player: RatedPlayer) -> dict[str, int]:
    before, after = round(ratings.shown(player.before)), round(ratings.shown(player.after))
    return {"seat": player.seat, "before": before, "after": after, "xp": player.xp}
