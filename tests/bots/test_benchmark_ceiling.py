"""The ceiling of `benchmarks/bots.py --only oracle`: a benchmark-only player that sees the
referee's deal. It must play the true deal's best move once it may see, and the expert's
move before; otherwise the ceiling the README cites measures something else."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

bots = pytest.importorskip("bots", reason="benchmarks/bots.py needs the dev extra (dominoes)")

from tranque.bots.simple import GreedyBot  # noqa: E402
from tranque.engine import Action, PlayerView  # noqa: E402


class Recording:
    name = "recording"

    def __init__(self) -> None:
        self.inner = GreedyBot(seed=1)
        self.asked = 0

    def choose(self, view: PlayerView) -> Action:
        self.asked += 1
        return self.inner.choose(view)


def test_the_clairvoyant_plays_the_true_deals_best_move_and_defers_before_its_tiles() -> None:
    rnd = bots.adapter.deal(7_000_049)
    before = Recording()
    seer = bots.Clairvoyant(rnd, before, most_tiles=20, round_bonus=0.15)
    seen = deferred = 0
    differing = False
    while not rnd.is_over:
        view = rnd.view(rnd.turn)
        legal = view.legal_actions
        asked = before.asked
        action = seer.choose(view)
        if len(legal) > 1 and sum(rnd.hand_counts) <= 20:
            worth = bots.true_worth(rnd, legal, 0.15)
            assert worth[legal.index(action)] == max(worth)
            assert before.asked == asked  # it decided alone
            differing |= len(set(worth)) > 1
            seen += 1
        elif len(legal) > 1:
            assert before.asked == asked + 1
            deferred += 1
        rnd.apply(action)
    assert seen and deferred and differing


def test_the_partner_sighted_expert_samples_only_deals_giving_its_partner_the_true_hand() -> None:
    from tranque.bots.expert import ExpertBot
    from tranque.bots.knowledge import knowledge_of

    rnd = bots.adapter.deal(7_000_049)
    greedy = GreedyBot(seed=2)
    for _ in range(6):
        rnd.apply(greedy.choose(rnd.view(rnd.turn)))
    seat = rnd.turn
    partner = (seat + 2) % 4
    truth = rnd.fast_state().hands
    known = knowledge_of(rnd.view(seat))
    sighted = bots.PartnerSighted(rnd, seed=3, budget=None)._sampler(known, [], 1.0)
    blind = ExpertBot(seed=3)._sampler(known, [], 1.0)
    for _ in range(30):
        hands, rest = sighted.draw()
        assert hands[partner] == truth[partner]
        assert hands[seat] == truth[seat] and not rest
    assert any(blind.draw()[0][partner] != truth[partner] for _ in range(30))
    # It still plays a legal move with that sight.
    view = rnd.view(seat)
    assert bots.PartnerSighted(rnd, seed=3, budget=None).choose(view) in view.legal_actions
