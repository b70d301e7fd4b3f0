"""`tranque arena A B`: two bot levels on duplicate deals (the match is tranque.bots.arena).

A or B may be your own bot class by import path, `mypkg.mybot:MyBot` (tranque.bots.imported):
as with `python -m`, the current directory is searched first for its module."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from rich.table import Table

from tranque.bots import bot_names
from tranque.bots.arena import GameRecord, MatchSummary, games_needed, play_match, seatings, summarize
from tranque.bots.expert import BUDGET_FIELDS, Budget, BudgetError
from tranque.bots.imported import BotPathError, is_bot_path, make_imported_bot
from tranque.engine import Rules
from tranque.terminal.catalogue import plural, t
from tranque.terminal.command import CliError, Command, Context, progress_bar
from tranque.terminal.options import add_table_options, positive_int, rules_from_args, whole_number
from tranque.terminal.render import describe_rules

DEFAULT_BOTS = ("expert", "heuristic")


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument(
        "bots",
        nargs="*",
        metavar="BOT",
        default=list(DEFAULT_BOTS),
        help=t("opt_arena_bots", lang, bots=", ".join(bot_names()), default=" ".join(DEFAULT_BOTS)),
    )
    add_table_options(parser, lang)
    parser.add_argument(
        "--games", type=positive_int(lang), default=100, metavar="N", help=t("opt_arena_games", lang)
    )
    parser.add_argument(
        "--seed", type=whole_number(lang), default=1, metavar="S", help=t("opt_arena_seed", lang)
    )
    parser.add_argument("--jobs", type=positive_int(lang), default=1, metavar="J", help=t("opt_jobs", lang))
    parser.add_argument(
        "--budget",
        type=expert_budget(lang),
        metavar="CAMPO=VALOR,…" if lang == "es" else "FIELD=VALUE,…",
        help=t("opt_arena_budget", lang, fields=", ".join(BUDGET_FIELDS)),
    )


def expert_budget(lang: str) -> Callable[[str], Budget]:
    """`--budget samples=80,heavy_first_share=1`: the expert's `Budget` with those fields changed."""

    def parse(text: str) -> Budget:
        try:
            return Budget.parse(text)
        except BudgetError as error:
            if error.code == "field":
                message = t("budget_field", lang, field=error.field, fields=", ".join(BUDGET_FIELDS))
            else:
                expected = t(f"budget_expected_{error.code}", lang)
                message = t("budget_value", lang, field=error.field, value=error.value, expected=expected)
            raise argparse.ArgumentTypeError(message) from None

    return parse


def chosen_bots(words: list[str], lang: str) -> tuple[str, str]:
    """The two bots named, each a level or an import path (checked by making one now)."""
    for word in words:
        if is_bot_path(word):
            if "" not in sys.path and os.getcwd() not in sys.path:
                sys.path.insert(0, os.getcwd())  # as `python -m`: your module, from where you are
            try:
                make_imported_bot(word)
            except BotPathError as error:
                raise CliError(t("bad_arena_bot_path", lang, reason=error.text(lang))) from None
        elif word not in bot_names():
            raise CliError(t("bad_arena_bot", lang, bot=word, bots=", ".join(bot_names())))
    if len(words) != 2:
        raise CliError(t("arena_two_bots", lang, count=len(words), bots=", ".join(bot_names())))
    return words[0], words[1]


def shown_name(bot: str) -> str:
    """A level's name, or an imported bot's class name (`mypkg.mybot:MyBot` shows `MyBot`)."""
    return bot.rpartition(":")[2] if is_bot_path(bot) else bot


def run(args: argparse.Namespace, ctx: Context) -> int:
    lang = ctx.lang
    names = chosen_bots(list(args.bots), lang)
    if args.budget is not None and names[0] != "expert":
        raise CliError(t("budget_needs_expert", lang, bot=names[0]))
    rules = rules_from_args(args, lang)
    by_deal: dict[int, list[GameRecord]] = {}
    progress = progress_bar(ctx, t("arena_playing", lang))
    with progress:
        task = progress.add_task("", total=args.games * len(seatings(rules)))
        for number, deal_records in play_match(rules, names, args.games, args.seed, args.jobs, args.budget):
            by_deal[number] = deal_records
            progress.advance(task, len(deal_records))
    deals = [by_deal[n] for n in sorted(by_deal)]
    names = (shown_name(names[0]), shown_name(names[1]))
    if args.budget is not None and args.budget.changes():
        names = (f"{names[0]} ({args.budget.changes()})", names[1])
    summary = summarize(names, [record for deal in deals for record in deal])
    ctx.out.print(render(summary, rules, lang, games_needed(names, deals)))
    return 0


def render(summary: MatchSummary, rules: Rules, lang: str, needed: int | None = None) -> Table:
    """The match as a table: rounds and games won with their 95% intervals, points per round
    and decision times, and from which game the leader's interval stays above one half."""
    first, second = summary.names
    title = t("arena_title", lang, first=first, second=second, rules=describe_rules(rules, lang))
    counted = t(
        "arena_counted",
        lang,
        games=plural("games", summary.games, lang),
        rounds=plural("rounds", summary.rounds, lang),
    )
    table = Table(title=f"{title}\n{counted}")
    table.add_column(t("col_bot", lang))
    for key in ("col_rounds_won", "col_games_won", "col_points_per_round", "col_p50_ms", "col_p99_ms"):
        table.add_column(t(key, lang), justify="right")
    for bot in (0, 1):
        table.add_row(
            f"{bot + 1}. {summary.names[bot]}",
            show_rate(summary.round_rate(bot)),
            show_rate(summary.game_rate(bot)),
            f"{summary.points_per_round[bot]:.1f}",
            f"{summary.time_ms(bot, 0.5):.2f}",
            f"{summary.time_ms(bot, 0.99):.2f}",
        )
    leader = 0 if summary.game_wins[0] >= summary.game_wins[1] else 1
    if needed is None:
        caption = t("arena_no_leader", lang)
    else:
        caption = t("arena_leader", lang, bot=summary.names[leader], games=needed)
    table.caption = f"{caption}\n{t('arena_times', lang)}"
    return table


def show_rate(rate: tuple[float, float, float]) -> str:
    value, low, high = rate
    return f"{value:.1%}\n[{low:.1%}–{high:.1%}]"


COMMAND = Command("help_arena", configure, run)
