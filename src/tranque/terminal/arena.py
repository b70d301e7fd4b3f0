"""`tranque arena`: bot levels against each other on duplicate deals (tranque.bots.arena)."""

from __future__ import annotations

import argparse

from tranque.bots import arena
from tranque.terminal.command import Command, Context


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    arena.add_arguments(parser)


def run(args: argparse.Namespace, ctx: Context) -> int:
    return arena.run(args)


COMMAND = Command("help_arena", configure, run)
