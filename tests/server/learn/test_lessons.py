"""Every lesson of Aprender played through the engine: the ids in the contract's order; each
step's good path reaches its goal (and the round ends as the step says); every legal move that
misses the goal has its why; every punishing reply is legal after its wrong move; a move the
rules refuse gets the engine's refusal; par is reachable (stars 3); no step shows a hidden
hand (R17)."""

from __future__ import annotations

import pytest

from tranque.engine import PASS, Action, IllegalAction, Play
from tranque.server.learn.checker import BadHistory, judge, replay, view_json
from tranque.server.learn.lessons import BY_ID, IDS, LESSONS, SET
from tranque.server.learn.steps import LEARNER, Step, stars

CONTRACT = (
    "fichas", "pegar", "obligado", "robar", "pasar", "domino-y-tranque", "contar-tranque", "parejas",
    "salida", "leer-pases", "ponce", "futbol", "en-contra", "maracucho", "salon",
)  # fmt: skip

STEPS = [(lesson.id, index, step) for lesson in LESSONS for index, step in enumerate(lesson.steps)]
NAMES = [f"{lesson}-{index}" for lesson, index, _ in STEPS]


def test_the_lessons_are_the_contracts_in_its_order() -> None:
    assert IDS == CONTRACT
    assert all(1 <= len(lesson.steps) <= 3 for lesson in LESSONS)


def good_path(step: Step) -> list[str]:
    return [turn.good[0] for turn in step.turns]


@pytest.mark.parametrize(("lesson", "index", "step"), STEPS, ids=NAMES)
def test_each_steps_goal_is_reached_by_its_good_moves(lesson: str, index: int, step: Step) -> None:
    moves: list[str] = []
    for turn in step.turns:
        assert replay(step, moves).round.turn == LEARNER
        feedback = judge(step, moves, turn.good[0])
        assert feedback["verdict"] == "good", (lesson, index, feedback)
        moves.append(turn.good[0])
    assert feedback["done"]
    final = replay(step, moves).round
    if step.ends is None:
        assert not final.is_over or final.result is not None
    else:
        assert final.result is not None and final.result.kind.value == step.ends
        assert final.result.winner == final.rules.team_of(LEARNER)


@pytest.mark.parametrize(("lesson", "index", "step"), STEPS, ids=NAMES)
def test_every_legal_miss_has_its_why_and_a_legal_punishing_reply(
    lesson: str, index: int, step: Step
) -> None:
    moves: list[str] = []
    for turn in step.turns:
        round_ = replay(step, moves).round
        for action in round_.legal_actions():
            feedback = judge(step, moves, str(action))
            if feedback["verdict"] == "good":
                continue
            assert feedback["verdict"] == "wrong"
            assert feedback["why"]["key"], (lesson, str(action))
            assert feedback["position"] == view_json(round_)  # a wrong move changes nothing
            punish = turn.punish.get(str(action))
            if punish is not None:
                trial = round_.copy()
                trial.apply(action)
                assert Action.parse(punish) in trial.legal_actions()
                assert feedback["punish"]["action"] == Action.parse(punish).to_json()
        moves.append(turn.good[0])
    for turn in step.turns:
        assert not set(turn.punish) & set(turn.good)


@pytest.mark.parametrize(("lesson", "index", "step"), STEPS, ids=NAMES)
def test_a_move_the_rules_refuse_gets_the_engines_refusal(lesson: str, index: int, step: Step) -> None:
    round_ = replay(step, []).round
    legal = {str(a) for a in round_.legal_actions()}
    for attempt in ["pasar", "robar", *(str(tile) for tile in round_.hands[LEARNER])]:
        if attempt in legal or any(move.startswith(attempt) for move in legal):
            continue
        feedback = judge(step, [], attempt)
        assert feedback["verdict"] == "illegal"
        with pytest.raises(IllegalAction) as refused:
            round_.copy().apply(Action.parse(attempt), seat=LEARNER)
        assert feedback["refusal"]["code"] == refused.value.code
        assert feedback["refusal"]["message"] and feedback["refusal"]["message_en"]


