"""Fair-play signals: pure statistics over what the store keeps, each a `Signal` for a
moderator to look at, never a sanction (docs/design.md, «Fair-play signals»).

Three kinds, each with the evidence a moderator needs to judge it:

- `accuracy_above_rating`: an account whose decisions agree with the expert's far more often
  than its rating predicts. Per format, the expected accuracy of a game is a line in the
  rating's μ as the account sat down, fitted on every sampled game of that format (weighted
  least squares, weighted by the game's judged decisions), then fitted again without the
  accounts `trim_z` standard errors or more above it, until those stay the same, so that a
  few of them do not pull the line up (for the honest as well as for them). An account's
  expected "precisa" moves are the sum over its sampled games of decisions × the line at its
  μ then; the spread of a game's count around the line is the binomial one times the
  population's overdispersion φ (≥ 1: games differ in how hard they are, beyond chance).
  Flagged with enough games and decisions when its accuracy is `accuracy_margin` points or
  more above the expectation *and* `accuracy_z` standard errors above it.
- `pair_sits_together`: two accounts that keep sitting at the same individual tables (3 to 6,
  each for themselves) and win there, between them, far more than the ratings of everybody
  at those tables predict (the rating model's chances of each seat winning), plus what each
  wins above its rating at the tables it plays without the other (so that a strong player
  not yet rated so, who wins everywhere, does not make every table-mate suspect): one
  feeding the other points leaves exactly that trace. Flagged with `pair_min_games` games together when
  the excess of their joint wins is at least `pair_margin` of the games and `pair_z`
  standard errors.
- `rating_flow`: rating points that keep flowing from one account to another. Each rated
  game (duel or individual; pairs are left out: a partner's gain is not an opponent's
  loss) moves μ; on the shown scale (60 per μ) each gainer's gain is taken from the losers
  in proportion to what each lost. Flagged when one account has given another, net, at least
  `flow_points` over `flow_min_games` games together or more, that is at least `flow_share` of
  everything the receiver gained, and the receiver finished ahead (won, the giver did not)
  in at least `flow_wins` of those games.
- `ficha_flow`: fichas (play money, fichas/) that keep flowing from one account to another
  at staked tables: losing on purpose to feed a friend. Each game's movements give every
  account's net (payout and refunds less its stake); each gainer's net gain is taken from the
  losers in proportion to what each lost, as for `rating_flow`. Flagged when one account has
  given another, net, at least `ficha_flow_fichas` over `ficha_flow_min_games` staked games
  together or more, that is at least `ficha_flow_share` of everything the receiver won, and the
  receiver came out ahead of the giver in at least `ficha_flow_wins` of those games; the
  games' ids are the evidence.

No sample below the minimums ever flags: small samples say nothing.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from tranque.server.fichas.ledger import Movement, account_of
from tranque.server.players import ratings
from tranque.server.players.rating_scale import ALPHA
from tranque.server.store.fairplay import FairPlaySample
from tranque.server.store.players import GamePlayerRow

ACCURACY = "accuracy_above_rating"
PAIR = "pair_sits_together"
FLOW = "rating_flow"
FICHA_FLOW = "ficha_flow"
KINDS = (ACCURACY, PAIR, FLOW, FICHA_FLOW)
GAME_IDS = 20  # evidence lists at most this many game ids (the latest)
TRIM_ROUNDS = 5  # fits of the accuracy line without the accounts far above it, at most


@dataclass(frozen=True)
class Signal:
    """Something for a moderator to review: its kind, the accounts it is about (sorted,
    except a flow's: giver then receiver), the evidence, and a game when it is about one."""

    kind: str
    accounts: tuple[int, ...]
    evidence: dict[str, Any]
    game_id: str | None = None

    @property
    def key(self) -> tuple[str, tuple[int, ...], str]:
        """What makes two signals the same finding (the format: the same accounts may be
        flagged in two)."""
        return self.kind, self.accounts, str(self.evidence.get("format", ""))


@dataclass(frozen=True)
class Thresholds:
    """When a signal speaks (server settings `fairplay_*`; docs/design.md gives the why)."""

    min_games: int = 10  # accuracy: sampled games of an account in a format
    min_decisions: int = 200  # accuracy: their judged decisions, together
    accuracy_margin: float = 8.0  # accuracy: points above the expectation
    accuracy_z: float = 4.0  # accuracy: standard errors above the expectation
    population_games: int = 30  # sampled games of a format before its line is fitted
    trim_z: float = 2.0  # accounts this far above the line are left out of it when it is fitted again
    pair_min_games: int = 10  # a pair: individual games the two sat at together
    pair_margin: float = 0.25  # a pair: joint wins above the expectation, as a share of those games
    pair_z: float = 3.0  # a pair: standard errors above the expectation
    flow_min_games: int = 10  # points given: rated games the two played together
    flow_points: float = 300.0  # points given: net, on the shown scale
    flow_share: float = 0.5  # points given: their share of all the receiver gained
    flow_wins: float = 0.75  # points given: share of those games the receiver finished ahead of the giver
    ficha_flow_min_games: int = 10  # fichas given: staked games the two played together
    ficha_flow_fichas: int = 500  # fichas given: net
    ficha_flow_share: float = 0.5  # fichas given: their share of all the receiver won at tables
    ficha_flow_wins: float = 0.75  # fichas given: share of those games the receiver came out ahead


THRESHOLDS = Thresholds()


# 1. Accuracy far above the rating --------------------------------------------------------


@dataclass(frozen=True)
class Line:
    """The expected accuracy (a share, 0 to 1) of a game at μ: `intercept + slope·μ`,
    clipped; `dispersion` (φ ≥ 1) widens the binomial spread; fitted on `games` games."""

    intercept: float
    slope: float
    dispersion: float
    games: int

    def at(self, mu: float) -> float:
        return min(0.99, max(0.01, self.intercept + self.slope * mu))

    def to_json(self) -> dict[str, float | int]:
        return {
            "intercept": round(self.intercept, 4),
            "slope": round(self.slope, 5),
            "dispersion": round(self.dispersion, 3),
            "games": self.games,
        }


def fit_line(samples: Sequence[FairPlaySample]) -> Line | None:
    """The weighted least-squares line of accuracy in μ over `samples` (those with judged
    decisions); None without any."""
    judged = [s for s in samples if s.decisions > 0]
    weight = sum(s.decisions for s in judged)
    if not judged or weight == 0:
        return None
    mean_mu = sum(s.decisions * s.mu_before for s in judged) / weight
    mean_y = sum(s.accurate for s in judged) / weight
    spread = sum(s.decisions * (s.mu_before - mean_mu) ** 2 for s in judged)
    together = sum(
        s.decisions * (s.mu_before - mean_mu) * (s.accurate / s.decisions - mean_y) for s in judged
    )
    slope = together / spread if spread > 1e-9 else 0.0
    line = Line(mean_y - slope * mean_mu, slope, 1.0, len(judged))
    freedom = max(1, len(judged) - 2)
    chi2 = 0.0
    for s in judged:
        p = line.at(s.mu_before)
        chi2 += (s.accurate - s.decisions * p) ** 2 / (s.decisions * p * (1 - p))
    return Line(line.intercept, line.slope, max(1.0, chi2 / freedom), len(judged))


@dataclass(frozen=True)
class AccountAccuracy:
    """An account's sampled games of one format against the line."""

    user_id: int
    format: str
    games: int
    decisions: int
    accurate: int
    expected: float  # expected "precisa" moves
    variance: float  # of their count
    total_loss: float
    mu_first: float
    mu_last: float
    game_ids: tuple[str, ...]

    @property
    def excess(self) -> float:
        """Accuracy above the expectation, in points."""
        return 100.0 * (self.accurate - self.expected) / self.decisions if self.decisions else 0.0

    @property
    def z(self) -> float:
        return (self.accurate - self.expected) / math.sqrt(self.variance) if self.variance > 0 else 0.0


def account_accuracies(samples: Sequence[FairPlaySample], line: Line) -> list[AccountAccuracy]:
    """Every account of `samples` (one format) measured against `line`."""
    mine: dict[int, list[FairPlaySample]] = defaultdict(list)
    for sample in sorted(samples, key=lambda s: (s.finished_at, s.game_id)):
        if sample.decisions > 0:
            mine[sample.user_id].append(sample)
    found = []
    for user_id, games in mine.items():
        expected = sum(s.decisions * line.at(s.mu_before) for s in games)
        variance = line.dispersion * sum(
            s.decisions * line.at(s.mu_before) * (1 - line.at(s.mu_before)) for s in games
        )
        found.append(
            AccountAccuracy(
                user_id=user_id,
                format=games[0].format,
                games=len(games),
                decisions=sum(s.decisions for s in games),
                accurate=sum(s.accurate for s in games),
                expected=expected,
                variance=variance,
                total_loss=sum(s.total_loss for s in games),
                mu_first=games[0].mu_before,
                mu_last=games[-1].mu_before,
                game_ids=tuple(s.game_id for s in games[-GAME_IDS:]),
            )
        )
    return sorted(found, key=lambda a: a.user_id)


def _far_above(account: AccountAccuracy, limits: Thresholds) -> bool:
    return (
        account.games >= limits.min_games
        and account.decisions >= limits.min_decisions
        and account.excess >= limits.accuracy_margin
        and account.z >= limits.accuracy_z
    )


def trimmed_line(population: Sequence[FairPlaySample], line: Line, limits: Thresholds) -> Line:
    """`line` fitted again without the accounts `trim_z` or more standard errors above it
    (with enough games), until those stay the same (at most `TRIM_ROUNDS` times): a few
    accounts far above the rest must not raise their own expectation, nor the honest ones'."""
    left_out: set[int] = set()
    for _ in range(TRIM_ROUNDS):
        above = {
            a.user_id
            for a in account_accuracies(population, line)
            if a.games >= limits.min_games and a.decisions >= limits.min_decisions and a.z >= limits.trim_z
        }
        if above == left_out:
            break
        kept = [s for s in population if s.user_id not in above]
        refitted = fit_line(kept)
        if refitted is None or refitted.games < limits.population_games:
            break
        left_out, line = above, refitted
    return line


def accuracy_signals(samples: Iterable[FairPlaySample], limits: Thresholds = THRESHOLDS) -> list[Signal]:
    """`accuracy_above_rating` for every account and format far above its line."""
    by_format: dict[str, list[FairPlaySample]] = defaultdict(list)
    for sample in samples:
        by_format[sample.format].append(sample)
    signals = []
    for _, population in sorted(by_format.items()):
        line = fit_line(population)
        if line is None or line.games < limits.population_games:
            continue
        line = trimmed_line(population, line, limits)
        for account in account_accuracies(population, line):
            if _far_above(account, limits):
                signals.append(_accuracy_signal(account, line))
    return signals


def _accuracy_signal(account: AccountAccuracy, line: Line) -> Signal:
    decisions = account.decisions
    return Signal(
        ACCURACY,
        (account.user_id,),
        {
            "format": account.format,
            "games": account.games,
            "decisions": decisions,
            "accurate": account.accurate,
            "accuracy": round(100.0 * account.accurate / decisions, 1),
            "expected_accuracy": round(100.0 * account.expected / decisions, 1),
            "excess": round(account.excess, 1),
            "z": round(account.z, 2),
            "mean_loss": round(account.total_loss / decisions, 2),
            "mu_first": round(account.mu_first, 2),
            "mu_last": round(account.mu_last, 2),
            "line": line.to_json(),
            "game_ids": list(account.game_ids),
        },
    )


# Rated results, by game --------------------------------------------------------------------


def by_game(results: Iterable[GamePlayerRow]) -> list[list[GamePlayerRow]]:
    """The rated results grouped by game (games oldest first, players by seat), keeping the
    games every part of which has its ratings before and after."""
    games: dict[str, list[GamePlayerRow]] = defaultdict(list)
    for row in results:
        games[row.game_id].append(row)
    kept = [
        sorted(rows, key=lambda r: r.seat)
        for rows in games.values()
        if len(rows) >= 2 and all(r.mu_before is not None and r.mu_after is not None for r in rows)
    ]
    return sorted(kept, key=lambda rows: (rows[0].finished_at, rows[0].game_id))


def _before(row: GamePlayerRow) -> ratings.Rating:
    assert row.mu_before is not None and row.sigma_before is not None
    return ratings.rating(row.mu_before, row.sigma_before)


# 2. Pairs that keep sitting together ---------------------------------------------------------


@dataclass
class _Pair:
    games: int = 0
    joint_wins: int = 0  # games one of the two won
    joint_expected: float = 0.0
    joint_variance: float = 0.0
    wins: tuple[int, int] = (0, 0)
    expected: tuple[float, float] = (0.0, 0.0)
    game_ids: list[str] | None = None


def pair_signals(results: Iterable[GamePlayerRow], limits: Thresholds = THRESHOLDS) -> list[Signal]:
    """`pair_sits_together` for every two accounts whose joint wins at the individual tables
    they shared are far above what everybody's ratings there predicted, once each account's
    own excess at the tables it played without the other (if `pair_min_games` or more) is
    carried over: a strong player underrated so far wins everywhere, a fed one with its feeder."""
    pairs: dict[tuple[int, int], _Pair] = defaultdict(_Pair)
    played: dict[int, int] = defaultdict(int)  # individual rated games, per account
    won: dict[int, int] = defaultdict(int)
    chance: dict[int, float] = defaultdict(float)  # expected wins, by the ratings
    for rows in by_game(r for r in results if r.format == "individual"):
        chances = ratings.win_chances([[_before(row)] for row in rows])
        for row, value in zip(rows, chances, strict=True):
            played[row.user_id] += 1
            won[row.user_id] += int(row.won)
            chance[row.user_id] += value
        for (i, a), (j, b) in combinations(enumerate(rows), 2):
            if a.user_id > b.user_id:
                (i, a), (j, b) = (j, b), (i, a)
            pair = pairs[a.user_id, b.user_id]
            joint = min(1.0, chances[i] + chances[j])
            pair.games += 1
            pair.joint_wins += int(a.won or b.won)
            pair.joint_expected += joint
            pair.joint_variance += joint * (1 - joint)
            pair.wins = (pair.wins[0] + int(a.won), pair.wins[1] + int(b.won))
            pair.expected = (pair.expected[0] + chances[i], pair.expected[1] + chances[j])
            pair.game_ids = [*(pair.game_ids or []), a.game_id][-GAME_IDS:]

    def apart(user: int, place: int, pair: _Pair) -> float:
        """The account's wins above the ratings per game at tables without the other."""
        games = played[user] - pair.games
        if games < limits.pair_min_games:
            return 0.0
        return (won[user] - pair.wins[place] - (chance[user] - pair.expected[place])) / games

    signals = []
    for (first, second), pair in sorted(pairs.items()):
        if pair.games < limits.pair_min_games or pair.joint_variance <= 0:
            continue
        elsewhere = apart(first, 0, pair) + apart(second, 1, pair)
        expected = min(float(pair.games), max(0.0, pair.joint_expected + elsewhere * pair.games))
        excess = pair.joint_wins - expected
        z = excess / math.sqrt(pair.joint_variance)
        if excess / pair.games < limits.pair_margin or z < limits.pair_z:
            continue
        signals.append(
            Signal(
                PAIR,
                (first, second),
                {
                    "format": "individual",
                    "games_together": pair.games,
                    "share_of_games": [
                        round(pair.games / played[first], 3),
                        round(pair.games / played[second], 3),
                    ],
                    "joint_wins": pair.joint_wins,
                    "joint_expected": round(expected, 2),
                    "by_ratings_alone": round(pair.joint_expected, 2),
                    "wins": list(pair.wins),
                    "expected_wins": [round(value, 2) for value in pair.expected],
                    "excess_elsewhere": [round(apart(first, 0, pair), 3), round(apart(second, 1, pair), 3)],
                    "z": round(z, 2),
                    "game_ids": list(pair.game_ids or []),
                },
            )
        )
    return signals


# 3. Rating points flowing between the same accounts -----------------------------------------


@dataclass
class _Flow:
    games: int = 0
    given: float = 0.0  # from the first of the pair to the second, on the shown scale
    taken: float = 0.0  # the other way
    ahead: tuple[int, int] = (0, 0)  # games the first (second) won and the other did not
    game_ids: list[str] | None = None


def split_flows(change: Mapping[int, float]) -> dict[tuple[int, int], float]:
    """(giver, receiver) → what one game moved between them, from each account's `change` in
    it: each gainer's gain taken from the losers in proportion to what each lost."""
    lost = sum(-value for value in change.values() if value < 0)
    if lost <= 0:
        return {}
    return {
        (giver, receiver): gain * -loss / lost
        for receiver, gain in change.items()
        if gain > 0
        for giver, loss in change.items()
        if loss < 0
    }


def game_flows(rows: Sequence[GamePlayerRow]) -> dict[tuple[int, int], float]:
    """(giver, receiver) → the points one game moved between them (60 per μ: the shown scale)."""
    return split_flows(
        {row.user_id: ALPHA * ((row.mu_after or 0.0) - (row.mu_before or 0.0)) for row in rows}
    )


@dataclass(frozen=True)
class _Flagged:
    """A pair whose flow passed the thresholds: who gave, who received, how much, net, and
    of what the receiver gained in all, and in how many games the receiver finished ahead."""

    giver: int
    receiver: int
    flow: _Flow
    amount: float
    total: float
    ahead: int

    @property
    def given(self) -> float:
        return self.flow.given if self.giver < self.receiver else self.flow.taken

    @property
    def given_back(self) -> float:
        return self.flow.taken if self.giver < self.receiver else self.flow.given


def flagged_flows(
    flows: Mapping[tuple[int, int], _Flow],
    gained: Mapping[int, float],
    min_games: int,
    least: float,
    share: float,
    wins: float,
) -> list[_Flagged]:
    """The pairs (first < second) with `min_games` games together or more in which one gave
    the other, net, at least `least`, that is at least `share` of all the receiver gained,
    and the receiver finished ahead in at least `wins` of those games."""
    found = []
    for (first, second), flow in sorted(flows.items()):
        if flow.games < min_games:
            continue
        net = flow.given - flow.taken
        giver, receiver = (first, second) if net > 0 else (second, first)
        ahead = flow.ahead[1] if net > 0 else flow.ahead[0]
        amount, total = abs(net), gained.get(receiver, 0.0)
        if amount < least or total <= 0 or amount / total < share or ahead / flow.games < wins:
            continue
        found.append(_Flagged(giver, receiver, flow, amount, total, ahead))
    return found


def flow_signals(results: Iterable[GamePlayerRow], limits: Thresholds = THRESHOLDS) -> list[Signal]:
    """`rating_flow` for every giver and receiver the rated points keep flowing between."""
    flows: dict[tuple[int, int], _Flow] = defaultdict(_Flow)
    gained: dict[int, float] = defaultdict(float)  # everything each account gained
    for rows in by_game(r for r in results if r.format != "pairs"):
        moved = game_flows(rows)
        for row in rows:
            gain = ALPHA * ((row.mu_after or 0.0) - (row.mu_before or 0.0))
            gained[row.user_id] += max(0.0, gain)
        for a, b in combinations(sorted(rows, key=lambda r: r.user_id), 2):
            flow = flows[a.user_id, b.user_id]
            flow.games += 1
            flow.given += moved.get((a.user_id, b.user_id), 0.0)
            flow.taken += moved.get((b.user_id, a.user_id), 0.0)
            flow.ahead = (
                flow.ahead[0] + int(a.won and not b.won),
                flow.ahead[1] + int(b.won and not a.won),
            )
            flow.game_ids = [*(flow.game_ids or []), a.game_id][-GAME_IDS:]
    return [
        Signal(
            FLOW,
            (found.giver, found.receiver),
            {
                "games_together": found.flow.games,
                "net_points": round(found.amount, 1),
                "given": round(found.given, 1),
                "given_back": round(found.given_back, 1),
                "receiver_gained": round(found.total, 1),
                "share_of_gain": round(found.amount / found.total, 3),
                "receiver_ahead": found.ahead,
                "game_ids": list(found.flow.game_ids or []),
            },
        )
        for found in flagged_flows(
            flows, gained, limits.flow_min_games, limits.flow_points, limits.flow_share, limits.flow_wins
        )
    ]


def all_signals(
    samples: Iterable[FairPlaySample], results: Sequence[GamePlayerRow], limits: Thresholds = THRESHOLDS
) -> list[Signal]:
    """The three kinds over what the store keeps of the window looked at."""
    return [
        *accuracy_signals(samples, limits),
        *pair_signals(results, limits),
        *flow_signals(results, limits),
    ]


# 4. Fichas flowing from one account to another ------------------------------------------------


def game_nets(movements: Iterable[Movement]) -> dict[str, dict[int, int]]:
    """Each game's (by its id, the movements' `ref`) net for every account in it: what came
    back to it (payout, refund, unstake) less what it put in (stake)."""
    nets: dict[str, dict[int, int]] = defaultdict(dict)
    for movement in movements:
        for holder, sign in ((movement.source, -1), (movement.destination, 1)):
            user_id = account_of(holder)
            if user_id is not None:
                game = nets[movement.ref]
                game[user_id] = game.get(user_id, 0) + sign * movement.amount
    return nets


def ficha_game_flows(net: dict[int, int]) -> dict[tuple[int, int], float]:
    """(giver, receiver) → the fichas one game moved between them (the bank's cut is nobody's
    gain)."""
    return split_flows({user_id: float(value) for user_id, value in net.items()})


def ficha_flow_signals(movements: Iterable[Movement], limits: Thresholds = THRESHOLDS) -> list[Signal]:
    """`ficha_flow` for every giver and receiver the fichas of staked games keep flowing between
    (`movements`: the table games' movements of the window, store
    `ficha_game_movements_since`)."""
    flows: dict[tuple[int, int], _Flow] = defaultdict(_Flow)
    won: dict[int, float] = defaultdict(float)  # everything each account won, net, game by game
    for game_id, net in game_nets(movements).items():  # in the order the games were settled
        moved = ficha_game_flows(net)
        for user_id, value in net.items():
            won[user_id] += max(0, value)
        for a, b in combinations(sorted(net), 2):
            flow = flows[a, b]
            flow.games += 1
            flow.given += moved.get((a, b), 0.0)
            flow.taken += moved.get((b, a), 0.0)
            flow.ahead = (flow.ahead[0] + int(net[a] > net[b]), flow.ahead[1] + int(net[b] > net[a]))
            flow.game_ids = [*(flow.game_ids or []), game_id][-GAME_IDS:]
    return [
        Signal(
            FICHA_FLOW,
            (found.giver, found.receiver),
            {
                "games_together": found.flow.games,
                "net_fichas": round(found.amount),
                "given": round(found.given),
                "given_back": round(found.given_back),
                "receiver_won": round(found.total),
                "share_of_winnings": round(found.amount / found.total, 3),
                "receiver_ahead": found.ahead,
                "game_ids": list(found.flow.game_ids or []),
            },
        )
        for found in flagged_flows(
            flows,
            won,
            limits.ficha_flow_min_games,
            limits.ficha_flow_fichas,
            limits.ficha_flow_share,
            limits.ficha_flow_wins,
        )
    ]
