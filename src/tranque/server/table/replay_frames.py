"""A kept game told step by step for the replay viewer: one frame per deal, play, draw, pass
and round end, each with everything the viewer shows, and a summary per round.

The engine replays the record (`tranque.engine.record.replay` checks it first, then a
`Game` is stepped through the same actions), so every hand, turn, pozo count and score here
is the engine's; the line is laid out as the live table lays it (`line_layout`). Nothing
here decides a rule. The game is over, so every hand is face up (its deals are in the
record anyway).

A frame carries its own hands and line and nothing of the record besides: a long game's
few hundred frames stay a few hundred kilobytes.
"""

from __future__ import annotations

from typing import Any

from tranque.engine import Game, Rules
from tranque.engine.actions import action_from_json
from tranque.engine.events import DrawEvent, Event, PassEvent, PlayEvent
from tranque.engine.record import replay
from tranque.server.table.line_layout import Snake, line_json

Frame = dict[str, Any]


def replay_frames(record: dict[str, Any]) -> tuple[list[Frame], list[dict[str, Any]]]:
    """The frames of `record` in order, and each round's summary.

    A frame: `round` (0-based), `kind` (`deal`, `play`, `draw`, `pass` or `end`), `action`
    (`{"seat", "kind", "tile", "end"}`; null for a deal or an end), `hands` (every seat's
    tiles), `line` and `line_ends` (the boxes of docs/protocol.md «The line on the table»),
    `pozo` (tiles left to draw), `turn` (the seat to act, null when nobody is), `scores`
    and `goals` (the game's so far). A round's summary: `round`, `start` and `end` (its
    first and last frame), `result` (the engine's RoundResult JSON; null for a round the
    game ended in, as ponce's pass points may), `scores` and `goals` after it.

    Raises `RecordError` for a record that does not replay.
    """
    replay(record)
    rules = Rules.from_json(record["rules"])
    deals = [(round_data["hands"], round_data["boneyard"]) for round_data in record["rounds"]]
    game = Game(rules, deals=deals, first_starter=record.get("first_starter"))
    frames: list[Frame] = []
    rounds: list[dict[str, Any]] = []
    for number, round_data in enumerate(record["rounds"]):
        if number:
            game.start_next_round()
        snake = Snake()
        start = len(frames)
        frames.append(_frame(game, number, "deal", None, snake))
        for action_data in round_data["actions"]:
            event = game.apply(action_from_json(action_data))
            if isinstance(event, PlayEvent):
                snake.place(str(event.tile), None if event.side is None else event.side.value)
            frames.append(_frame(game, number, _kind(event), _action(event), snake))
        frames.append(_frame(game, number, "end", None, snake))
        result = game.round.result
        rounds.append(
            {
                "round": number,
                "start": start,
                "end": len(frames) - 1,
                "result": None if result is None else result.to_json(),
                "scores": list(game.scores),
                "goals": list(game.goals),
            }
        )
    return frames, rounds


def _frame(game: Game, number: int, kind: str, action: dict[str, Any] | None, snake: Snake) -> Frame:
    round_ = game.round
    return {
        "round": number,
        "kind": kind,
        "action": action,
        "hands": [[str(tile) for tile in hand] for hand in round_.hands],
        **line_json(snake),
        "pozo": round_.boneyard_count,
        "turn": game.turn,
        "scores": list(game.scores),
        "goals": list(game.goals),
    }


def _kind(event: Event) -> str:
    if isinstance(event, PlayEvent):
        return "play"
    return "draw" if isinstance(event, DrawEvent) else "pass"


def _action(event: Event) -> dict[str, Any]:
    if isinstance(event, PlayEvent):
        end = None if event.side is None else event.side.value
        return {"seat": event.seat, "kind": "play", "tile": str(event.tile), "end": end}
    if isinstance(event, PassEvent):
        return {"seat": event.seat, "kind": "pass", "tile": None, "end": None}
    tile = None if event.tile is None else str(event.tile)
    return {"seat": event.seat, "kind": "draw", "tile": tile, "end": None}
