"""Docstrings for the compiled build: mypyc keeps each method's signature but drops every
docstring, so `help(Round)` would show names without a word of explanation.

`restore` reads the docstrings from each compiled module's source (installed beside it) and
gives the module and each public class its own, the class's followed by those of its public
methods and properties, so `help()` reads as it does in the pure build. In the pure build it
changes nothing.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from types import ModuleType

_EXTENSIONS = (".so", ".pyd")


def restore(package: str) -> None:
    """Give every compiled module of `package` that is imported its source's docstrings."""
    for name, module in list(sys.modules.items()):
        if not name.startswith(package + ".") or not str(getattr(module, "__file__", "")).endswith(
            _EXTENSIONS
        ):
            continue
        source = Path(str(module.__file__)).with_name(name.rpartition(".")[2] + ".py")
        if source.exists():
            _restore_module(module, ast.parse(source.read_text(encoding="utf-8")))


def _restore_module(module: ModuleType, tree: ast.Module) -> None:
    if module.__doc__ is None:
        module.__doc__ = ast.get_docstring(tree)
    for node in tree.body:
        target = getattr(module, node.name, None) if isinstance(node, ast.ClassDef) else None
        if isinstance(node, ast.ClassDef) and isinstance(target, type) and not node.name.startswith("_"):
            try:
                target.__doc__ = class_doc(node)
            except (AttributeError, TypeError):
                continue  # a type that does not take a docstring keeps its signature only


def class_doc(node: ast.ClassDef) -> str:
    """The class's docstring, then each public method's and property's, with its signature."""
    parts = [ast.get_docstring(node) or ""]
    for item in node.body:
        if not isinstance(item, ast.FunctionDef) or (item.name.startswith("_") and item.name != "__init__"):
            continue
        doc = ast.get_docstring(item)
        if doc:
            parts.append(f"{_signature(item)}\n" + "\n".join("    " + line for line in doc.splitlines()))
    return "\n\n".join(part for part in parts if part)


def _signature(function: ast.FunctionDef) -> str:
    """``name(parameters) -> result`` as written in the source, without `self` or `cls`."""
    if any(isinstance(d, ast.Name) and d.id == "property" for d in function.decorator_list):
        return f"{function.name} (property)"
    arguments = ast.unparse(function.args)
    for first in ("self, ", "cls, ", "self", "cls"):
        if arguments.startswith(first):
            arguments = arguments[len(first) :]
            break
    result = f" -> {ast.unparse(function.returns)}" if function.returns else ""
    return f"{function.name}({arguments}){result}"
