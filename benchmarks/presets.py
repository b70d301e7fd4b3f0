"""`expert` against `heuristic` in whole games of every preset, on duplicate deals.

    python benchmarks/presets.py                     # 100 deals a row (~50 minutes on one core)
    python benchmarks/presets.py --deals 20 --only clasico-4 --only futbol-2   # a quick look

Each row is a preset (clasico with 2, 3, 4 and 6 players, then every other preset with its
own number of players) played to its target by `tranque arena expert heuristic`'s match
(tranque.bots.arena): every deal once per seating, so the luck of the tiles cancels out.
With two teams, a fair share of the games is one half; with more (individual play), the
expert plays for one team against copies of the heuristic on every other, and its fair share
is one over the number of teams. A row is won when the 95% Wilson interval of the expert's
games won lies above its fair share. Prints a Markdown table, one line per row as it ends.
"""

from __future__ import annotations

import argparse
import time

from rich.progress import Progress

from tranque.bots.arena import play_match, seatings, summarize
from tranque.engine import Rules

ROWS: list[tuple[str, int | None]] = [
    ("clasico", 2),
    ("clasico", 3),
    ("clasico", 4),
    ("clasico", 6),
    ("sin-pozo", None),
    ("salon", None),
    ("internacional", None),
    ("latino", None),
    ("maracucho", None),
    ("ponce", None),
    ("futbol", None),
    ("en-contra", None),
]
NAMES = ("expert", "heuristic")


def rules_of(preset: str, players: int | None) -> Rules:
    return Rules.from_options(preset, players=players)


def row_name(rules: Rules, preset: str) -> str:
    return f"{preset}-{rules.players}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deals", type=int, default=100, help="duplicate deals per row")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", action="append", help="a row, e.g. clasico-4 (repeatable)")
    args = parser.parse_args()

    rows = [rules_of(preset, players) for preset, players in ROWS]
    chosen = [(preset, rules) for (preset, _), rules in zip(ROWS, rows, strict=True)]
    if args.only:
        chosen = [(preset, rules) for preset, rules in chosen if row_name(rules, preset) in args.only]
    print(
        "| preset | players | mode | target | games | expert's games won [95% CI] "
        "| fair share | rounds won | won |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    with Progress(transient=True) as progress:
        for preset, rules in chosen:
            task = progress.add_task(row_name(rules, preset), total=args.deals * len(seatings(rules)))
            started = time.perf_counter()
            records = []
            for _, deal in play_match(rules, NAMES, args.deals, args.seed, args.jobs):
                records.extend(deal)
                progress.advance(task, len(deal))
            summary = summarize(NAMES, records)
            rate, low, high = summary.game_rate(0)
            rounds, _, _ = summary.round_rate(0)
            fair = 1 / rules.team_count
            mode = "pairs" if rules.is_pairs else "individual"
            progress.remove_task(task)
            progress.console.print(
                f"| {preset} | {rules.players} | {mode} | {rules.target} | {summary.games} "
                f"| {rate:.1%} [{low:.1%}–{high:.1%}] | {fair:.0%} | {rounds:.1%} "
                f"| {'yes' if low > fair else 'no'} |"
                f"  <!-- {time.perf_counter() - started:.0f} s -->",
                highlight=False,
                soft_wrap=True,
            )


if __name__ == "__main__":
    main()
