"""Vectors for the browser's own checks, produced by the Python engine.

`deal_vectors()`: deals from fixed seeds by `tranque.engine.deal.deal_from_seed` for several
sets, player counts and hand sizes, each with the round the engine then plays (every play and
draw, the tiles left) and the commitment of its seed and salt: what fairness.js must deal and
accept. `result_vectors()`: round results of every preset's scoring as the engine reports them
(`RoundResult.to_json()`, the game's scores and goals after each round): what results.js must
word without computing a rule.

Both are committed as tests/web/js/vectors/*.json for `node --test`; test_fairness_vectors.py
regenerates them and asserts the committed files still match the engine.
Regenerate with: .venv/bin/python -m tests.web.fairness_vectors
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tranque.engine import DrawEvent, Game, PlayEvent, Rules
from tranque.engine.deal import deal_from_seed, shuffled
from tranque.engine.game import round_seed
from tranque.engine.tiles import TILES, indices

VECTORS = Path(__file__).resolve().parent / "js" / "vectors"

# (preset, overrides): double-six and double-nine, 2 to 6 players, hands of 7, 12 and 6 tiles.
DEAL_CASES: list[tuple[str, dict[str, Any]]] = [
    ("clasico", {"players": 2}),
    ("clasico", {"players": 3}),
    ("clasico", {"players": 4}),
    ("clasico", {"players": 5}),
    ("clasico", {"players": 6, "mode": "individual"}),
    ("futbol", {}),
    ("sin-pozo", {"players": 2}),
    ("clasico", {"players": 4, "mode": "individual", "set_max": 9, "hand_size": 6}),
]

RESULT_PRESETS: list[tuple[str, dict[str, Any]]] = [
    ("clasico", {"players": 2}),
    ("clasico", {"players": 4}),
    ("futbol", {}),
    ("en-contra", {"players": 3}),
    ("en-contra", {"players": 2}),
    ("ponce", {}),
    ("latino", {}),
    ("maracucho", {}),
]


def _actions(game: Game, choose: random.Random) -> list[dict[str, Any]]:
    """Play the current round out with random legal actions; its plays and draws in order."""
    actions: list[dict[str, Any]] = []
    number = game.round_number
    while not game.is_over and not game.round.is_over and game.round_number == number:
        seat = game.round.turn
        event = game.apply(choose.choice(game.legal_actions()))
        if isinstance(event, PlayEvent):
            actions.append({"seat": seat, "type": "play", "tile": str(event.tile)})
        elif isinstance(event, DrawEvent):
            actions.append({"seat": seat, "type": "draw", "drawn": str(event.tile)})
    return actions


def every_round_from(seed: bytes) -> Callable[[int], bytes]:
    """A `seed_for_round` that deals every round from `seed`."""
    return lambda _number: seed


def deal_vectors() -> list[dict[str, Any]]:
    vectors = []
    for case, (preset, overrides) in enumerate(DEAL_CASES):
        rules = Rules.preset(preset, **overrides)
        for k in range(2):
            seed = round_seed(f"vector-{case}-{k}", 0)
            salt = hashlib.sha256(b"salt" + seed).digest()[:16]
            hands, boneyard = deal_from_seed(rules, seed)
            game = Game(rules, seed_for_round=every_round_from(seed))
            dealt = [[str(tile) for tile in hand] for hand in game.round.dealt_hands]
            actions = _actions(game, random.Random(f"{case}-{k}"))
            vectors.append(
                {
                    "rules": {
                        "set_max": rules.set_max,
                        "players": rules.players,
                        "hand_size": rules.hand_size,
                    },
                    "seed": seed.hex(),
                    "salt": salt.hex(),
                    "commitment": hashlib.sha256(seed + salt).hexdigest(),
                    "order": [str(TILES[i]) for i in shuffled(indices(rules.set_mask), seed)],
                    "hands": [[str(TILES[i]) for i in indices(hand)] for hand in hands],
                    "boneyard": [str(TILES[i]) for i in boneyard],
                    "dealt": dealt,
                    "actions": actions,
                    "left": [[str(tile) for tile in hand] for hand in game.rounds[0].hands],
                }
            )
    return vectors


def _shape(result: dict[str, Any] | None, game_over: bool) -> tuple[object, ...]:
    if result is None:
        return (None, game_over)
    extras = (bool(result["goals"]), bool(result["blocker_points"]), any(result["pass_points"].values()))
    return (result["kind"], result["tie"], result["capicua"], *extras, game_over)


def result_vectors() -> list[dict[str, Any]]:
    """Rounds of seeded games per preset, random legal play: at most two of each shape of
    result (dominó or tranque, tie, goals, the blocker's and the passes' palitos, a round
    left unfinished when ponce's passes end the game, the game's last round)."""
    vectors = []
    for preset, overrides in RESULT_PRESETS:
        rules = Rules.preset(preset, **overrides)
        seen: dict[tuple[object, ...], int] = {}
        for k in range(30):
            game = Game(rules, seed=f"results-{preset}-{rules.players}-{k}")
            choose = random.Random(f"{preset}-{k}")
            while True:
                _actions(game, choose)
                result = game.round.result
                data = None if result is None else result.to_json()
                shape = _shape(data, game.is_over)
                if seen.get(shape, 0) < 2:
                    seen[shape] = seen.get(shape, 0) + 1
                    vectors.append(
                        {
                            "preset": preset,
                            "rules": rules.to_json(),
                            "round": game.round_number,
                            "result": data,
                            "scores": list(game.scores),
                            "goals": list(game.goals),
                            "game_over": game.is_over,
                            "winners": list(game.winners),
                        }
                    )
                if game.is_over:
                    break
                game.start_next_round()
    return vectors


def write() -> None:
    VECTORS.mkdir(parents=True, exist_ok=True)
    for name, data in (("deals.json", deal_vectors()), ("results.json", result_vectors())):
        lines = ",\n".join(json.dumps(item, separators=(",", ":")) for item in data)
        (VECTORS / name).write_text(f"[\n{lines}\n]\n")  # one vector a line


if __name__ == "__main__":
    write()
