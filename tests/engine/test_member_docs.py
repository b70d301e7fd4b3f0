"""Every public function, method and property of the modules setup.py compiles has its
docstring at run time, compiled or not: mypyc drops them and `docstrings.restore` gives them
back, after the signature, which `inspect` still reads."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from types import ModuleType

import pytest

from tests.engine.test_doctests import ROOT, compiled_sources
from tranque.engine import Round, RoundResult, Tile
from tranque.engine.docstrings import set_doc


def public_members(source: str) -> list[tuple[ModuleType, str | None, str, str | None]]:
    """(module, class or None, name, docstring in the source) of each public function and
    each public class's public methods and properties."""
    module = importlib.import_module(".".join(Path(source).with_suffix("").parts[1:]))
    found: list[tuple[ModuleType, str | None, str, str | None]] = []
    for node in ast.parse((ROOT / source).read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            found.append((module, None, node.name, ast.get_docstring(node)))
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("_"):
                    found.append((module, node.name, item.name, ast.get_docstring(item)))
    return found


MEMBERS = [member for source in compiled_sources() for member in public_members(source)]


def runtime_doc(module: ModuleType, owner: str | None, name: str) -> str | None:
    found: object = getattr(module, name) if owner is None else vars(getattr(module, owner))[name]
    if owner is not None and callable(found) and not isinstance(found, property):
        found = getattr(getattr(module, owner), name)  # a method as `help()` finds it
    # A property's (and a compiled property's) own docstring, not its value's.
    doc = found.__doc__
    return doc if isinstance(doc, str) else None


@pytest.mark.parametrize(
    ("module", "owner", "name", "doc"),
    MEMBERS,
    ids=[f"{module.__name__.rpartition('.')[2]}.{owner or ''}.{name}" for module, owner, name, _ in MEMBERS],
)
def test_every_public_member_has_its_docstring_at_run_time(
    module: ModuleType, owner: str | None, name: str, doc: str | None
) -> None:
    assert doc, f"{name} has no docstring in its source"
    shown = runtime_doc(module, owner, name)
    assert shown is not None and inspect.cleandoc(shown) == doc


def test_there_are_members_to_check() -> None:
    names = {(owner, name) for _, owner, name, _ in MEMBERS}
    assert {("Round", "apply"), ("Round", "deal"), ("Round", "turn"), ("Tile", "parse")} <= names


def test_help_on_a_method_shows_its_signature_and_its_docstring() -> None:
    assert Round.apply.__doc__ is not None and "return the event that happened" in Round.apply.__doc__
    assert list(inspect.signature(Round.apply).parameters) == ["self", "action", "seat"]
    assert list(inspect.signature(Tile.parse).parameters) == ["text"]
    assert RoundResult.from_json.__doc__ and "to_json" in RoundResult.from_json.__doc__


def test_a_member_that_has_a_docstring_keeps_it() -> None:
    before = Round.apply.__doc__

    def documented() -> None:
        """Mine."""

    assert set_doc(Round.apply, "something else") and Round.apply.__doc__ == before
    assert set_doc(documented, "something else") and documented.__doc__ == "Mine."


def test_what_is_neither_a_function_nor_a_compiled_one_is_left_alone() -> None:
    assert not set_doc(None, "nothing")
    assert None.__doc__ is None
