"""The post-game analysis (tranque.bots.analysis): each decision judged from the deciding
seat's view alone, every legal action listed with its worth, the best losing nothing, forced
moves skipped, the same analysis for the same record and seed, and no peeking at the hidden
hands. Small budgets keep it quick: what is checked does not depend on the budget."""

from __future__ import annotations

import random

import pytest

from tests.bots.positions import rounds_with_views
from tests.bots.test_no_peeking import positions as peek_positions
from tests.bots.test_no_peeking import redeal
from tests.bots.test_no_peeking import replay as replay_round
from tests.engine.deals import COMBOS, rules_of
from tranque import Game, Rules
from tranque.bots import make_bot
from tranque.bots.analysis import (
    THRESHOLDS,
    Thresholds,
    Verdict,
    analysis_budget,
    analyze,
    decision_seed,
    evaluate,
    evaluate_job,
    plan,
    positions,
    scale,
)
from tranque.bots.arena import play_out
from tranque.engine import PlayerView

DEALS = 24  # deals per decision in these tests (the command's default is 2000)


def small_game(seed: int = 5, players: int = 2, target: int = 30) -> Game:
    """A whole short game between a greedy and a random bot (or more seats), for analysis."""
    rules = Rules.preset("clasico", players=players, target=target)
    kinds = ["greedy", "random"]
    return play_out(
        Game(rules, seed=seed), [make_bot(kinds[s % 2], seed=seed * 8 + s) for s in range(players)]
    )


