"""Table options shared by `play`, `simulate` and `arena`, and how they become `Rules`."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from tranque.engine import Rules, RulesError
from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError

# The Rules parameters that have an option of the same name.
_OPTION_OF_PARAMETER = {"preset": "--preset", "players": "--players", "mode": "--mode", "target": "--target"}


def positive_int(lang: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(t("not_a_whole_number", lang, value=text)) from None
        if value < 1:
            raise argparse.ArgumentTypeError(t("not_positive", lang, value=text))
        return value

    return parse


def whole_number(lang: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            return int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(t("not_a_whole_number", lang, value=text)) from None

    return parse


def add_table_options(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument(
        "--preset", default="clasico", help=t("opt_preset", lang, presets=", ".join(Rules.presets()))
    )
    parser.add_argument("--players", type=whole_number(lang), metavar="N", help=t("opt_players", lang))
    parser.add_argument("--mode", choices=["pairs", "individual"], help=t("opt_mode", lang))
    parser.add_argument("--target", type=whole_number(lang), metavar="T", help=t("opt_target", lang))


def rules_from_args(args: argparse.Namespace, lang: str) -> Rules:
    """The table's rules; an impossible combination is a `CliError` naming the option."""
    try:
        return Rules.from_options(args.preset, players=args.players, mode=args.mode, target=args.target)
    except RulesError as error:
        option = _OPTION_OF_PARAMETER.get(error.parameter, error.parameter)
        raise CliError(t("bad_option", lang, option=option, message=error.detail(lang))) from None
