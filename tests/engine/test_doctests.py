"""The examples in the docstrings of the compiled engine modules run here: pytest's doctest
collector cannot import a module that is a compiled extension, so their source is parsed
and each example runs against the module as it is installed (compiled or not)."""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def compiled_sources() -> list[str]:
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "COMPILED" for t in node.targets):
            return list(ast.literal_eval(node.value))
    raise LookupError("setup.py has no COMPILED list")


@pytest.mark.parametrize("source", compiled_sources())
def test_docstring_examples_of_compiled_modules(source: str) -> None:
    path = ROOT / source
    module = importlib.import_module(".".join(Path(source).with_suffix("").parts[1:]))
    text = path.read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    examples = [
        example
        for node in ast.walk(ast.parse(text))
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
        for example in parser.get_examples(ast.get_docstring(node) or "")
    ]
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(
        doctest.DocTest(examples, vars(module).copy(), module.__name__, str(path), 0, text), out=report.append
    )
    assert runner.failures == 0, "".join(report)
