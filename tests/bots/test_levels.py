"""Every level plays every preset legally to the end of whole games: drawing, passing, ponce
pass points, futbol goals and en-contra penalties included."""

from __future__ import annotations

import pytest

from tests.engine.deals import COMBOS, rules_of
from tranque import Draw, Game, Pass, Play
from tranque.bots import LEVELS, bot_names, make_bot
from tranque.engine import Scoring

# Short targets keep whole games quick; every game still needs several rounds.
SHORT_TARGET = {"ponce": 8, "futbol": 30}


def test_levels_are_listed_weakest_first_with_spanish_titles() -> None:
    assert bot_names() == ["random", "greedy", "heuristic", "expert"]
    for level in LEVELS.values():
        assert level.title and level.summary.endswith(".")
    with pytest.raises(ValueError, match="no hay un bot"):
        make_bot("oracle")


@pytest.mark.parametrize(("name", "players", "mode"), COMBOS)
def test_R8_R9_every_level_plays_whole_games_legally(name: str, players: int, mode: str) -> None:
    rules = rules_of(name, players, mode).replace(target=SHORT_TARGET.get(name, 40))
    levels = bot_names()
    kinds: set[str] = set()
    pass_points = 0
    for number in range(2):
        game = Game(rules, seed=number + 100 * players)
        # Every level gets a seat; the lineup turns between games.
        bots = [make_bot(levels[(seat + number) % len(levels)], seed=seat) for seat in range(players)]
        while not game.is_over:
            rnd = game.round
            while not rnd.is_over and not game.is_over:
                view = game.view(rnd.turn)
                action = bots[rnd.turn].choose(view)
                assert action in view.legal_actions
                kinds.add(type(action).__name__)
                game.apply(action)
            if not game.is_over:
                game.start_next_round()
        assert game.winners
        pass_points += sum(sum(result.pass_points) for result in game.results)
        if rules.scoring is Scoring.FUTBOL:
            assert max(game.scores) >= rules.target or max(game.goals) >= rules.goals_to_win  # type: ignore[operator]
        elif rules.scoring is not Scoring.PENALTY:
            assert max(game.scores) >= rules.target
    assert Play.__name__ in kinds
    if rules.drawing.value == "until-playable" and players < 4:
        assert Draw.__name__ in kinds
    if rules.drawing.value == "none" and players == 4:
        assert Pass.__name__ in kinds
    if rules.pass_points:
        assert pass_points > 0
