"""Load test of tournaments: many minitorneos played out by the director, bots only, while
people play at ordinary tables on the same server, whose act → event latency is measured.

    python benchmarks/tournament_load.py [--tournaments 200] [--size 8] [--target 30]
                                         [--tables 12] [--think 0.5-2] [--duration 240]
                                         [--db sqlite|memory|postgresql]

It runs server_load.py (the same server subprocess, client workers and figures) with
`--tables N` tables of 4 people each (the probe: their latency is the table's act → event
p99 the players feel), and, through server_load's BENCH_SERVE_HOOK, has the server create
`--tournaments` minitorneos of `--size` when the games start: duels to `--target`, unrated,
filled with bots at once (`bot_fill`, no wait), the bots thinking as on the site
(`bot_min_seconds` 0.6, in the server's worker). The director (tournaments/director.py) pairs,
creates and starts every table, records each game and steps each knock-out to its podium:
round 1 is size/2 tables per tournament at once (800 bot tables for 200 of 8).

Besides server_load's table it prints, for the tournaments: how many finished within the
run and when (seconds after the start: first, median, last), the tables the director made,
its passes (how many, of which full scans; wall time p50/p99/max per pass: the tournaments
with news read, stepped in the director's worker process and saved; how many advanced in
all), stale saves and failures. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

OUT_ENV = "BENCH_TOURNAMENT_OUT"
CONFIG_ENV = "BENCH_TOURNAMENT_CONFIG"


def install(app: Any) -> Any:
    """server_load's hook, in the server process: returns what creates the tournaments."""
    from tranque.server.store.tournaments import TournamentRow
    from tranque.server.tournaments.config import TournamentConfig
    from tranque.server.tournaments.machine import Tournament

    wanted = json.loads(os.environ[CONFIG_ENV])
    out = Path(os.environ[OUT_ENV])
    tasks: list[asyncio.Task[None]] = []

    async def start() -> None:
        state = app.state.tranque
        store, clock, director = state.store, state.settings.clock, state.director
        now = clock.now()
        ids = []
        for number in range(wanted["tournaments"]):
            config = TournamentConfig.from_json(
                {
                    "name": f"Carga {number}",
                    "format": "minitorneo",
                    "entry": "duel",
                    "size": wanted["size"],
                    "target": wanted["target"],
                    "bot_fill": True,
                    "fill_wait_seconds": 0.0,
                    "rated": False,
                    "bot_level": wanted["bot_level"],
                }
            ).checked()
            tournament = Tournament.new(secrets.token_urlsafe(9), config, 0, now)
            row = TournamentRow(
                id=tournament.id,
                status=str(tournament.status),
                format="minitorneo",
                name=config.name,
                private=False,
                creator_id=0,
                created_at=now,
                starts_at=None,
                finished_at=None,
                schedule_key=None,
                version=0,
                doc=tournament.to_json(),
            )
            await store.create_tournament(row)
            ids.append(tournament.id)
        for tournament_id in ids:  # as the service does after each creation
            director.changed(tournament_id)
        started = time.monotonic()

        async def watch() -> None:
            finished: dict[str, float] = {}
            while True:
                for tournament_id in ids:
                    if tournament_id in finished:
                        continue
                    row = await store.tournament(tournament_id)
                    if row is not None and row.status == "finished":
                        finished[tournament_id] = time.monotonic() - started
                stats = director.stats
                figures = {
                    "tournaments": len(ids),
                    "finished": sorted(finished.values()),
                    "tables": stats.tables,
                    "passes": stats.passes,
                    "scans": stats.scans,
                    "advanced": stats.advanced,
                    "pass_seconds": sorted(stats.pass_seconds),
                    "stale": stats.stale,
                    "failures": stats.failures,
                    "replanned": stats.replanned,
                }
                partial = out.with_suffix(".part")
                partial.write_text(json.dumps(figures))
                partial.rename(out)
                await asyncio.sleep(2.0)

        tasks.append(asyncio.get_running_loop().create_task(watch()))

    return start


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--size", type=int, default=8, choices=[4, 8, 16])
    parser.add_argument("--target", type=int, default=30, help="each game's target (short: the run ends)")
    parser.add_argument("--bot-level", default="heuristic")
    parser.add_argument(
        "--tables",
        type=int,
        default=12,
        help="the probe: tables of 4 people (48 sockets: under the default 50 per place)",
    )
    parser.add_argument("--think", default="0.5-2")
    parser.add_argument("--duration", type=float, default=240.0)
    parser.add_argument("--db", choices=["memory", "sqlite", "postgresql"], default="sqlite")
    args = parser.parse_args()

    out = Path(tempfile.mkdtemp(prefix="tranque-tournaments-")) / "figures.json"
    os.environ["BENCH_SERVE_HOOK"] = "tournament_load:install"
    os.environ[OUT_ENV] = str(out)
    os.environ[CONFIG_ENV] = json.dumps(
        {
            "tournaments": args.tournaments,
            "size": args.size,
            "target": args.target,
            "bot_level": args.bot_level,
        }
    )
    import server_load

    sys.argv = [
        "server_load.py",
        "--tables",
        str(args.tables),
        "--think",
        args.think,
        "--duration",
        str(args.duration),
        "--db",
        args.db,
    ]
    print(
        f"{args.tournaments} minitorneos of {args.size} (duels to {args.target}, bots {args.bot_level}, "
        f"unrated) and {args.tables} tables of 4 people (think {args.think} s), "
        f"{args.duration:g} s, {args.db}"
    )
    server_load.main()
    if not out.exists():
        print("no tournament figures were written")
        return
    figures = json.loads(out.read_text())
    done = figures["finished"]
    passes = [seconds * 1000 for seconds in figures["pass_seconds"]]
    rows = [
        (
            "tournaments finished",
            f"{len(done)} of {figures['tournaments']}"
            + (
                f"; after {done[0]:.0f} s (first), {_percentile(done, 0.5):.0f} s (median), "
                f"{done[-1]:.0f} s (last)"
                if done
                else ""
            ),
        ),
        ("tables made by the director", f"{figures['tables']} (replanned {figures['replanned']})"),
        (
            "director passes",
            f"{figures['passes']}: p50 {_percentile(passes, 0.5):.0f} ms  "
            f"p99 {_percentile(passes, 0.99):.0f} ms  max {max(passes, default=float('nan')):.0f} ms "
            f"per pass ({figures['scans']} full scans; {figures['advanced']} tournaments advanced in all)",
        ),
        ("stale saves / failures", f"{figures['stale']} / {figures['failures']}"),
    ]
    width = max(len(name) for name, _ in rows)
    print("-" * (width + 60))
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    main()
