"""The fair-play signals' statistics (moderation/signals.py) on constructed data: an account
far above what its rating predicts is flagged with its evidence and one in line is not; a
pair that keeps winning together at individual tables is flagged and a fair table is not;
rating points fed from one account to another are flagged and an even rivalry is not; and
small samples never flag, however lopsided."""

from __future__ import annotations

import dataclasses
from itertools import count

from tranque.server.moderation.signals import (
    ACCURACY,
    FLOW,
    PAIR,
    Thresholds,
    accuracy_signals,
    all_signals,
    fit_line,
    flow_signals,
    pair_signals,
)
from tranque.server.players import ratings
from tranque.server.store import FairPlaySample, GamePlayerRow

LIMITS = Thresholds()
DECISIONS = 40  # judged decisions per sampled game


def expected_share(mu: float) -> float:
    """How accurate the constructed population is at μ: 70% at 25, a point more per μ."""
    return 0.70 + 0.01 * (mu - 25.0)


def samples_of(
    user_id: int, mus: list[float], shares: list[float], start: float = 0.0, fmt: str = "duel"
) -> list[FairPlaySample]:
    """One sampled game per μ, each `DECISIONS` decisions, `share` of them accurate."""
    return [
        FairPlaySample(
            game_id=f"g{user_id}-{number}",
            user_id=user_id,
            seat=0,
            finished_at=start + number,
            format=fmt,
            mu_before=mu,
            sigma_before=3.0,
            decisions=DECISIONS,
            accurate=round(DECISIONS * share),
            inaccuracies=DECISIONS - round(DECISIONS * share),
            errors=0,
            total_loss=2.0 * (DECISIONS - round(DECISIONS * share)),
            deals=100,
            sampled_at=start + number,
        )
        for number, (mu, share) in enumerate(zip(mus, shares, strict=True))
    ]


def honest_population(accounts: int = 12, games: int = 12) -> list[FairPlaySample]:
    """Accounts from μ 19 to 31, each game's accuracy around its line (±5 points, evenly)."""
    found = []
    for user in range(1, accounts + 1):
        mu = 19.0 + 12.0 * (user - 1) / (accounts - 1)
        wobble = [0.05 * ((user + game) % 3 - 1) for game in range(games)]
        found += samples_of(user, [mu] * games, [expected_share(mu) + w for w in wobble])
    return found


def test_FP2b_an_account_far_above_its_rating_is_flagged_with_its_evidence() -> None:
    cheat = samples_of(99, [25.0 + 0.2 * game for game in range(12)], [0.92] * 12)
    signals = accuracy_signals(honest_population() + cheat, LIMITS)
    assert [(s.kind, s.accounts) for s in signals] == [(ACCURACY, (99,))]
    evidence = signals[0].evidence
    assert evidence["format"] == "duel"
    assert evidence["games"] == 12 and evidence["decisions"] == 12 * DECISIONS
    assert evidence["accuracy"] == 92.5  # 37 of 40 each game
    assert 70.0 <= evidence["expected_accuracy"] <= 72.5  # the line at μ 25 to 27.2
    assert evidence["excess"] >= LIMITS.accuracy_margin and evidence["z"] >= LIMITS.accuracy_z
    assert evidence["game_ids"] == [f"g99-{n}" for n in range(12)]
    # The line was fitted again without the flagged account: it is the population's.
    assert abs(evidence["line"]["slope"] - 0.01) < 0.002


def test_several_accounts_far_above_do_not_lift_their_own_expectation() -> None:
    # A quarter of the accounts agree with the expert far more than the rest; their ratings
    # have climbed: fitted on everybody, the line would rise towards them.
    cheats = [samples_of(90 + n, [27.0 + 0.5 * g for g in range(12)], [0.86] * 12) for n in range(4)]
    population = honest_population() + [s for cheat in cheats for s in cheat]
    signals = accuracy_signals(population, LIMITS)
    assert [s.accounts for s in signals] == [(90,), (91,), (92,), (93,)]
    assert abs(signals[0].evidence["line"]["slope"] - 0.01) < 0.002


