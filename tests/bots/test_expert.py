"""The expert: exact where the view leaves nothing hidden, and its budget and weights."""

from __future__ import annotations

import random

import pytest

from tests.bots.positions import rounds_with_views
from tests.bots.test_search import minimax
from tranque import Rules
from tranque.bots.expert import Budget, BudgetError, ExpertBot, weighted_deals
from tranque.bots.knowledge import knowledge_of
from tranque.bots.sampling import ChoiceModel, DealSampler
from tranque.bots.values import Valuer
from tranque.engine.round import move_of


@pytest.mark.parametrize("name", ["clasico", "en-contra", "salon"])
def test_R12_with_the_boneyard_drawn_out_the_expert_plays_a_best_move(name: str) -> None:
    """Two players, empty boneyard: every hidden tile is in the other hand, so the expert's
    deals are all the real one and it must choose a move of the best exact value."""
    rules = Rules.preset(name, players=2, mode="individual")
    checked = 0
    for seed in range(40):
        for rnd, view in rounds_with_views(rules, seed=seed, rounds=1):
            if rnd.boneyard_count or len(view.legal_actions) < 2 or sum(view.hand_counts) > 10:
                continue
            assert view.seat is not None
            value = Valuer(rules, view.seat, view.scores, view.goals)
            maximizing = [s == view.seat for s in range(2)]
            exact = {}
            for action in view.legal_actions:
                state = rnd.fast_state()
                state.push(move_of(action))
                exact[action] = minimax(state, value, maximizing)
            chosen = ExpertBot(seed=seed).choose(view)
            assert exact[chosen] == max(exact.values())
            checked += 1
            break
    assert checked >= 8


def test_deals_are_drawn_by_how_well_they_explain_the_choices_seen() -> None:
    """Resampling keeps the number asked for, and deals where the others passed over heavier
    tiles than they played come up less than uniform sampling would give them."""
    rules = Rules.preset("sin-pozo")
    for _rnd, view in rounds_with_views(rules, seed=9, rounds=1):
        if len(view.line) < 10 or view.seat is None:
            continue
        known = knowledge_of(view)
        model = ChoiceModel(known, 1.5, 0.0, rules.partner_of(view.seat))
        assert model.informative
        rng = random.Random(0)
        kept = weighted_deals(DealSampler(known, rng), model, 40, 8, rng)
        assert sum(times for _, times in kept) == 40
        weighted = sum(model.weight(deal[0]) * times for deal, times in kept) / 40
        plain = sum(model.weight(DealSampler(known, rng).draw()[0]) for _ in range(320)) / 320
        assert weighted > plain
        return
    raise AssertionError("no position with ten tiles down")


def test_a_budget_of_one_deal_still_plays_legally() -> None:
    rules = Rules.preset("clasico", players=6)
    bot = ExpertBot(seed=3, budget=Budget(samples=1, exact_samples=1, oversample=1))
    for _, view in rounds_with_views(rules, seed=1, rounds=1):
        if view.legal_actions:
            assert bot.choose(view) in view.legal_actions


def test_a_budget_reads_back_from_its_changes() -> None:
    budget = Budget.parse(" samples=80, heavy_first_share=0.1,rollout=blocking,time_limit=0.5")
    assert (budget.samples, budget.heavy_first_share) == (80, 0.1)
    assert (budget.rollout, budget.time_limit) == ("blocking", 0.5)
    assert budget.exact_samples == Budget().exact_samples  # the fields not named keep their default
    assert Budget.parse(budget.changes()) == budget
    assert Budget.parse("") == Budget() and Budget().changes() == ""
    assert Budget.parse("time_limit=None").time_limit is None


@pytest.mark.parametrize(
    ("text", "field", "code"),
    [
        ("sample=80", "sample", "field"),
        ("samples=many", "samples", "whole"),
        ("samples=1.5", "samples", "whole"),
        ("samples", "samples", "whole"),
        ("heaviness=heavy", "heaviness", "number"),
        ("samples=0", "samples", "at_least_one"),
        ("exact_nodes=-5", "exact_nodes", "at_least_one"),
        ("prior=-1", "prior", "not_negative"),
        ("heavy_first_share=1.5", "heavy_first_share", "share"),
        ("heavy_first=-1", "heavy_first", "not_negative"),
        ("reading_share=2", "reading_share", "share"),
        ("signal=-3", "signal", "not_negative"),
        ("reading=-0.5", "reading", "not_negative"),
        ("rollout=random", "rollout", "rollout"),
        ("time_limit=0", "time_limit", "time_limit"),
    ],
)
def test_an_impossible_budget_names_the_field_and_what_it_takes(text: str, field: str, code: str) -> None:
    with pytest.raises(BudgetError) as raised:
        Budget.parse(text)
    assert (raised.value.field, raised.value.code) == (field, code)
    assert field in str(raised.value)
