"""Helpers for the command-line tests (test_cli.py, test_cli_server.py): typed answers, the one
line a refused command prints, and commands that must not get as far as starting anything."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from _pytest.capture import CaptureResult  # what readouterr() returns: pytest does not export it


def flat(text: str) -> str:
    """Runs of spaces and line breaks as one space (output wraps at 80 columns)."""
    return " ".join(text.split())


def answers(lines: Iterable[str], end: type[BaseException] = EOFError) -> Callable[..., str]:
    """A stand-in for input() that returns `lines` one by one, then raises `end` (the end of
    the stream by default, or KeyboardInterrupt for a Ctrl+C)."""
    feed = iter(lines)

    def read(prompt: str = "") -> str:
        try:
            return next(feed)
        except StopIteration:
            raise end from None

    return read


def one_line_error(captured: CaptureResult[str]) -> str:
    """The one line a refused command writes: nothing on stdout, `tranque: error: …` and no
    traceback on stderr. Returns that line."""
    assert captured.out == ""
    assert captured.err.startswith("tranque: error: ") and captured.err.count("\n") == 1
    assert "Traceback" not in captured.err
    return captured.err.rstrip("\n")


def forbid(monkeypatch: pytest.MonkeyPatch, what: str, *targets: str) -> None:
    """Replace each of `targets` (dotted paths) by a function that fails the test: `what`
    ("a match", "the site") must not be started."""

    def started(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"{what} was started")

    for target in targets:
        monkeypatch.setattr(target, started)
