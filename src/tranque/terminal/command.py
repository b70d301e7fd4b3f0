"""What every `tranque` subcommand shares: its entry in the dispatch table, the context it
runs in, and the one error type that `main` turns into a one-line message and exit code 2."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn


class CliError(Exception):
    """A bad option, input file or record path. The message is for a person, in their language."""


def read_stdin_line() -> str:
    # Looked up at call time so tests can monkeypatch builtins.input.
    return input()


@dataclass
class Context:
    lang: str
    out: Console
    err: Console
    read_line: Callable[[], str] = read_stdin_line


def progress_bar(ctx: Context, label: str) -> Progress:
    """The bar a long command shows on standard error while it works, gone when it is done."""
    return Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=ctx.err,
        transient=True,
    )


@dataclass(frozen=True)
class Command:
    """A subcommand: `configure` adds its options to its parser, `run` does the work and
    returns the exit code. The help text is the catalogue message `help_key`."""

    help_key: str
    configure: Callable[[argparse.ArgumentParser, str], None]
    run: Callable[[argparse.Namespace, Context], int]
