"""`tranque verify RECORD.json`: check every deal of a game record, then every move.

A record from the site carries, for each finished round, the commitment published at the
deal and the seed and salt revealed after it: seed + salt must give the commitment, and the
seed must give the deal. A record from `tranque play` or `simulate` has seeds only, so the
deal each seed gives is what can be checked. On any record every action is then replayed
(`tranque.engine.record.replay`), so a changed or removed move, a changed score or a forged
winner is refused too.

A revealed day of el reparto del día (`GET /api/reparto/{day}/seed`, docs/reparto.md) is
checked too: the day's commitment, every deal's commitment and every hand, from its seed.

Exit codes: 0 everything checks out, 1 something does not, 2 the file cannot be read or is
not a game record.
"""

from __future__ import annotations

import argparse
from typing import Any

from tranque.engine import RulesError
from tranque.engine.record import check
from tranque.server.reparto.verify import day_problems, is_day
from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError, Command, Context
from tranque.terminal.record_file import read_record


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("file", metavar="RECORD.json", help=t("opt_verify_file", lang))


def from_site(record: dict[str, Any]) -> bool:
    """A site record names its table and publishes a commitment for each deal."""
    return "table" in record or any("commitment" in round_ for round_ in record["rounds"])


def run(args: argparse.Namespace, ctx: Context) -> int:
    lang, out = ctx.lang, ctx.out
    record = read_record(args.file, lang)
    if is_day(record):
        return run_day(record, args.file, ctx)
    try:
        rounds = record["rounds"]
        if not isinstance(rounds, list) or not all(isinstance(r, dict) for r in rounds):
            raise TypeError("rounds")
        site = from_site(record)
        verdict = check(record, committed=site)
    except (KeyError, TypeError, AttributeError, RulesError):  # JSON of the wrong shape
        raise CliError(t("not_a_record", lang, file=args.file)) from None
    out.print(t("verify_site" if site else "verify_local", lang))
    for number, problems in enumerate(verdict.deals, start=1):
        if problems:
            texts = "; ".join(problem.text(lang) for problem in problems)
            out.print(t("verify_round_failed", lang, number=number, problems=texts))
        else:
            out.print(t("verify_round_ok", lang, number=number))
    if not verdict.deals:
        out.print(t("verify_no_rounds", lang))
    if verdict.moves is None:
        out.print(t("verify_moves_ok", lang))
    else:
        out.print(t("verify_moves_failed", lang, reason=verdict.moves.text(lang)))
    out.print(t("verify_all_ok" if verdict.ok else "verify_failed", lang))
    return 0 if verdict.ok else 1


def run_day(day: dict[str, Any], file: str, ctx: Context) -> int:
    """A revealed day of el reparto del día."""
    lang, out = ctx.lang, ctx.out
    if not day.get("seed"):
        raise CliError(t("verify_day_not_revealed", lang, file=file))
    try:
        problems = day_problems(day)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        raise CliError(t("not_a_record", lang, file=file)) from None
    out.print(t("verify_day", lang, day=str(day.get("day"))))
    for problem in problems:
        params = {"mode": str(problem.mode), "hand": str(problem.hand)}
        out.print(t(f"verify_day_{problem.what}", lang, **params))
    out.print(t("verify_day_ok" if not problems else "verify_failed", lang))
    return 0 if not problems else 1


COMMAND = Command("help_verify", configure, run)
