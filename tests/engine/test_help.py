"""`help()` on the public classes shows their docstrings and signatures, compiled or not."""

from __future__ import annotations

import ast
import pydoc

import pytest

from tranque import Game, Round, Tile
from tranque.engine.docstrings import class_doc


@pytest.mark.parametrize(
    ("cls", "phrases"),
    [
        (Round, ["A round: deal it with `Round.deal`", "return the event that happened", "apply("]),
        (Tile, ["A dominó tile. Equal regardless of the order of its halves", 'Read ``"6-4"``', "parse("]),
        (Game, ["A game (partida)", "apply("]),
    ],
)
def test_help_shows_the_docstrings_and_signatures(cls: type, phrases: list[str]) -> None:
    # typeshed's pydoc stub leaves out `plaintext` (a TextDoc without the bold of `text`).
    text = pydoc.render_doc(cls, renderer=pydoc.plaintext)  # type: ignore[attr-defined]
    for phrase in phrases:
        assert phrase in text, phrase


def test_a_class_doc_gathers_its_methods_with_their_signatures() -> None:
    tree = ast.parse(
        'class Box:\n    """A box."""\n\n'
        '    def put(self, item: int, *, twice: bool = False) -> None:\n        """Put `item` in."""\n\n'
        '    @property\n    def size(self) -> int:\n        """How many."""\n        return 0\n\n'
        '    def _hidden(self) -> None:\n        """Not shown."""\n'
    )
    node = tree.body[0]
    assert isinstance(node, ast.ClassDef)
    assert class_doc(node) == (
        "A box.\n\n"
        "put(item: int, *, twice: bool=False) -> None\n    Put `item` in.\n\n"
        "size (property)\n    How many."
    )
