"""What a finished game says of each player: who won, who abandoned, and, for a rated game,
each player's new rating and XP (the model is `ratings`, the XP rule `xp`).

The teams finish in this order: the winners first (tied when several, R14), then the others
by score, equal scores tied. A person whose seat is still covered by a bot when the game ends
(R16) abandoned it and loses it: they never win, and get no XP. Someone back before the end is
not an abandoner, unless the covering bot made more than a third of the seat's decisions in
the game (`mostly_bot`): that game is the bot's more than theirs, and at a competitive table
it is scored as an abandon too, whatever the table's result (archive.py passes those seats as
`bot_played`). Forced moves are no decisions; the clock's moves are the person's missed ones.

Alone (1 contra 1, or 3 to 6 each for themselves), an abandoner finishes last, below every
player who stayed, and the game is rated once in that order, for everybody.

In pairs an abandoner's partner played on, and what they did counts as it was: the game is
rated as it ended for everybody who stayed (`rate` once), and the abandoner is rated as if
their team had finished last (`rate` again, with that order, taking only the abandoner's new
rating from it). So a pair that won without one of its players gives the partner the win and
the abandoner a loss.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from tranque.engine import Rules
from tranque.server.players import ratings, xp
from tranque.server.players.ratings import Rating
from tranque.server.store import RatingRow
from tranque.server.table.seats import Seat, SeatState


@dataclass(frozen=True)
class Standing:
    """How one seat finished."""

    seat: int
    won: bool
    abandoned: bool


@dataclass(frozen=True)
class RatedPlayer:
    """One account's part in a rated game."""

    seat: int
    user_id: int
    won: bool
    abandoned: bool
    xp: int
    before: Rating
    after: Rating
    games: int  # rated games in the pool, this one included


def finish_ranks(rules: Rules, winners: Sequence[int], scores: Sequence[int]) -> list[int]:
    """Each team's place as the game ended (0 first, equal places tied): the winners, then
    the others by score.

    >>> finish_ranks(Rules.preset("clasico", players=4, mode="individual"), [2], [40, 75, 101, 40])
    [2, 1, 0, 2]
    """
    losers = [team for team in range(rules.team_count) if team not in winners]
    return [
        0 if team in winners else 1 + sum(1 for other in losers if scores[other] > scores[team])
        for team in range(rules.team_count)
    ]


def mostly_bot(decisions: int, bot_moves: int) -> bool:
    """Whether the covering bot made more than a third of a seat's `decisions` (its turns
    with a choice: its own moves, the bot's and the clock's).

    >>> [mostly_bot(12, 4), mostly_bot(12, 5), mostly_bot(0, 0)]
    [False, True, False]
    """
    return 3 * bot_moves > decisions


def abandoned(seat: Seat, bot_played: Collection[int] = ()) -> bool:
    return seat.is_human and (seat.state is SeatState.COVERED or seat.index in bot_played)


def _alone_ranks(
    rules: Rules, seats: Sequence[Seat], ranks: Sequence[int], bot_played: Collection[int] = ()
) -> list[int]:
    """The places when each plays alone: abandoners below everybody who stayed."""
    keys = [(abandoned(seats[team], bot_played), ranks[team]) for team in range(rules.team_count)]
    return [sum(1 for other in keys if other < key) for key in keys]


def standings(
    rules: Rules,
    seats: Sequence[Seat],
    winners: Sequence[int],
    scores: Sequence[int],
    bot_played: Collection[int] = (),
) -> list[Standing]:
    """How every seat finished (an abandoner never wins; alone, the best who stayed does)."""
    ranks = finish_ranks(rules, winners, scores)
    if not rules.is_pairs:
        ranks = _alone_ranks(rules, seats, ranks, bot_played)
    gone = [abandoned(seat, bot_played) for seat in seats]
    return [
        Standing(seat.index, ranks[rules.team_of(seat.index)] == 0 and not gone[seat.index], gone[seat.index])
        for seat in seats
    ]


def rate_game(
    rules: Rules,
    seats: Sequence[Seat],
    winners: Sequence[int],
    scores: Sequence[int],
    known: Mapping[int, RatingRow],
    bot_played: Collection[int] = (),
) -> list[RatedPlayer]:
    """Every player's new rating and XP after a rated game (every seat an account's);
    `known`: their current ratings in the game's pool, by user id (none yet: a newcomer's);
    `bot_played`: the seats scored as abandoned though back at the end (`mostly_bot`)."""
    ranks = finish_ranks(rules, winners, scores)
    teams = [rules.seats_of(team) for team in range(rules.team_count)]
    before = [[ratings.of_row(known.get(_user(seats[index]))) for index in team] for team in teams]
    if rules.is_pairs:
        after = ratings.rate(before, ranks)
        for team, members in enumerate(teams):
            if any(abandoned(seats[index], bot_played) for index in members):
                last = [*ranks]
                last[team] = 1 + max(rank for other, rank in enumerate(ranks) if other != team)
                as_last = ratings.rate(before, last)
                for place, index in enumerate(members):
                    if abandoned(seats[index], bot_played):
                        after[team][place] = as_last[team][place]
    else:
        after = ratings.rate(before, _alone_ranks(rules, seats, ranks, bot_played))
    finish = {standing.seat: standing for standing in standings(rules, seats, winners, scores, bot_played)}
    players = []
    for team, members in enumerate(teams):
        for place, index in enumerate(members):
            user_id, standing = _user(seats[index]), finish[index]
            row = known.get(user_id)
            players.append(
                RatedPlayer(
                    seat=index,
                    user_id=user_id,
                    won=standing.won,
                    abandoned=standing.abandoned,
                    xp=xp.game_xp(rules.players, len(members), standing.won, standing.abandoned),
                    before=before[team][place],
                    after=after[team][place],
                    games=1 + (0 if row is None else row.games),
                )
            )
    return sorted(players, key=lambda player: player.seat)


def _user(seat: Seat) -> int:
    if seat.user_id is None:
        raise ValueError(f"seat {seat.index} has no account: the game cannot be rated")
    return seat.user_id
