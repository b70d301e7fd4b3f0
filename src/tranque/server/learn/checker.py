"""The checker of Aprender: a learner's move in a lesson's step, applied by the engine.

Nothing is kept between requests: the client sends the moves it made so far in the step
(each one good: the wrong ones never change the position) and the move it tries now; the
step is dealt again, those moves and their replies replayed, and the new one judged. The
engine says what is legal; the lesson says which legal moves meet the goal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tranque.engine import Action, EngineError, Event, IllegalAction, Round
from tranque.server.learn.steps import LEARNER, Step
from tranque.server.table.line_layout import lay_out, line_json, plays_of


class BadHistory(Exception):
    """The moves sent as made so far are not a path through the step."""


@dataclass
class Position:
    """A step's round after the learner's good moves so far, and whose turn comes next."""

    step: Step
    round: Round
    turn_index: int  # the learner's turn to play now (== len(step.turns) once the goal is met)
    dealt_at: int  # how many events the deal and the setup made

    @property
    def done(self) -> bool:
        return self.turn_index >= len(self.step.turns)


def replay(step: Step, moves: Sequence[str]) -> Position:
    """The step dealt and `moves` (the learner's good moves so far) played with their replies."""
    if len(moves) > len(step.turns):
        raise BadHistory
    round_ = step.deal()
    position = Position(step, round_, 0, len(round_.full_events))
    for index, text in enumerate(moves):
        action = _parse(text)
        if action is None or not _is_good(step, index, round_, action):
            raise BadHistory
        round_.apply(action)
        position.turn_index = index + 1
        _answer(position)
    return position


def judge(step: Step, moves: Sequence[str], text: str) -> dict[str, Any]:
    """The feedback to the move `text` after `moves`: "good" (with the new position and the
    others' replies), "wrong" (a legal move that misses the goal: why, and the reply that
    punishes it, shown on a copy), or "illegal" (the engine's refusal). `BadHistory` if
    `moves` is not a path; an `IllegalAction` ("malformed") if `text` is no move at all."""
    position = replay(step, moves)
    if position.done:
        raise BadHistory
    round_ = position.round
    action = Action.parse(text)
    index = position.turn_index
    turn = step.turns[index]
    trial = round_.copy()
    before = len(round_.full_events)
    try:
        trial.apply(action, seat=LEARNER)
    except IllegalAction as error:
        return {
            "verdict": "illegal",
            "refusal": {"code": error.code, "message": error.text("es"), "message_en": error.text("en")},
            "position": view_json(round_),
        }
    played = _notation(trial, before)
    if not _is_good(step, index, round_, action):
        punish = turn.punish.get(played)
        reply = None
        if punish is not None:
            mover = trial.turn
            trial.apply(Action.parse(punish))
            reply = {"seat": mover, "action": Action.parse(punish).to_json()}
        return {
            "verdict": "wrong",
            "why": {"key": turn.why_of(played), "params": {"tile": played.rstrip("id")}},
            "punish": reply,
            "position": view_json(round_),
            "after": view_json(trial),
        }
    round_.apply(action)
    position.turn_index = index + 1
    replies = _answer(position)
    return {
        "verdict": "good",
        "played": played,
        "replies": [event.to_json() for event in replies],
        "done": position.done,
        "position": view_json(round_),
    }


def _notation(round_: Round, index: int) -> str:
    """The move the event at `index` was, in the engine's notation (its end as laid)."""
    event = round_.full_events[index]
    return event_notation(event)


def event_notation(event: Event) -> str:
    data: dict[str, str] = event.to_json()
    if data["type"] != "play":
        return "robar" if data["type"] == "draw" else "pasar"
    side = data.get("side")
    return data["tile"] + ("" if side is None else "i" if side == "left" else "d")


def _parse(text: str) -> Action | None:
    try:
        return Action.parse(text)
    except EngineError:
        return None


def _is_good(step: Step, index: int, round_: Round, action: Action) -> bool:
    """Whether `action`, legal now, is one of the turn's good moves (a placement's end counts
    only when the tile fits both ends differently: the engine settles the rest)."""
    trial = round_.copy()
    before = len(trial.full_events)
    try:
        trial.apply(action, seat=LEARNER)
    except IllegalAction:
        return False
    return _notation(trial, before) in step.turns[index].good or str(action) in step.turns[index].good


def _answer(position: Position) -> list[Event]:
    """The others' moves until the learner is to act again (or the round is over): the step's
    scripted replies first, then R15's move (also after the goal is met: the learner sees
    what their last move made the others do)."""
    round_ = position.round
    step = position.step
    made: list[Event] = []
    scripted = sum(1 for event in round_.full_events[position.dealt_at :] if event.seat != LEARNER)
    while not round_.is_over and round_.turn != LEARNER:
        if scripted < len(step.replies):
            action = Action.parse(step.replies[scripted])
        else:
            action = round_.timeout_action()
        scripted += 1
        made.append(round_.apply(action))
    return made


def view_json(round_: Round) -> dict[str, Any]:
    """What the learner may see of `round_` (R17: their own hand, the others' counts, the line
    laid out as the table lays it; every hand once the round is over), without the legal
    moves: finding them is the lesson."""
    view = round_.view(LEARNER).to_json()
    del view["legal_actions"]
    view.update(line_json(lay_out(plays_of(round_.events))))
    view["line_tiles"] = [str(tile) for tile in round_.line]
    return view
