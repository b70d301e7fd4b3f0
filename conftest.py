"""Doctests run over src/ too, except in the engine modules that setup.py compiles with
mypyc: pytest cannot collect a module that is imported as an extension. Their examples are
pinned by tests/engine instead."""

import ast
from pathlib import Path


def _compiled_sources() -> list[str]:
    tree = ast.parse((Path(__file__).parent / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "COMPILED" for t in node.targets):
            return list(ast.literal_eval(node.value))
    raise LookupError("setup.py has no COMPILED list")


collect_ignore = _compiled_sources()
