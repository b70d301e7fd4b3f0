"""Game records: a whole game as JSON (rules, deals, every action) that replays exactly.

A record holds each round's explicit deal, so it replays without trusting a shuffle; when
the deal came from a seed, the seed is kept too so anyone can re-shuffle and compare.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tranque.engine.actions import IllegalAction, action_from_json
from tranque.engine.errors import EngineError
from tranque.engine.fairness import FairnessError, deal_problems, revealed_seed
from tranque.engine.game import Game
from tranque.engine.messages import Verbatim
from tranque.engine.rules import Rules

FORMAT = "tranque-record"
VERSION = 1


class RecordError(EngineError):
    """A record that is malformed or does not replay to what it says. When another error
    is the reason (an illegal action, a bad deal), it is the `cause` parameter, and the
    text shows the cause's own text in the same language."""


def to_record(game: Game) -> dict[str, Any]:
    rounds = []
    for number, round_ in enumerate(game.rounds):
        seed = game.round_seeds[number]
        rounds.append(
            {
                "hands": [[str(t) for t in hand] for hand in round_.dealt_hands],
                "boneyard": [str(t) for t in round_.dealt_boneyard],
                "starter": round_.starter,
                "seed": None if seed is None else seed.hex(),
                "actions": [
                    {"seat": seat, **action.to_json()} for n, seat, action in game.actions if n == number
                ],
                "result": None if round_.result is None else round_.result.to_json(),
            }
        )
    record: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_json(),
        "first_starter": game.first_starter,
    }
    if game.time_called is not None:  # G2: only where time was called, so older records read the same
        record["time_called"] = game.time_called
    return record | {
        "rounds": rounds,
        "scores": list(game.scores),
        "goals": list(game.goals),
        "winners": list(game.winners),
    }


def replay(record: dict[str, Any]) -> Game:
    """Rebuild the game a record describes, checking every action, each round's starter,
    seed and result, and the final score. Where the record says time was called (G2) in a
    round, the replay calls it as that round starts: when in the round it was called
    changes nothing of its play, only what its end decides."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise RecordError("record_not_tranque")
    if record.get("version") != VERSION:
        raise RecordError("record_bad_version", version=Verbatim(repr(record.get("version"))))
    try:
        rules = Rules.from_json(record["rules"])
        rounds = record["rounds"]
        deals = [(r["hands"], r["boneyard"]) for r in rounds]
        game = Game(rules, deals=deals, first_starter=record.get("first_starter"))
        time_called = _time_called(record, len(rounds))
        for number, round_data in enumerate(rounds):
            if number:
                game.start_next_round()
            _check_round_start(game, number, round_data)
            if number == time_called:
                game.call_time()
            for move, action_data in enumerate(round_data["actions"], start=1):
                if not isinstance(action_data, dict):
                    raise RecordError("record_action_not_an_object", round=number + 1, move=move)
                if action_data.get("seat") != game.round.turn:
                    raise RecordError(
                        "record_action_not_in_turn", round=number + 1, action=Verbatim(str(action_data))
                    )
                try:
                    game.apply(action_from_json(action_data))
                except IllegalAction as error:
                    raise RecordError(
                        "record_illegal_action",
                        round=number + 1,
                        move=move,
                        seat=game.round.turn,
                        cause=error,
                    ) from None
            replayed = game.round.result
            if round_data.get("result") != (None if replayed is None else replayed.to_json()):
                raise RecordError("record_result_differs", round=number + 1)
    except (KeyError, TypeError) as error:
        raise RecordError("record_incomplete", missing=Verbatim(str(error))) from None
    except ValueError as error:
        if isinstance(error, RecordError):
            raise
        raise RecordError("record_does_not_replay", cause=error) from None
    totals = (("scores", game.scores), ("goals", game.goals), ("winners", game.winners))
    for key, replayed_value in totals:
        if record.get(key) != replayed_value:
            raise RecordError(
                "record_total_differs",
                total=key,
                recorded=Verbatim(str(record.get(key))),
                replayed=Verbatim(str(replayed_value)),
            )
    return game


@dataclass(frozen=True)
class Verdict:
    """What `check` found in a record: each round's deal problems, and the moves' problem."""

    deals: tuple[tuple[FairnessError, ...], ...]
    moves: RecordError | None

    @property
    def ok(self) -> bool:
        """There are rounds, every deal checks out and every move replays."""
        return bool(self.deals) and not any(self.deals) and self.moves is None


def check(record: dict[str, Any], *, committed: bool) -> Verdict:
    """Check every deal of a record (its seed, and with `committed` the commitment published
    at the deal), then replay every move (`replay`). A record of the wrong shape raises
    `KeyError`, `TypeError` or `RulesError`, for the caller to refuse."""
    rules = Rules.from_json(record["rules"])
    deals = tuple(
        tuple(deal_problems(rules, round_data, committed=committed)) for round_data in record["rounds"]
    )
    try:
        replay(record)
    except RecordError as error:
        return Verdict(deals, error)
    return Verdict(deals, None)


def _time_called(record: dict[str, Any], rounds: int) -> int | None:
    """The round during which time was called (G2), if the record says so: one of its rounds."""
    called = record.get("time_called")
    if called is None:
        return None
    whole = isinstance(called, int) and not isinstance(called, bool)
    if not whole or not 0 <= called < rounds:
        raise RecordError("record_bad_time_called", round=called + 1 if whole else Verbatim(repr(called)))
    return int(called)


def _check_round_start(game: Game, number: int, round_data: dict[str, Any]) -> None:
    """The recorded starter must be the rules' one, and a recorded seed must give the deal."""
    if round_data["starter"] != game.round.starter:
        raise RecordError(
            "record_starter_differs", round=number + 1, starter=Verbatim(str(round_data["starter"]))
        )
    if round_data.get("seed") is None:
        return
    problems = deal_problems(game.rules, round_data, committed=False)
    if problems:
        raise RecordError("record_unfair_deal", round=number + 1, cause=problems[0])
    game.round_seeds[number] = revealed_seed(round_data, committed=False)


def save(game: Game, path: str | Path) -> None:
    Path(path).write_text(json.dumps(to_record(game), ensure_ascii=False, indent=1), encoding="utf-8")


def load(path: str | Path) -> Game:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise RecordError("record_bad_json", path=Verbatim(str(path)), reason=Verbatim(str(error))) from None
    return replay(data)
