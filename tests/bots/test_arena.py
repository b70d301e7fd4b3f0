"""The arena's match: duplicate seatings, Wilson intervals and whole matches. The
`tranque arena` command that prints them is tested in tests/test_cli.py."""

from __future__ import annotations

import pytest

from tranque import Rules
from tranque.bots.arena import (
    GameRecord,
    games_needed,
    lineup,
    play_game,
    play_match,
    seatings,
    summarize,
    wilson,
)
from tranque.bots.expert import Budget, ExpertBot


def test_wilson_interval_matches_the_formula() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    low, high = wilson(100, 100)
    assert round(high, 9) == 1.0 and round(low, 4) == 0.963


@pytest.mark.parametrize(
    ("name", "players", "mode", "expected"),
    [
        ("clasico", 4, "pairs", [[0, 1, 0, 1], [1, 0, 1, 0]]),
        ("clasico", 6, "pairs", [[0, 1, 1, 0, 1, 1], [1, 0, 1, 1, 0, 1], [1, 1, 0, 1, 1, 0]]),
        ("clasico", 3, "individual", [[0, 1, 1], [1, 0, 1], [1, 1, 0]]),
        ("en-contra", 4, "individual", [[0, 1, 0, 1], [1, 0, 1, 0]]),
    ],
)
def test_every_seating_gives_each_bot_each_side(
    name: str, players: int, mode: str, expected: list[list[int]]
) -> None:
    assert seatings(Rules.preset(name, players=players, mode=mode)) == expected


def test_a_duplicate_deal_is_the_same_game_with_the_bots_swapped() -> None:
    rules = Rules.preset("clasico", target=40)
    same = play_game(rules, 7, [0, 1, 0, 1], ("greedy", "greedy"), bot_seed=3)
    swapped = play_game(rules, 7, [1, 0, 1, 0], ("greedy", "greedy"), bot_seed=3)
    # Greedy bots with the same seeds on the same deals: the mirror image of one game.
    assert same.round_wins == swapped.round_wins[::-1]
    assert same.points == swapped.points[::-1]


def test_a_match_accounts_for_every_round_and_game() -> None:
    rules = Rules.preset("sin-pozo", target=30)
    deals = list(play_match(rules, ("random", "greedy"), 3, seed=2))
    assert [number for number, _ in deals] == [0, 1, 2]
    records: list[GameRecord] = [r for _, deal in deals for r in deal]
    assert len(records) == 6
    summary = summarize(("random", "greedy"), records)
    assert summary.games == 6
    assert sum(summary.round_wins) == summary.rounds == sum(r.rounds for r in records)
    assert sum(summary.game_wins) == 6
    assert len(summary.times[0]) + len(summary.times[1]) == sum(
        len(r.times[0]) + len(r.times[1]) for r in records
    )
    rate, low, high = summary.game_rate(1)
    assert low <= rate <= high


def test_games_needed_is_where_the_interval_leaves_one_half_for_good() -> None:
    def deal(first_wins: float) -> list[GameRecord]:
        return [GameRecord(game_win=[first_wins, 1 - first_wins]), GameRecord(game_win=[1.0, 0.0])]

    # Each deal is two games; the first bot wins 3 of every 4 from the start.
    deals = [deal(0.5)] * 30
    low_at = [wilson(1.5 * k, 2 * k)[0] > 0.5 for k in range(1, 31)]
    assert games_needed(("a", "b"), deals) == 2 * (low_at.index(True) + 1)
    assert games_needed(("a", "b"), [deal(0.0)] * 3) is None  # 50%: never above
    assert games_needed(("a", "b"), []) is None


def test_a_budget_goes_to_the_first_bots_seats_only() -> None:
    rules = Rules.preset("clasico")
    budget = Budget(samples=7, heavy_first_share=0.1)
    bots = lineup(rules, [1, 0, 1, 0], ("expert", "expert"), bot_seed=5, budget=budget)
    assert [type(bot) for bot in bots] == [ExpertBot] * 4
    assert [bot.budget for bot in bots if isinstance(bot, ExpertBot)] == [Budget(), budget, Budget(), budget]
    without = lineup(rules, [1, 0, 1, 0], ("expert", "heuristic"), bot_seed=5)
    assert [bot.name for bot in without] == ["heuristic", "expert", "heuristic", "expert"]


def test_a_budget_is_only_for_an_expert_named_first() -> None:
    with pytest.raises(ValueError, match="for the expert"):
        next(play_match(Rules.preset("clasico"), ("heuristic", "expert"), 1, seed=1, budget=Budget()))