def choices(rules: Rules, seed: int, count: int) -> list[PlayerView]:
    """Views with a choice to make, early and late in rounds of greedy bots."""
    views = [view for _, view in rounds_with_views(rules, seed=seed) if len(view.legal_actions) > 1]
    return views[:: max(1, len(views) // count)][:count]


@pytest.mark.parametrize(
    ("name", "players", "mode"),
    [
        ("clasico", 4, "pairs"),
        ("clasico", 2, "individual"),
        ("ponce", 4, "pairs"),
        ("en-contra", 3, "individual"),
    ],
)
def test_an_evaluation_lists_exactly_the_legal_actions_and_the_best_loses_nothing(
    name: str, players: int, mode: str
) -> None:
    rules = Rules.preset(name, players=players, mode=mode)
    views = choices(rules, seed=2, count=5)
    assert len(views) >= 4
    for view in views:
        evaluation = evaluate(view, deals=DEALS, seed=1)
        assert evaluation.actions == view.legal_actions
        assert len(evaluation.worth) == len(evaluation.actions)
        assert evaluation.best in view.legal_actions
        assert evaluation.loss(evaluation.best) == 0
        assert evaluation.worth_of(evaluation.best) == max(evaluation.worth)
        assert all(evaluation.loss(action) >= 0 for action in view.legal_actions)
        ranked = evaluation.ranked()
        assert sorted(map(str, (a for a, _ in ranked))) == sorted(map(str, view.legal_actions))
        assert [w for _, w in ranked] == sorted(evaluation.worth, reverse=True)
        assert ranked[0][0] == evaluation.best
        assert evaluation.deals >= 1


def test_late_in_a_two_sided_round_the_deals_are_solved_exactly() -> None:
    rules = Rules.preset("clasico")
    late = [v for v in choices(rules, seed=3, count=40) if sum(v.hand_counts) <= 12]
    early = [v for v in choices(rules, seed=3, count=40) if sum(v.hand_counts) > 24]
    assert late and early
    assert evaluate(late[0], deals=DEALS).exact
    assert not evaluate(early[0], deals=DEALS).exact


def test_a_forced_view_is_not_evaluated() -> None:
    rules = Rules.preset("clasico", players=2)
    forced = next(v for _, v in rounds_with_views(rules, seed=1) if len(v.legal_actions) == 1)
    with pytest.raises(ValueError, match="forzada"):
        evaluate(forced, deals=DEALS)
    with pytest.raises(ValueError, match="forzada"):
        evaluate(Game(rules, seed=1).view(None), deals=DEALS)


def test_R17_the_evaluation_is_the_same_whatever_the_hidden_deal() -> None:
    """Re-deal the tiles the seat cannot see in another way consistent with everything it
    knows: its view is the same, and so is the evaluation of every action, to the last digit."""
    rng = random.Random(5)
    compared = 0
    for rules in (Rules.preset("clasico"), Rules.preset("clasico", players=2)):
        for seed in range(2):
            for deal, actions, seat in peek_positions(rules, seed):
                view = replay_round(rules, deal, actions).view(seat)
                other, moved = redeal(rules, deal, actions, seat, rng)
                assert moved >= 4 and other != deal
                other_view = replay_round(rules, other, actions).view(seat)
                assert other_view == view
                assert evaluate(view, deals=DEALS, seed=9) == evaluate(other_view, deals=DEALS, seed=9)
                compared += 1
    assert compared >= 6


def test_the_same_game_and_seed_give_the_same_analysis() -> None:
    game = small_game()
    first = analyze(game, deals=DEALS, seed=4)
    again = analyze(small_game(), deals=DEALS, seed=4)
    assert first.to_json() == again.to_json()
    assert first.decisions == again.decisions
    in_two_processes = analyze(game, deals=DEALS, seed=4, jobs=2)
    assert in_two_processes.to_json() == first.to_json()
    assert decision_seed(4, 0, 3) == decision_seed(4, 0, 3) != decision_seed(4, 0, 4)


def test_every_action_is_listed_and_forced_ones_are_skipped() -> None:
    game = small_game(seed=7)
    calls: list[tuple[int, int]] = []
    report = analyze(game, deals=DEALS, progress=lambda done, total: calls.append((done, total)))
    assert len(report.decisions) == len(game.actions)
    for decision, (round_number, seat, action) in zip(report.decisions, game.actions, strict=True):
        assert (decision.round, decision.seat, decision.played) == (round_number, seat, action)
    forced = [d for d in report.decisions if d.verdict is Verdict.FORCED]
    judged = [d for d in report.decisions if d.verdict is not Verdict.FORCED]
    assert forced and judged
    assert all(d.evaluation is None and d.loss == 0 and d.best == d.played for d in forced)
    assert all(d.evaluation is not None and d.played in d.evaluation.actions for d in judged)
    assert all(d.loss == d.evaluation.loss(d.played) for d in judged if d.evaluation)
    # The progress: the total first, then one call per decision evaluated.
    assert calls == [(done, len(judged)) for done in range(len(judged) + 1)]
    # Each player's figures add up.
    for player in report.players:
        mine = [d for d in report.decisions if d.seat == player.seat]
        assert player.forced == sum(1 for d in mine if d.verdict is Verdict.FORCED)
        assert player.decisions == len(mine) - player.forced
        assert player.accurate + player.inaccuracies + player.errors == player.decisions
        assert player.accuracy == pytest.approx(100 * player.accurate / player.decisions)
        assert player.mean_loss == pytest.approx(sum(d.loss for d in mine) / player.decisions)


def test_one_seat_only() -> None:
    game = small_game(seed=7, players=4, target=20)
    report = analyze(game, deals=DEALS, seats=[1])
    assert report.seats == (1,)
    assert report.decisions and {d.seat for d in report.decisions} == {1}
    assert [p.seat for p in report.players] == [1]
    assert len(report.decisions) == sum(1 for _, seat, _ in game.actions if seat == 1)


def test_positions_are_the_views_the_seats_had() -> None:
    rules = Rules.preset("ponce")
    game = Game(rules, seed=2)
    bots = [make_bot("greedy", seed=s) for s in range(rules.players)]
    seen = []
    while not game.is_over:
        if game.round.is_over:
            game.start_next_round()
            continue
        view = game.view(game.round.turn)
        action = bots[game.round.turn].choose(view)
        seen.append((game.round_number, view, action))
        game.apply(action)
    replayed = [(r, view, action) for r, _, view, action in positions(game)]
    assert replayed == seen


def test_thresholds_class_the_loss_as_a_share_of_the_presets_target() -> None:
    clasico = Rules.preset("clasico", target=50)  # a shorter game plays the same rounds
    assert scale(clasico) == 100
    inaccuracy, error = THRESHOLDS.points(clasico)
    assert 0 < inaccuracy < error
    assert THRESHOLDS.classify(0.0, clasico) is Verdict.ACCURATE
    assert THRESHOLDS.classify(inaccuracy - 0.01, clasico) is Verdict.ACCURATE
    assert THRESHOLDS.classify(inaccuracy, clasico) is Verdict.INACCURACY
    assert THRESHOLDS.classify(error, clasico) is Verdict.ERROR
    ponce = Rules.preset("ponce")
    assert THRESHOLDS.points(ponce) == pytest.approx((inaccuracy / 5, error / 5))
    assert Thresholds(0.1, 0.2).points(Rules.preset("clasico", players=6)) == pytest.approx((20, 40))


def test_the_budget_scales_the_experts_search_without_its_prior() -> None:
    budget = analysis_budget(1000)
    assert (budget.samples, budget.exact_samples) == (1000, 100)
    assert budget.prior == budget.prior_exact == 0
    assert budget.time_limit is None
    assert analysis_budget(3).exact_samples == 1


@pytest.mark.parametrize(("name", "players", "mode"), COMBOS)
def test_every_seating_of_every_preset_is_analysed(name: str, players: int, mode: str) -> None:
    """A whole short game of each seating, every action judged or marked forced, the
    thresholds in the preset's own units."""
    rules = rules_of(name, players, mode).replace(target={"ponce": 6, "futbol": 20}.get(name, 30))
    game = play_out(Game(rules, seed=players), [make_bot("greedy", seed=s) for s in range(players)])
    report = analyze(game, deals=3)
    assert len(report.decisions) == len(game.actions)
    assert any(d.evaluation is not None for d in report.decisions)
    for decision in report.decisions:
        assert (decision.evaluation is None) == (decision.verdict is Verdict.FORCED)
        assert decision.loss >= 0
    assert 0 < report.to_json()["thresholds"]["inaccuracy"] < report.to_json()["thresholds"]["error"]


def test_a_plan_evaluated_in_pieces_gives_the_analysis() -> None:
    """The site's queue plans an analysis, evaluates its jobs one by one (in any process) and
    finishes it: the same analysis as `analyze`'s; only the deciding seat's view is handed out."""
    game = small_game(seed=3)
    planned = plan(game, deals=DEALS, seed=2)
    assert all(isinstance(view, PlayerView) and view.seat == view.turn for view, _, _ in planned.jobs)
    evaluations = [evaluate_job(job) for job in reversed(planned.jobs)][::-1]
    assert planned.finish(evaluations).to_json() == analyze(game, deals=DEALS, seed=2).to_json()
    with pytest.raises(ValueError, match="evaluations expected"):
        planned.finish(evaluations[1:])
