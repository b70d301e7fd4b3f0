"""`tranque verify RECORD.json`: re-shuffle every revealed deal of a game and check it.

Exit codes: 0 every round verified, 1 a round fails (or none could be checked), 2 the file
cannot be read or is not a game record.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from tranque.terminal.catalogue import t
from tranque.server.verify import verify_record
from tranque.terminal.command import CliError, Command, Context


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("file", metavar="RECORD.json", help=t("opt_verify_file", lang))


def read_record(path: str, lang: str) -> dict[str, Any]:
    try:
        with open(path, encoding="utf-8") as source:
            data = json.load(source)
    except FileNotFoundError:
        raise CliError(t("no_such_file", lang, file=path)) from None
    except OSError as error:
        raise CliError(t("cannot_read", lang, file=path, reason=error.strerror)) from None
    except ValueError:  # bad JSON or bad UTF-8
        raise CliError(t("not_a_record", lang, file=path)) from None
    if not isinstance(data, dict):
        raise CliError(t("not_a_record", lang, file=path))
    return data


def run(args: argparse.Namespace, ctx: Context) -> int:
    lang, out = ctx.lang, ctx.out
    try:
        checked = verify_record(read_record(args.file, lang))
    except (AttributeError, KeyError, TypeError, ValueError):  # JSON of the wrong shape
        raise CliError(t("not_a_record", lang, file=args.file)) from None
    if "problems" in checked:  # not a record at all
        raise CliError(t("not_a_record", lang, file=args.file))
    for round_ in checked["rounds"]:
        number = round_["round"] + 1
        if round_["ok"]:
            out.print(t("verify_round_ok", lang, number=number))
        else:
            out.print(t("verify_round_failed", lang, number=number, problems="; ".join(round_["problems"])))
    if not checked["rounds"]:
        out.print(t("verify_no_rounds", lang))
    out.print(t("verify_all_ok" if checked["ok"] else "verify_failed", lang))
    return 0 if checked["ok"] else 1


COMMAND = Command("help_verify", configure, run)
