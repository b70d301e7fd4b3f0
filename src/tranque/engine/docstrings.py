"""Docstrings for the compiled build: mypyc keeps each function's and method's signature but
drops every docstring (it has no option to keep them), so `help(Round.apply)` would show a
signature without a word of explanation.

`restore` reads the docstrings from each compiled module's source (installed beside it) and
gives them back: the module and each public class get theirs as `__doc__`; each function,
method and property gets its own in the C table its compiled descriptor reads `__doc__`
from, after the signature mypyc wrote there (so `inspect.signature` still works). In the
pure build it changes nothing. Where that table cannot be found as expected (another Python
implementation, a layout this does not know), the class's docstring lists its methods'
instead, each with its signature, so `help()` on the class still tells everything.
"""

from __future__ import annotations

import ast
import ctypes
import sys
import types
from pathlib import Path
from types import ModuleType

_EXTENSIONS = (".so", ".pyd")

# The C tables a compiled callable's documentation is read from. Both structures start with
# the name and end their first four fields with the docstring (CPython's PyMethodDef and
# PyGetSetDef, part of its stable ABI).


class _MethodDef(ctypes.Structure):
    _fields_ = (
        ("name", ctypes.c_char_p),
        ("meth", ctypes.c_void_p),
        ("flags", ctypes.c_int),
        ("doc", ctypes.c_void_p),
    )
    name: bytes | None
    doc: int | None


class _GetSetDef(ctypes.Structure):
    _fields_ = (
        ("name", ctypes.c_char_p),
        ("get", ctypes.c_void_p),
        ("set", ctypes.c_void_p),
        ("doc", ctypes.c_void_p),
    )
    name: bytes | None
    doc: int | None


_HEADER = object.__basicsize__  # PyObject_HEAD, whatever the build
_POINTER = ctypes.sizeof(ctypes.c_void_p)
# Where each kind of object keeps the address of its table: a descriptor after its type, name
# and qualified name (PyDescr_COMMON), a built-in function right after the header.
_TABLE_AT: dict[type, tuple[int, type[_MethodDef] | type[_GetSetDef]]] = {
    types.MethodDescriptorType: (_HEADER + 3 * _POINTER, _MethodDef),
    types.ClassMethodDescriptorType: (_HEADER + 3 * _POINTER, _MethodDef),
    types.GetSetDescriptorType: (_HEADER + 3 * _POINTER, _GetSetDef),
    types.BuiltinFunctionType: (_HEADER, _MethodDef),
}

# The texts given to the C tables: they must live as long as the process does.
_KEPT: list[ctypes.Array[ctypes.c_char]] = []


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
        if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
            doc = ast.get_docstring(node)
            if doc:
                set_doc(getattr(module, node.name, None), doc)
        target = getattr(module, node.name, None) if isinstance(node, ast.ClassDef) else None
        if isinstance(node, ast.ClassDef) and isinstance(target, type) and not node.name.startswith("_"):
            complete = _restore_members(target, node)
            try:
                target.__doc__ = (ast.get_docstring(node) or "") if complete else class_doc(node)
            except (AttributeError, TypeError):
                continue  # a type that does not take a docstring keeps its signature only


def _restore_members(cls: type, node: ast.ClassDef) -> bool:
    """Give each documented member of `cls` its docstring; whether every one now has it."""
    complete = True
    for item in node.body:
        if not isinstance(item, ast.FunctionDef):
            continue
        doc = ast.get_docstring(item)
        if doc is None:
            continue
        member = vars(cls).get(item.name)
        if isinstance(member, (staticmethod, classmethod)):
            complete = set_doc(member.__func__, doc) and complete
            member.__doc__ = member.__func__.__doc__  # the wrapper kept the doc it saw when made
            continue
        complete = set_doc(member, doc) and complete
    return complete


def set_doc(member: object, doc: str) -> bool:
    """Give a compiled function, method or property `doc`, after the signature its C table
    holds; whether it has a docstring now. Python functions are given it as they are."""
    if getattr(member, "__doc__", None):
        return True
    if isinstance(member, (types.FunctionType, property)):
        try:
            member.__doc__ = doc
        except AttributeError:
            return False
        return True
    where = _TABLE_AT.get(type(member)) if sys.implementation.name == "cpython" else None
    if where is None:
        return False
    offset, structure = where
    address = ctypes.c_void_p.from_address(id(member) + offset).value
    if not address:
        return False
    table = structure.from_address(address)
    if table.name != getattr(member, "__name__", "").encode():
        return False  # not the layout this expects: leave it alone
    signature = ctypes.c_char_p(table.doc).value or b"" if table.doc else b""
    text = ctypes.create_string_buffer((signature if signature.endswith(b"\n--\n\n") else b"") + doc.encode())
    _KEPT.append(text)
    table.doc = ctypes.addressof(text)
    return bool(getattr(member, "__doc__", None))


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
