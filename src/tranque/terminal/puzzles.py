"""`tranque puzzles`: build the book of «¿Qué jugarías?» puzzles the site serves.

Plays bot games of each collection (tranque.bots.puzzles: pairs, individual, double-nine),
solves their decisions over the deals consistent with each player's view and keeps those
where one move is clearly best; writes them, the player's view only, with their answers,
to `--out` (the site's packaged file by default). Deterministic for a seed: the same
command writes the same file. Prints each collection's figures: games played, decisions
examined, decisions solved, puzzles kept (docs/puzzles.md).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tranque.bots.puzzles import MARGIN, build
from tranque.server.puzzles.book import BOOK_PATH
from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError, Command, Context
from tranque.terminal.options import positive_int, whole_number


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument(
        "--seed", type=whole_number(lang), default=2026, metavar="S", help=t("opt_puzzles_seed", lang)
    )
    parser.add_argument(
        "--per-collection", type=positive_int(lang), default=45, metavar="N", help=t("opt_puzzles_per", lang)
    )
    parser.add_argument(
        "--max-games", type=positive_int(lang), default=150, metavar="N", help=t("opt_puzzles_games", lang)
    )
    parser.add_argument("--out", metavar="FILE", default=str(BOOK_PATH), help=t("opt_puzzles_out", lang))


def run(args: argparse.Namespace, ctx: Context) -> int:
    out = Path(args.out)
    if not out.parent.is_dir():
        raise CliError(t("puzzles_bad_out", ctx.lang, path=str(out)))

    def progress(name: str, kept: int, games: int) -> None:
        ctx.err.print(f"{name}: {kept} / {games}", end="\r")

    book, figures = build(
        seed=args.seed, per_collection=args.per_collection, max_games=args.max_games, progress=progress
    )
    data = {
        "seed": args.seed,
        "margin": MARGIN,
        "figures": {
            name: {"games": f.games, "decisions": f.decisions, "solved": f.solved, "kept": f.kept}
            for name, f in figures.items()
        },
        "puzzles": book,
    }
    out.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    for name, f in figures.items():
        ctx.out.print(
            t(
                "puzzles_figures",
                ctx.lang,
                name=name,
                games=f.games,
                decisions=f.decisions,
                solved=f.solved,
                kept=f.kept,
            )
        )
    ctx.out.print(t("puzzles_written", ctx.lang, count=len(book), path=str(out)))
    return 0


COMMAND = Command("help_puzzles", configure, run)