@pytest.mark.parametrize(("lesson", "index", "step"), STEPS, ids=NAMES)
def test_R17_a_steps_position_shows_only_the_learners_hand(lesson: str, index: int, step: Step) -> None:
    round_ = replay(step, []).round
    view = view_json(round_)
    assert view["hand"] == [str(tile) for tile in round_.hands[LEARNER]]
    assert view["revealed_hands"] is None
    assert "legal_actions" not in view
    others = {str(tile) for seat, hand in enumerate(round_.hands) if seat != LEARNER for tile in hand}
    assert not others & set(view["hand"])


def test_par_gives_three_stars_and_misses_fewer() -> None:
    for lesson in LESSONS:
        assert lesson.par == sum(len(step.turns) for step in lesson.steps) >= 1
        assert stars(lesson.par, lesson.par) == 3
        assert stars(lesson.par, lesson.par + 1) == 2
        assert stars(lesson.par, lesson.par + 3) == 1


def test_moves_that_are_no_path_are_refused() -> None:
    step = LESSONS[0].steps[0]
    with pytest.raises(BadHistory):
        replay(step, ["3-2"])  # a wrong move never becomes part of the path
    with pytest.raises(BadHistory):
        judge(step, ["6-5"], "3-2")  # the step is over
    with pytest.raises(IllegalAction):
        judge(step, [], "seis")


def test_a_good_move_shows_the_others_replies() -> None:
    ponce = next(lesson for lesson in LESSONS if lesson.id == "ponce").steps[0]
    feedback = judge(ponce, [], "3-2i")
    assert [reply["type"] for reply in feedback["replies"]] == ["pass", "pass", "pass"]
    assert feedback["position"]["round_pass_points"][0] >= 2


def test_counting_a_number_the_learner_holds_the_last_fives_and_the_opponent_has_none() -> None:
    """leer.count: every tile of the number is on the table or in the learner's hand, so the
    good move, which shows it at both ends, leaves the opponent only a pass; the miss that
    keeps the mula for later, and the good tile on the other end, give them a play."""
    step = BY_ID["leer-pases"].steps[1]
    assert step.goal == "leer.count" and not any(move == "pasar" for move in step.setup)
    round_ = replay(step, []).round
    good = round_.copy()
    good.apply(Action.parse(step.turns[0].good[0]), seat=LEARNER)
    assert good.ends is not None and good.ends[0] == good.ends[1]
    number = good.ends[0]
    seven = {tile for tile in SET if str(number) in tile.split("-")}
    table = {str(tile) for tile in round_.line}
    mine = {str(tile) for tile in round_.hands[LEARNER]}
    assert len(seven) == 7 and seven <= table | mine  # the count: none of them is left out
    assert len(seven & table) == 5 and len(seven & mine) == 2
    assert good.legal_actions() == [PASS]  # so the opponent has none, and must pass
    assert any(number in (tile.high, tile.low) for tile in good.hands[LEARNER])  # and you play on
    feedback = judge(step, [], step.turns[0].good[0])
    assert [reply["type"] for reply in feedback["replies"]] == ["pass"]
    for miss in ("5-5i", "5-2i"):
        trial = round_.copy()
        trial.apply(Action.parse(miss), seat=LEARNER)
        assert any(isinstance(action, Play) for action in trial.legal_actions()), miss
        assert judge(step, [], miss)["punish"] is not None
    legal = {str(action) for action in round_.legal_actions()}
    assert legal == {"5-2d", "5-2i", "5-5i"}  # every miss is one of the two above


def test_every_goal_and_why_has_its_words_in_the_web_client() -> None:
    """The keys the server sends (`goal`, `why.key`) are the client's messages, both languages."""
    from pathlib import Path

    messages = (Path(__file__).parents[3] / "src/tranque/web/js/messages_learn.js").read_text(
        encoding="utf-8"
    )
    for lesson in LESSONS:
        for key in (f"ln_t_{lesson.id.replace('-', '_')}", f"ln_s_{lesson.id.replace('-', '_')}"):
            assert f"  {key}: {{ es: " in messages, key
        for step in lesson.steps:
            assert f'"ln_goal_{step.goal}": {{' in messages, step.goal
            for turn in step.turns:
                for why in {turn.why, *turn.whys.values()} - {""}:
                    assert f'"ln_why_{why}": {{' in messages, why
