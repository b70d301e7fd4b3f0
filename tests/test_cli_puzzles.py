"""`tranque puzzles` (terminal/puzzles.py): writes a book the site can read, the same for the
same seed, with each collection's figures printed; a folder that does not exist is one line
and exit 2, and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tranque.cli import main
from tranque.server.puzzles.book import Book

SMALL = ["--per-collection", "1", "--max-games", "2", "--seed", "3"]


def test_puzzles_writes_a_book_the_site_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "book.json"
    assert main(["--lang", "en", "puzzles", *SMALL, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    data = json.loads(out.read_text(encoding="utf-8"))
    assert set(data["figures"]) == {"parejas", "individual", "doble-nueve"}
    for name, figures in data["figures"].items():
        assert f"{name}: {figures['games']} games, {figures['decisions']} decisions" in printed
        assert figures["games"] <= 2 and figures["kept"] <= 1
    book = Book.read(out)
    assert len(book.puzzles) == sum(f["kept"] for f in data["figures"].values()) >= 1
    for puzzle_id in book.puzzles:
        assert "answer" not in book.public(puzzle_id)
    again = tmp_path / "again.json"
    assert main(["puzzles", *SMALL, "--out", str(again)]) == 0
    assert again.read_text(encoding="utf-8") == out.read_text(encoding="utf-8")


def test_puzzles_refuses_a_missing_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "nowhere" / "book.json"
    assert main(["puzzles", *SMALL, "--out", str(out)]) == 2
    assert "No existe la carpeta" in capsys.readouterr().err
    assert not out.parent.exists()