def test_accounts_in_line_with_their_rating_are_not_flagged() -> None:
    strong = samples_of(50, [31.0] * 12, [expected_share(31.0) + 0.03] * 12)  # strong and rated so
    assert accuracy_signals(honest_population() + strong, LIMITS) == []


def test_a_strong_account_rated_low_is_flagged_but_rated_high_is_not() -> None:
    # The same accuracy says nothing by itself: it is far above μ 19's line, in line at μ 40.
    low = samples_of(60, [19.0] * 12, [0.88] * 12)
    high = samples_of(61, [40.0] * 12, [0.88] * 12)
    assert [s.accounts for s in accuracy_signals(honest_population() + low + high, LIMITS)] == [(60,)]


def test_small_samples_never_flag_an_account() -> None:
    too_few_games = samples_of(99, [19.0] * 9, [1.0] * 9)
    assert accuracy_signals(honest_population() + too_few_games, LIMITS) == []
    # Enough games of the account, but a population too small to fit a line on.
    lone = samples_of(99, [19.0] * 12, [1.0] * 12)
    assert accuracy_signals(honest_population(accounts=2, games=8) + lone, LIMITS) == []
    # Enough games of too few decisions.
    short = [
        dataclasses.replace(s, decisions=10, accurate=10, inaccuracies=0)
        for s in samples_of(99, [19.0] * 12, [1.0] * 12)
    ]
    assert accuracy_signals(honest_population() + short, LIMITS) == []


def test_the_line_is_the_weighted_least_squares_one() -> None:
    line = fit_line(honest_population())
    assert line is not None
    assert abs(line.slope - 0.01) < 0.001 and abs(line.at(25.0) - 0.70) < 0.01
    assert line.dispersion >= 1.0 and line.games == 12 * 12
    assert fit_line([]) is None


# Rated results, built with the real rating model -----------------------------------------------

_games = count(1)


def rated_game(
    seats: list[int], winners: set[int], current: dict[int, ratings.Rating], fmt: str, at: float
) -> list[GamePlayerRow]:
    """One rated game of accounts `seats` (each alone), `winners` first and the others tied
    behind them, rated by the site's model from `current` (updated)."""
    before = [current.setdefault(user, ratings.rating()) for user in seats]
    after = ratings.rate([[rating] for rating in before], [0 if user in winners else 1 for user in seats])
    game_id = f"t{next(_games)}.1"
    rows = []
    for seat, user in enumerate(seats):
        rows.append(
            GamePlayerRow(
                game_id,
                user,
                seat,
                at,
                "clasico",
                fmt,
                False,
                user in winners,
                False,
                10,
                before[seat].mu,
                before[seat].sigma,
                after[seat][0].mu,
                after[seat][0].sigma,
            )
        )
        current[user] = after[seat][0]
    return rows


def tables(together: list[int], winner_apart: int = 0) -> list[GamePlayerRow]:
    """Rounds of three individual games (four players, each alone): accounts 1 and 2 together
    with 3 and 4, won by `together[k]`; then 1 with 5, 6, 7 and 2 with 8, 9, 10, apart, won
    in turn by each (or by `winner_apart` three times in four, when given)."""
    current: dict[int, ratings.Rating] = {}
    rows = []
    for k, winner in enumerate(together):
        rows += rated_game([1, 2, 3, 4], {winner}, current, "individual", 3.0 * k)
        for seats in ([1, 5, 6, 7], [2, 8, 9, 10]):
            turn = seats[k % 4]
            if winner_apart in seats and k % 4:
                turn = winner_apart
            rows += rated_game(seats, {turn}, current, "individual", 3.0 * k + 1)
    return rows


