"""`tranque simulate`: many bot-only games, and the figures they add up to.

Deterministic for a seed: one `random.Random(seed)` hands out every game's deal seed and
every bot's seed, in a fixed order. Without `--seed` one is drawn and shown, so any run can
be repeated.
"""

from __future__ import annotations

import argparse
import json
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rich.table import Table

from tranque.bots import make_bot
from tranque.bots.arena import play_out
from tranque.engine import Game, RoundEnd, Rules
from tranque.terminal.catalogue import t
from tranque.terminal.command import Command, Context, progress_bar
from tranque.terminal.options import add_table_options, positive_int, rules_from_args, whole_number
from tranque.terminal.record_file import check_writable, write_record
from tranque.terminal.render import cap, describe_rules, team_label

KINDS = ("random", "greedy", "mixed")


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    add_table_options(parser, lang)
    parser.add_argument(
        "--games", type=positive_int(lang), default=200, metavar="N", help=t("opt_games", lang)
    )
    parser.add_argument("--seed", type=whole_number(lang), metavar="S", help=t("opt_seed", lang))
    parser.add_argument("--players-kind", choices=KINDS, default="mixed", help=t("opt_players_kind", lang))
    parser.add_argument("--json", action="store_true", help=t("opt_json", lang))
    parser.add_argument("--record", metavar="FILE", help=t("opt_record_simulate", lang))


def seat_bots(kind: str, players: int) -> list[str]:
    """The bot in each seat; `mixed` puts greedy in even seats and random in odd ones."""
    if kind == "mixed":
        return ["greedy" if seat % 2 == 0 else "random" for seat in range(players)]
    return [kind] * players


@dataclass
class Tally:
    """What the games added up to so far."""

    teams: int
    games: int = 0
    rounds: int = 0
    tranques: int = 0
    ties: int = 0
    points: int = 0
    wins: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.wins = [0] * self.teams

    def add(self, game: Game) -> None:
        self.games += 1
        for result in game.results:
            self.rounds += 1
            self.tranques += result.kind is RoundEnd.TRANQUE
            self.ties += result.tie
            self.points += sum(result.points)
        for team in game.winners:
            self.wins[team] += 1


def simulate(
    rules: Rules,
    games: int,
    seed: int | None,
    bot_kinds: list[str],
    advance: Callable[[], None] = lambda: None,
) -> tuple[Tally, Game]:
    """Play `games` games; returns the tally and the last game."""
    seeds = random.Random(seed)
    tally = Tally(rules.team_count)
    game: Game | None = None
    for _ in range(games):
        game = Game(rules, seed=seeds.getrandbits(64))
        bots = [make_bot(kind, seed=seeds.getrandbits(64)) for kind in bot_kinds]
        play_out(game, bots)
        tally.add(game)
        advance()
    assert game is not None
    return tally, game


def figures(rules: Rules, tally: Tally, seed: int, kind: str, seconds: float) -> dict[str, Any]:
    rounds = max(tally.rounds, 1)
    return {
        "preset": rules.preset_name,
        "players": rules.players,
        "mode": rules.mode.value,
        "target": rules.target,
        "seed": seed,
        "players_kind": kind,
        "bots": seat_bots(kind, rules.players),
        "games": tally.games,
        "rounds": tally.rounds,
        "rounds_per_game": round(tally.rounds / tally.games, 3),
        "tranque_pct": round(100 * tally.tranques / rounds, 2),
        "tie_pct": round(100 * tally.ties / rounds, 2),
        "avg_points_per_round": round(tally.points / rounds, 2),
        "win_pct_by_side": [round(100 * wins / tally.games, 2) for wins in tally.wins],
        "games_per_second": round(tally.games / seconds, 1) if seconds > 0 else None,
    }


def run(args: argparse.Namespace, ctx: Context) -> int:
    rules = rules_from_args(args, ctx.lang)
    if args.record:
        check_writable(args.record, ctx.lang)
    seed = secrets.randbits(32) if args.seed is None else args.seed
    kinds = seat_bots(args.players_kind, rules.players)
    progress = progress_bar(ctx, t("simulating", ctx.lang))
    started = time.perf_counter()
    with progress:
        task = progress.add_task("", total=args.games)
        tally, last = simulate(rules, args.games, seed, kinds, lambda: progress.advance(task))
    seconds = time.perf_counter() - started
    data = figures(rules, tally, seed, args.players_kind, seconds)
    if args.record:
        write_record(last, args.record, ctx.lang)
    if args.json:
        print(json.dumps(data, ensure_ascii=False), file=ctx.out.file)
    else:
        ctx.out.print(summary_table(rules, data, ctx.lang))
        ctx.out.print(sides_table(rules, data, ctx.lang))
        if args.record:
            ctx.out.print(t("record_saved_last", ctx.lang, file=args.record), soft_wrap=True)
    return 0


def summary_table(rules: Rules, data: dict[str, Any], lang: str) -> Table:
    table = Table(title=describe_rules(rules, lang), show_header=False)
    table.add_column()
    table.add_column(justify="right")
    speed = data["games_per_second"]
    rows = [
        ("row_bots", ", ".join(f"{seat}: {bot}" for seat, bot in enumerate(data["bots"]))),
        ("row_seed", str(data["seed"])),
        ("row_games", str(data["games"])),
        ("row_rounds_per_game", f"{data['rounds_per_game']:.2f}"),
        ("row_tranque_pct", f"{data['tranque_pct']:.1f} %"),
        ("row_tie_pct", f"{data['tie_pct']:.1f} %"),
        ("row_points_per_round", f"{data['avg_points_per_round']:.1f}"),
        ("row_games_per_second", "—" if speed is None else f"{speed:.1f}"),
    ]
    for key, value in rows:
        table.add_row(t(key, lang), value)
    return table


def sides_table(rules: Rules, data: dict[str, Any], lang: str) -> Table:
    table = Table(title=t("wins_title", lang))
    table.add_column(t("col_side", lang))
    table.add_column(t("col_bots", lang))
    table.add_column(t("col_win_pct", lang), justify="right")
    for team, pct in enumerate(data["win_pct_by_side"]):
        bots = ", ".join(data["bots"][seat] for seat in rules.seats_of(team))
        table.add_row(cap(team_label(rules, team, lang)), bots, f"{pct:.1f} %")
    if sum(data["win_pct_by_side"]) > 100.005:  # en-contra: a tie shares the win
        table.caption = t("shared_wins_note", lang)
    return table


COMMAND = Command("help_simulate", configure, run)
