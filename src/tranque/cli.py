"""The `tranque` command: `tranque [--lang es|en] COMMAND ...`.

Each subcommand is one entry of `COMMANDS` (a `Command` with its options and its run
function), so adding one is one line. Every bad option ends in a one-line message in the
player's language and exit code 2, never a traceback; every help shows the defaults.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from rich.console import Console

from tranque.terminal import (
    admin,
    analyze,
    arena,
    backup,
    bot,
    migrate,
    play,
    puzzles,
    replay,
    serve,
    simulate,
    tournament,
    verify,
)
from tranque.terminal.catalogue import LANGS, t
from tranque.terminal.command import CliError, Command, Context

COMMANDS: dict[str, Command] = {
    "play": play.COMMAND,
    "simulate": simulate.COMMAND,
    "replay": replay.COMMAND,
    "serve": serve.COMMAND,
    "verify": verify.COMMAND,
    "arena": arena.COMMAND,
    "analyze": analyze.COMMAND,
    "bot": bot.COMMAND,
    "admin": admin.COMMAND,
    "migrate": migrate.COMMAND,
    "backup": backup.BACKUP,
    "restore": backup.RESTORE,
    "tournament": tournament.COMMAND,
    "puzzles": puzzles.COMMAND,
}

# argparse's own messages (Python 3.11+), and the catalogue key that says each in the player's language.
_ARGPARSE_MESSAGES = [
    (re.compile(r"unrecognized arguments: (?P<what>.*)"), "arg_unknown"),
    (re.compile(r"the following arguments are required: (?P<what>.*)"), "arg_missing"),
    (
        re.compile(
            r"argument (?P<option>\S+): invalid choice: (?P<value>.*?) \(choose from (?P<choices>.*)\)"
        ),
        "arg_choice",
    ),
    (re.compile(r"argument (?P<option>\S+): expected one argument"), "arg_expected_value"),
    (re.compile(r"argument (?P<option>\S+): invalid \S+ value: (?P<value>.*)"), "arg_invalid"),
    (re.compile(r"argument (?P<option>\S+): (?P<message>.*)"), "arg_other"),
]


def translate_argparse(message: str, lang: str) -> str:
    for pattern, key in _ARGPARSE_MESSAGES:
        match = pattern.fullmatch(message)
        if match:
            return t(key, lang, **match.groupdict())
    return message


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors become a `CliError` in the player's language."""

    def __init__(self, *args: Any, lang: str = "es", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lang = lang

    def error(self, message: str) -> NoReturn:
        raise CliError(translate_argparse(message, self.lang))


def lang_on_line(argv: Sequence[str]) -> str | None:
    """The last valid --lang on the line, wherever it is."""
    lang = None
    for index, word in enumerate(argv):
        if word == "--lang" and index + 1 < len(argv) and argv[index + 1] in LANGS:
            lang = argv[index + 1]
        elif word.startswith("--lang=") and word.removeprefix("--lang=") in LANGS:
            lang = word.removeprefix("--lang=")
    return lang


def chosen_lang(argv: Sequence[str]) -> str:
    """--lang (anywhere on the line), else $TRANQUE_LANG, else Spanish."""
    env = os.environ.get("TRANQUE_LANG", "es")
    return lang_on_line(argv) or (env if env in LANGS else "es")


def check_environment_lang(argv: Sequence[str], lang: str) -> None:
    """A $TRANQUE_LANG that names no language is refused, as --lang would refuse it."""
    env = os.environ.get("TRANQUE_LANG")
    if env is not None and env not in LANGS and lang_on_line(argv) is None:
        raise CliError(t("bad_env_lang", lang, value=env, langs=", ".join(LANGS)))


def version() -> str:
    """The installed package's version."""
    return importlib.metadata.version("tranque")


def build_parser(lang: str) -> Parser:
    def formatter(prog: str) -> argparse.HelpFormatter:
        return Formatter(prog, lang)

    common = Parser(add_help=False, lang=lang)
    common.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS, help=t("opt_lang", lang))
    common.add_argument("-h", "--help", action="help", help=t("opt_help", lang))
    parser = Parser(
        prog="tranque",
        lang=lang,
        description=t("description", lang),
        parents=[common],
        add_help=False,
        allow_abbrev=False,
        formatter_class=formatter,
    )
    parser._optionals.title = t("options_title", lang)
    parser.add_argument(
        "--version", action="version", version=f"tranque {version()}", help=t("opt_version", lang)
    )
    # Not `required`: argparse would then report a missing command before an unknown option.
    commands = parser.add_subparsers(dest="command", title=t("commands_title", lang), metavar="COMMAND")
    for name, command in COMMANDS.items():
        sub = commands.add_parser(
            name,
            lang=lang,
            help=t(command.help_key, lang),
            description=t(command.help_key, lang),
            parents=[common],
            add_help=False,
            allow_abbrev=False,
            formatter_class=formatter,
        )
        sub._optionals.title = t("options_title", lang)
        sub._positionals.title = t("arguments_title", lang)
        command.configure(sub, lang)
    return parser


class Formatter(argparse.HelpFormatter):
    """Help in the player's language, each option followed by its default (like argparse's
    ArgumentDefaultsHelpFormatter, whose "(default: …)" is English only). Options whose
    default is not a plain value say it in their own help text."""

    def __init__(self, prog: str, lang: str) -> None:
        super().__init__(prog)
        self.lang = lang

    def add_usage(self, usage: str | None, actions: Any, groups: Any, prefix: str | None = None) -> None:
        # Subcommand usages are built with prefix "" and must stay without one.
        super().add_usage(usage, actions, groups, t("usage", self.lang) if prefix is None else prefix)

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        default = action.default
        if (
            "%(default)" in text
            or not action.option_strings
            or default is None
            or isinstance(default, bool | list)
            or default is argparse.SUPPRESS
        ):
            return text
        return text + t("help_default", self.lang)


def main(argv: list[str] | None = None) -> int:
    args_list = list(argv) if argv is not None else sys.argv[1:]
    lang = chosen_lang(args_list)
    # Output wraps at word boundaries to the terminal's width; an error stays one line.
    out = Console(highlight=False, markup=False, emoji=False)
    err = Console(stderr=True, highlight=False, markup=False, emoji=False, soft_wrap=True)
    try:
        check_environment_lang(args_list, lang)
        args = build_parser(lang).parse_args(args_list)
        if args.command is None:
            raise CliError(t("arg_missing_command", lang, commands=", ".join(COMMANDS)))
        return COMMANDS[args.command].run(args, Context(lang, out, err))
    except CliError as error:
        err.print(t("error_line", lang, message=error))
        return 2
    except SystemExit as exit_:  # --help
        return exit_.code if isinstance(exit_.code, int) else 0
    except KeyboardInterrupt:
        err.print(t("interrupted", lang))
        return 130