def test_a_pair_winning_together_far_above_the_ratings_is_flagged() -> None:
    # Account 1 feeds account 2: together one of them always wins, 2 ten times of twelve;
    # apart each wins its share.
    signals = pair_signals(tables([2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 1]), LIMITS)
    assert [(s.kind, s.accounts) for s in signals] == [(PAIR, (1, 2))]
    evidence = signals[0].evidence
    assert evidence["games_together"] == 12 and evidence["joint_wins"] == 12
    assert evidence["wins"] == [2, 10]
    assert evidence["joint_expected"] < 8 and evidence["z"] >= LIMITS.pair_z
    assert evidence["share_of_games"] == [0.5, 0.5] and len(evidence["game_ids"]) == 12


def test_a_fair_table_flags_no_pair() -> None:
    assert pair_signals(tables([1, 2, 3, 4] * 3), LIMITS) == []


def test_a_strong_player_winning_everywhere_makes_no_table_mate_suspect() -> None:
    # Account 2 wins three games in four at every table, with account 1 or without: the
    # ratings alone would find 1 and 2 winning together far too often; what 2 wins apart
    # explains it.
    signals = pair_signals(tables([2, 2, 2, 3] * 3, winner_apart=2), LIMITS)
    assert signals == []


def test_a_pair_needs_enough_games_together_to_be_flagged() -> None:
    assert pair_signals(tables([2, 2, 2, 2, 1, 2, 2, 2, 2]), LIMITS) == []  # 9 games together


def test_pairs_are_looked_for_at_individual_tables_only() -> None:
    current: dict[int, ratings.Rating] = {}
    duels = [row for n in range(12) for row in rated_game([1, 2], {2}, current, "duel", float(n))]
    assert pair_signals(duels, LIMITS) == []


def duels(winner_of: list[int], others: int = 0) -> list[GamePlayerRow]:
    """Duels of accounts 1 and 2, game n won by `winner_of[n]`; then `others` more for each
    of them against accounts 10, 11, …, each won by whoever the turn favours."""
    current: dict[int, ratings.Rating] = {}
    rows = []
    for number, winner in enumerate(winner_of):
        rows += rated_game([1, 2], {winner}, current, "duel", float(number))
    for number in range(others):
        stranger = 10 + number
        rows += rated_game([1, stranger], {1 if number % 2 else stranger}, current, "duel", 100.0 + number)
        rows += rated_game([2, stranger], {2 if number % 2 else stranger}, current, "duel", 200.0 + number)
    return rows


def test_rating_points_fed_from_one_account_to_another_are_flagged() -> None:
    signals = flow_signals(duels([2] * 12), LIMITS)
    assert [(s.kind, s.accounts) for s in signals] == [(FLOW, (1, 2))]  # giver, then receiver
    evidence = signals[0].evidence
    assert evidence["games_together"] == 12 and evidence["receiver_ahead"] == 12
    assert evidence["net_points"] >= LIMITS.flow_points
    assert evidence["share_of_gain"] == 1.0  # everything 2 gained came from 1
    assert evidence["given_back"] == 0.0


def test_an_even_rivalry_moves_no_points_for_long() -> None:
    assert flow_signals(duels([1, 2] * 8), LIMITS) == []


def test_a_receiver_that_gained_mostly_elsewhere_is_not_flagged() -> None:
    # Account 2 beat account 1 ten times, but gained twice as much against many strangers:
    # a third of its gain came from 1, under the half the signal asks for.
    results = duels([2] * 10, others=60)
    assert flow_signals(results, LIMITS) == []
    assert [s.accounts for s in flow_signals(results, Thresholds(flow_share=0.3))] == [(1, 2)]


def test_a_flow_needs_enough_games_together() -> None:
    assert flow_signals(duels([2] * 9), LIMITS) == []


def test_all_signals_gathers_the_three_kinds() -> None:
    cheat = samples_of(99, [25.0] * 12, [0.95] * 12)
    apart = [dataclasses.replace(row, user_id=100 + row.user_id) for row in duels([2] * 12)]
    results = tables([2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 1]) + apart
    kinds = {s.kind for s in all_signals(honest_population() + cheat, results, LIMITS)}
    assert kinds == {ACCURACY, PAIR, FLOW}
