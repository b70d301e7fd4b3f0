"""Perft, the way python-chess tests move generation: whole legal-action trees of small deals.

For each fixed deal below, every sequence of legal actions from the deal to the end of the
round is walked through the public `Round` API (`legal_actions`, `apply`, `is_over`,
`result`), and the totals over the tree's leaves are pinned: how many there are, how many
actions the tree holds, how many end in dominó and in tranque, who wins and what every team
scores. A draw is one action (C2), so the tree grows only where a player has a choice.

The pinned numbers come from a referee written in this file from the text of docs/rules.md, on
its own tiles (plain `(high, low)` tuples) and with nothing taken from the engine; each test
runs both walks against the same constants, so a pinned number is never only what the
engine happened to say.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import pytest

from tranque.engine import Round, RoundEnd, Rules, Tile

# The referee ---------------------------------------------------------------------------

Pair = tuple[int, int]  # a tile as (high half, low half), R1
DOUBLE_SIX: tuple[Pair, ...] = tuple((high, low) for high in range(7) for low in range(high + 1))
LEAD, LEFT, RIGHT = -1, 0, 1
DRAW, PASS = "draw", "pass"
Move = tuple[Pair, int] | str  # (tile, LEAD | LEFT | RIGHT), DRAW or PASS
DOMINO, TRANQUE = "domino", "tranque"
PONCE_BLOCKER_PALITOS = 2  # V6: a tranque earns 2 to the team of the player who blocked


@dataclass(frozen=True)
class Table:
    """What the referee needs of a preset, read off docs/rules.md."""

    players: int
    pairs: bool  # R3: partner of s is s + n/2, team k = {k, k + n/2}
    drawing: bool  # R9; False: V1, undealt tiles are out of play (C3)
    ponce: bool  # V6: passes score, the tranque is individual, points become palitos

    @property
    def teams(self) -> int:
        return self.players // 2 if self.pairs else self.players

    def team_of(self, seat: int) -> int:
        return seat % (self.players // 2) if self.pairs else seat

    def partner_of(self, seat: int) -> int | None:
        return (seat + self.players // 2) % self.players if self.pairs else None


class Position(NamedTuple):
    hands: tuple[tuple[Pair, ...], ...]
    boneyard: tuple[Pair, ...]  # still to be drawn, the next one first (C2)
    ends: Pair | None  # (left, right); None before the lead
    turn: int
    last_player: int  # who made the last play; -1 before the lead
    pass_points: tuple[int, ...]  # V6: palitos earned by passes, per team
    bonus_pending: bool  # V6: the game's first scoring pass is still to come (worth 2)
    forced_lead: Pair | None  # R6: the tile the first round must open with


class Ending(NamedTuple):
    kind: str  # DOMINO or TRANQUE
    closer: int  # who played the last tile, or made the blocking play


def pair(text: str) -> Pair:
    a, b = (int(half) for half in text.split("-"))
    return (max(a, b), min(a, b))


def pips(tiles: Sequence[Pair]) -> int:
    return sum(high + low for high, low in tiles)


def first_lead(hands: Sequence[Sequence[Pair]]) -> tuple[int, Pair]:
    """R6: the highest double dealt leads; with no double, the tile with most pips, and
    between equal pips the higher high half (6-3 over 5-4)."""
    dealt = [
        (tile[0] == tile[1], sum(tile), tile[0], seat, tile) for seat, h in enumerate(hands) for tile in h
    ]
    *_, seat, tile = max(dealt)
    return seat, tile


def opening(
    table: Table, hands: Sequence[Sequence[Pair]], boneyard: Sequence[Pair], start: int | str
) -> Position:
    """`start` is "first" (R6 picks starter and lead) or the seat that leads with any tile (R7)."""
    if start == "first":
        starter, forced = first_lead(hands)
    else:
        assert isinstance(start, int)
        starter, forced = start, None
    return Position(
        hands=tuple(tuple(hand) for hand in hands),
        boneyard=tuple(boneyard) if table.drawing else (),
        ends=None,
        turn=starter,
        last_player=-1,
        pass_points=(0,) * table.teams,
        # V6: "the first scoring pass of the game" is worth 2. A first round opens the game; a
        # later one is taken to come after that pass, as `Round.deal(starter=k)` assumes.
        bonus_pending=table.ponce and start == "first",
        forced_lead=forced,
    )


def moves(table: Table, position: Position) -> list[Move]:
    """R8/R9: play if you can (choosing the end only when the tile fits both and the ends
    differ), else draw while the boneyard lasts, else pass."""
    hand = position.hands[position.turn]
    if position.ends is None:
        if position.forced_lead is not None:
            return [(position.forced_lead, LEAD)]
        return [(tile, LEAD) for tile in hand]
    left, right = position.ends
    plays: list[Move] = []
    for tile in hand:
        if left in tile:
            plays.append((tile, LEFT))
        if right in tile and right != left:
            plays.append((tile, RIGHT))
    if plays:
        return plays
    if position.boneyard:
        return [DRAW]
    return [PASS]


def nobody_can_play(position: Position) -> bool:
    assert position.ends is not None
    left, right = position.ends
    return not any(left in tile or right in tile for hand in position.hands for tile in hand)


def play(table: Table, position: Position, move: Move) -> tuple[Position, Ending | None]:
    """The position after `move`, and how the round ended if it did (R10, R11, C1)."""
    seat = position.turn
    if move == DRAW:
        drawn, *rest = position.boneyard
        after = position._replace(
            hands=_with_hand(position.hands, seat, (*position.hands[seat], drawn)), boneyard=tuple(rest)
        )
        # C1: the draw that empties the boneyard ends the round if nobody can then play;
        # the blocking play was the last one made.
        if not rest and nobody_can_play(after):
            return after, Ending(TRANQUE, position.last_player)
        return after, None
    if move == PASS:
        after = position._replace(turn=(seat + 1) % table.players)
        last = position.last_player
        if table.ponce and seat != table.partner_of(last):
            # V6: the pass scores for the team of the last player, unless it is their partner's.
            worth = 2 if position.bonus_pending else 1
            points = list(position.pass_points)
            points[table.team_of(last)] += worth
            after = after._replace(pass_points=tuple(points), bonus_pending=False)
        return after, None
    assert not isinstance(move, str)
    tile, end = move
    hand = tuple(t for t in position.hands[seat] if t != tile)
    if end == LEAD:
        ends = tile
    else:
        assert position.ends is not None
        left, right = position.ends
        ends = (sum(tile) - left, right) if end == LEFT else (left, sum(tile) - right)
    after = position._replace(
        hands=_with_hand(position.hands, seat, hand),
        ends=ends,
        turn=(seat + 1) % table.players,
        last_player=seat,
        forced_lead=None,
    )
    if not hand:
        return after, Ending(DOMINO, seat)  # C1: a last tile that also blocks is a dominó
    if not after.boneyard and nobody_can_play(after):
        return after, Ending(TRANQUE, seat)
    return after, None


def _with_hand(
    hands: tuple[tuple[Pair, ...], ...], seat: int, hand: tuple[Pair, ...]
) -> tuple[tuple[Pair, ...], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def score(table: Table, position: Position, ending: Ending) -> tuple[int | None, tuple[int, ...]]:
    """The winning team (None: a tie nobody wins) and the points of every team (R10–R13, V6)."""
    counts = [pips(hand) for hand in position.hands]
    everything = sum(counts)
    points = [0] * table.teams
    if ending.kind == DOMINO:
        winner: int | None = table.team_of(ending.closer)
    elif table.pairs and not table.ponce:
        # R11/R13: partners' pips are summed and the lowest team wins.
        team_counts = [
            sum(c for s, c in enumerate(counts) if table.team_of(s) == k) for k in range(table.teams)
        ]
        lowest = [k for k, c in enumerate(team_counts) if c == min(team_counts)]
        winner = lowest[0] if len(lowest) == 1 else None
    else:
        # R11 individual, and V6 ponce: the fewest pips in one hand; partners tied win together.
        lowest_teams = {table.team_of(s) for s, c in enumerate(counts) if c == min(counts)}
        winner = lowest_teams.pop() if len(lowest_teams) == 1 else None
    if table.ponce:
        if winner is not None:
            # Dominó: every other hand (the winner's is empty); tranque: all four hands.
            points[winner] += (everything + 4) // 10
        for team, earned in enumerate(position.pass_points):
            points[team] += earned
        if ending.kind == TRANQUE:
            points[table.team_of(ending.closer)] += PONCE_BLOCKER_PALITOS
    elif winner is not None:
        # R12: every other hand, partner's included; R13: a pairs tranque counts all hands.
        points[winner] += everything - (0 if table.pairs else counts[winner])
    return winner, tuple(points)


# Totals over a tree ----------------------------------------------------------------------


@dataclass(frozen=True)
class Totals:
    leaves: int  # finished rounds: sequences of legal actions from the deal to the end
    actions: int  # edges of the tree: legal actions summed over every unfinished position
    dominoes: int
    tranques: int
    ties: int  # finished rounds nobody wins
    wins: tuple[int, ...]  # per team
    points: tuple[int, ...]  # per team, summed over the leaves


class Tally:
    """Totals being counted, one leaf at a time."""

    def __init__(self, teams: int) -> None:
        self.leaves = self.actions = self.dominoes = self.tranques = self.ties = 0
        self.wins = [0] * teams
        self.points = [0] * teams

    def leaf(self, domino: bool, winner: int | None, points: Sequence[int]) -> None:
        self.leaves += 1
        if domino:
            self.dominoes += 1
        else:
            self.tranques += 1
        if winner is None:
            self.ties += 1
        else:
            self.wins[winner] += 1
        for team in range(len(self.points)):
            self.points[team] += points[team]

    def totals(self) -> Totals:
        return Totals(
            leaves=self.leaves,
            actions=self.actions,
            dominoes=self.dominoes,
            tranques=self.tranques,
            ties=self.ties,
            wins=tuple(self.wins),
            points=tuple(self.points),
        )


@dataclass(frozen=True)
class PerftDeal:
    """A fixed deal, how the engine is to play it, how the referee reads it, and its totals."""

    name: str
    preset: str
    overrides: dict[str, Any]
    table: Table
    hands: tuple[str, ...]
    boneyard: str  # drawing order (boneyard[0] first, C2), or the tiles out of play (C3)
    start: int | str  # "first" (R6) or the starting seat
    expected: Totals

    def rules(self) -> Rules:
        return Rules.preset(self.preset, **self.overrides)

    def start_keywords(self) -> dict[str, Any]:
        return {"first": True} if self.start == "first" else {"starter": self.start}


def referee_totals(deal: PerftDeal) -> Totals:
    """The totals by brute force, every position kept as a value on a stack."""
    hands = [[pair(text) for text in hand.split()] for hand in deal.hands]
    boneyard = [pair(text) for text in deal.boneyard.split()]
    assert sorted([*(tile for hand in hands for tile in hand), *boneyard]) == sorted(DOUBLE_SIX)
    table = deal.table
    tally = Tally(table.teams)
    stack = [opening(table, hands, boneyard, deal.start)]
    while stack:
        position = stack.pop()
        legal = moves(table, position)
        tally.actions += len(legal)
        for move in legal:
            after, ending = play(table, position, move)
            if ending is None:
                stack.append(after)
            else:
                winner, points = score(table, after, ending)
                tally.leaf(ending.kind == DOMINO, winner, points)
    return tally.totals()


def engine_totals(deal: PerftDeal) -> Totals:
    """The same totals through the public `Round` API only: a position is reached again by
    dealing afresh and replaying the actions that lead to it."""
    rules = deal.rules()
    hands = [[Tile.parse(text) for text in hand.split()] for hand in deal.hands]
    boneyard = [Tile.parse(text) for text in deal.boneyard.split()]
    teams = range(deal.table.teams)
    tally = Tally(len(teams))

    def reached(path: Sequence[Any]) -> Round:
        round_ = Round.deal(rules, hands, boneyard, **deal.start_keywords())
        for action in path:
            round_.apply(action)
        return round_

    def walk(path: list[Any], round_: Round) -> None:
        legal = round_.legal_actions()
        tally.actions += len(legal)
        for index, action in enumerate(legal):
            # The last child reuses this round; the others start again from the deal.
            child = round_ if index == len(legal) - 1 else reached(path)
            child.apply(action)
            if child.is_over:
                assert child.legal_actions() == []
                result = child.result
                assert result is not None
                domino = result.kind is RoundEnd.DOMINO
                tally.leaf(domino, result.winner, [result.points[team] for team in teams])
            else:
                walk([*path, action], child)

    walk([], reached([]))
    return tally.totals()


WALKS: list[Callable[[PerftDeal], Totals]] = [referee_totals, engine_totals]
WALK_IDS = ["referee", "engine"]


def deal_id(deal: PerftDeal) -> str:
    return deal.name


# The deals -------------------------------------------------------------------------------
# Each deal lists every tile of the set (C9): the hands, then the boneyard in drawing order,
# or in sin-pozo the tiles out of play. The comments say what the tree goes through, as the
# referee counted it.

SIN_POZO_1V1 = Table(players=2, pairs=False, drawing=False, ponce=False)
CLASICO_1V1 = Table(players=2, pairs=False, drawing=True, ponce=False)
CLASICO_PAIRS = Table(players=4, pairs=True, drawing=True, ponce=False)
PONCE = Table(players=4, pairs=True, drawing=True, ponce=True)

SIN_POZO_DEALS = [
    # No double dealt: seat 1's 6-3 leads, not seat 0's 5-4 (R6, C3). Passes; 11 tied tranques.
    PerftDeal(
        name="R6-no-double-dealt-6-3-over-5-4",
        preset="sin-pozo",
        overrides={"players": 2},
        table=SIN_POZO_1V1,
        hands=("1-0 5-4 2-1 5-2 4-0 2-0 3-1", "6-0 4-3 5-1 6-2 3-0 5-3 6-3"),
        boneyard="0-0 1-1 2-2 3-2 3-3 4-1 4-2 4-4 5-0 5-5 6-1 6-4 6-5 6-6",
        start="first",
        expected=Totals(
            leaves=968,
            actions=4051,
            dominoes=551,
            tranques=417,
            ties=11,
            wins=(374, 583),
            points=(3587, 3918),
        ),
    ),
    # Seat 1 leads with any of its seven tiles; 25 tied tranques.
    PerftDeal(
        name="R7-seat-1-leads-any-tile",
        preset="sin-pozo",
        overrides={"players": 2},
        table=SIN_POZO_1V1,
        hands=("6-2 1-1 5-5 5-2 5-0 3-1 0-0", "4-0 5-4 4-4 4-3 2-2 6-6 5-3"),
        boneyard="1-0 2-0 2-1 3-0 3-2 3-3 4-1 4-2 5-1 6-0 6-1 6-3 6-4 6-5",
        start=1,
        expected=Totals(
            leaves=800,
            actions=4095,
            dominoes=293,
            tranques=507,
            ties=25,
            wins=(326, 449),
            points=(5289, 4985),
        ),
    ),
]

CLASICO_1V1_DEALS = [
    # 6-6 is in the pozo, so seat 1's 5-5 leads (R6). Draws until playable; 62 leaves end in a
    # tranque right after the draw that empties the pozo (C1); 2 tied tranques.
    PerftDeal(
        name="R6-6-6-in-the-pozo-5-5-leads",
        preset="clasico",
        overrides={"players": 2, "mode": "individual", "hand_size": 5},
        table=CLASICO_1V1,
        hands=("1-0 5-3 3-0 6-3 3-1", "6-4 5-4 2-2 5-5 4-4"),
        boneyard="4-3 6-2 4-2 6-5 5-2 6-6 3-2 1-1 4-0 5-1 2-0 2-1 6-1 5-0 4-1 3-3 0-0 6-0",
        start="first",
        expected=Totals(
            leaves=527, actions=2370, dominoes=257, tranques=270, ties=2, wins=(242, 283), points=(2326, 4671)
        ),
    ),
    # 39 leaves end in a tranque on the draw that empties the pozo; 19 tied tranques.
    PerftDeal(
        name="R7-seat-1-leads-any-tile",
        preset="clasico",
        overrides={"players": 2, "mode": "individual", "hand_size": 4},
        table=CLASICO_1V1,
        hands=("2-2 4-0 1-1 3-3", "5-2 4-1 5-1 4-2"),
        boneyard="3-1 6-5 5-3 5-4 6-6 0-0 2-1 3-0 5-0 2-0 4-3 6-0 4-4 6-2 6-1 1-0 5-5 6-4 6-3 3-2",
        start=1,
        expected=Totals(
            leaves=529,
            actions=2178,
            dominoes=373,
            tranques=156,
            ties=19,
            wins=(213, 297),
            points=(3731, 5268),
        ),
    ),
]

CLASICO_PAIRS_DEALS = [
    # 6-6 is in the pozo: seat 0's 5-5 leads (R6). 9 tranques with the teams tied.
    PerftDeal(
        name="R6-6-6-in-the-pozo-5-5-leads",
        preset="clasico",
        overrides={"hand_size": 3},
        table=CLASICO_PAIRS,
        hands=("4-1 5-0 5-5", "2-0 4-0 4-2", "6-4 3-3 6-0", "1-0 5-1 6-2"),
        boneyard="6-3 2-2 4-4 6-6 2-1 5-4 6-5 4-3 1-1 5-3 6-1 3-2 5-2 3-0 3-1 0-0",
        start="first",
        expected=Totals(
            leaves=464, actions=2235, dominoes=380, tranques=84, ties=9, wins=(422, 33), points=(17362, 1655)
        ),
    ),
    # 11 leaves end in a tranque on the draw that empties the pozo; 7 with the teams tied.
    PerftDeal(
        name="R7-seat-3-leads-any-tile",
        preset="clasico",
        overrides={"hand_size": 4},
        table=CLASICO_PAIRS,
        hands=("1-0 5-4 3-1 6-1", "6-3 4-3 0-0 1-1", "5-0 6-0 6-6 6-5", "3-2 5-2 5-5 2-0"),
        boneyard="6-2 4-0 3-0 4-1 4-2 3-3 6-4 2-2 5-1 5-3 4-4 2-1",
        start=3,
        expected=Totals(
            leaves=622,
            actions=2942,
            dominoes=537,
            tranques=85,
            ties=7,
            wins=(342, 273),
            points=(15120, 12377),
        ),
    ),
]

PONCE_DEALS = [
    # Seat 1's 6-6 leads (R6). The game's first scoring pass, worth 2, comes in 509 leaves;
    # partners pass for free in 247. Tranques: partners tied for fewest pips win in 4 leaves
    # (decided), players of both teams tie in 1; 47 leaves round a total ending in 5 down.
    PerftDeal(
        name="R6-6-6-leads-first-scoring-pass-worth-2",
        preset="ponce",
        overrides={"hand_size": 3},
        table=PONCE,
        hands=("2-0 4-1 6-0", "6-6 5-4 5-1", "0-0 3-3 3-0", "4-4 3-1 4-0"),
        boneyard="4-3 5-2 2-1 6-1 6-5 6-2 3-2 1-1 5-5 1-0 2-2 5-0 5-3 6-4 6-3 4-2",
        start="first",
        expected=Totals(
            leaves=558, actions=2756, dominoes=490, tranques=68, ties=1, wins=(312, 245), points=(1679, 2054)
        ),
    ),
    # Not the first round: every scoring pass is worth 1. 10 leaves end in a tranque on the
    # draw that empties the pozo (the blocker is the last player to play); 1 partners' tie,
    # 1 tie across teams.
    PerftDeal(
        name="R7-seat-3-leads-any-tile",
        preset="ponce",
        overrides={"hand_size": 4},
        table=PONCE,
        hands=("6-4 2-1 6-2 4-0", "3-2 4-1 3-0 6-6", "5-5 6-1 6-0 2-0", "5-3 1-1 2-2 5-0"),
        boneyard="3-1 5-4 6-5 3-3 0-0 4-4 4-2 1-0 5-1 4-3 5-2 6-3",
        start=3,
        expected=Totals(
            leaves=605, actions=3621, dominoes=555, tranques=50, ties=1, wins=(367, 237), points=(2164, 1230)
        ),
    ),
]


# The tests -------------------------------------------------------------------------------


@pytest.mark.parametrize("walk", WALKS, ids=WALK_IDS)
@pytest.mark.parametrize("deal", SIN_POZO_DEALS, ids=deal_id)
def test_perft_V1_sin_pozo_two_players(deal: PerftDeal, walk: Callable[[PerftDeal], Totals]) -> None:
    assert walk(deal) == deal.expected


@pytest.mark.parametrize("walk", WALKS, ids=WALK_IDS)
@pytest.mark.parametrize("deal", CLASICO_1V1_DEALS, ids=deal_id)
def test_perft_R9_clasico_two_players_with_pozo(deal: PerftDeal, walk: Callable[[PerftDeal], Totals]) -> None:
    assert walk(deal) == deal.expected


@pytest.mark.parametrize("walk", WALKS, ids=WALK_IDS)
@pytest.mark.parametrize("deal", CLASICO_PAIRS_DEALS, ids=deal_id)
def test_perft_R13_clasico_four_players_in_pairs(
    deal: PerftDeal, walk: Callable[[PerftDeal], Totals]
) -> None:
    assert walk(deal) == deal.expected


@pytest.mark.parametrize("walk", WALKS, ids=WALK_IDS)
@pytest.mark.parametrize("deal", PONCE_DEALS, ids=deal_id)
def test_perft_V6_ponce_passes_score(deal: PerftDeal, walk: Callable[[PerftDeal], Totals]) -> None:
    assert walk(deal) == deal.expected
