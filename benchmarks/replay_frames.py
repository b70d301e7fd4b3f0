"""How big and how slow a replay is: the frames `GET /api/games/{id}/replay` sends for whole
games of greedy bots, by preset and number of players.

    python benchmarks/replay_frames.py              # five games of each kind
    python benchmarks/replay_frames.py --games 20

For each kind: the mean and the largest number of frames, the body's size in KiB (compact
JSON, as the endpoint sends it), and the median and largest time to build the frames
(`replay_frames`, the record's check included) and to encode them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from tranque.bots import make_bot
from tranque.bots.arena import play_out
from tranque.engine import Game, Rules
from tranque.engine.record import to_record
from tranque.server.table.replay_frames import replay_frames

KINDS = [("clasico", 2), ("clasico", 4), ("clasico", 6), ("ponce", 4), ("internacional", 4)]


def bots_game(preset: str, players: int, seed: int) -> Game:
    rules = Rules.from_options(preset, players=players)
    game = Game(rules, seed=seed)
    return play_out(game, [make_bot("greedy", seed=seat) for seat in range(rules.players)])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games of each kind")
    args = parser.parse_args()
    print(f"{'kind':<18} {'frames':>13} {'KiB':>11} {'build ms':>13} {'encode ms':>13}")
    for preset, players in KINDS:
        counts, sizes, builds, encodes = [], [], [], []
        for seed in range(args.games):
            record = to_record(bots_game(preset, players, seed))
            start = time.perf_counter()
            frames, rounds = replay_frames(record)
            built = time.perf_counter()
            body = json.dumps({"frames": frames, "rounds": rounds}, ensure_ascii=False, separators=(",", ":"))
            encoded = time.perf_counter()
            counts.append(len(frames))
            sizes.append(len(body.encode()) / 1024)
            builds.append((built - start) * 1000)
            encodes.append((encoded - built) * 1000)
        print(
            f"{preset + ' ' + str(players):<18} "
            f"{statistics.mean(counts):>6.0f} / {max(counts):<4} "
            f"{statistics.mean(sizes):>4.0f} / {max(sizes):<4.0f} "
            f"{statistics.median(builds):>5.0f} / {max(builds):<5.0f} "
            f"{statistics.median(encodes):>5.0f} / {max(encodes):.0f}"
        )


if __name__ == "__main__":
    main()
