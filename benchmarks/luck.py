"""How much of each preset is skill: how often the stronger of two bot levels wins.

    python benchmarks/luck.py                                   # every pair, every preset
    python benchmarks/luck.py --pair heuristic:random --deals 50 --only futbol   # a quick look

For each of the nine presets, at its usual number of players (`Rules.preset`), two levels
play whole games to the target on duplicate deals (`tranque.bots.arena`: every deal once per
seating, so the tiles' luck is dealt to both sides alike). Printed, per preset and pair: the
share of the rounds and of the games the stronger level wins, with 95% Wilson intervals, and
the fair share (the share of the sides the stronger level holds: `fair_share`). The further
above the fair share, the more the preset rewards play over the tiles; a round is a deal, so
its share says how much one hand is skill, and a game's share how much skill adds up over a
game. Ties count half.
"""

from __future__ import annotations

import argparse
import time

from tranque.bots.arena import play_match, seatings, summarize
from tranque.engine import Rules
from tranque.engine.presets import PRESETS

# (stronger, weaker) and the duplicate deals each row plays by default: the expert is slow.
PAIRS: dict[tuple[str, str], int] = {
    ("heuristic", "random"): 1000,
    ("heuristic", "greedy"): 1000,
    ("expert", "heuristic"): 25,
}


def parse_pair(text: str) -> tuple[str, str]:
    stronger, _, weaker = text.partition(":")
    if not stronger or not weaker:
        raise argparse.ArgumentTypeError(f"a pair is stronger:weaker, not {text!r}")
    return stronger, weaker


def fair_share(rules: Rules) -> float:
    """The share of rounds and games the stronger level would win at equal strength: the
    share of the sides it holds (`arena.seatings`: half of them with an even number of sides,
    so two of the four seats of a four-player individual game; one otherwise)."""
    first = seatings(rules)[0]
    held = {rules.team_of(seat) for seat in range(rules.players) if first[seat] == 0}
    return len(held) / rules.team_count


def row(rules: Rules, pair: tuple[str, str], deals: int, seed: int, jobs: int) -> str:
    """One Markdown row: the stronger level's rounds and games won over `deals` deals."""
    started = time.perf_counter()
    records = [record for _, deal in play_match(rules, pair, deals, seed, jobs) for record in deal]
    summary = summarize(pair, records)
    rounds, round_low, round_high = summary.round_rate(0)
    games, game_low, game_high = summary.game_rate(0)
    mode = "pairs" if rules.is_pairs else "individual"
    return (
        f"| {rules.preset_name} | {rules.players} {mode} | {pair[0]} vs {pair[1]} | {summary.rounds} "
        f"| {rounds:.1%} [{round_low:.1%}–{round_high:.1%}] | {summary.games} "
        f"| {games:.1%} [{game_low:.1%}–{game_high:.1%}] | {fair_share(rules):.0%} |"
        f"  <!-- {time.perf_counter() - started:.0f} s -->"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pair", type=parse_pair, action="append", help="stronger:weaker (repeatable)")
    parser.add_argument("--deals", type=int, help="duplicate deals per row (default: the pair's own)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", action="append", help="a preset (repeatable)")
    args = parser.parse_args(argv)
    pairs = args.pair or list(PAIRS)
    presets = [name for name in PRESETS if not args.only or name in args.only]
    print(
        "| preset | players | stronger vs weaker | rounds | rounds won [95% CI] "
        "| games | games won [95% CI] | fair share |"
    )
    print("|---|---|---|---:|---|---:|---|---:|")
    for pair in pairs:
        deals = args.deals or PAIRS.get(pair, 20)
        for name in presets:
            print(row(Rules.preset(name), pair, deals, args.seed, args.jobs), flush=True)


if __name__ == "__main__":
    main()
