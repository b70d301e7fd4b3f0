"""Which server tests depend on the backend TRANQUE_TEST_DB gives the live test server.

A server a test starts on the in-memory store runs on a fresh SQLite file or PostgreSQL
database instead when TRANQUE_TEST_DB says so (`harness.test_database`), and .ci/run runs the
tests that depend on it again once per backend (`pytest -m backend`). This module finds them
before they run, by reading their code, and records which ones really asked while they ran:

- `Reach` follows a test function and its fixtures through every function of the tests
  package they use, every class of it they instantiate (with its methods) and every function
  nested in them, and answers whether any of it calls `test_database` or reads
  TRANQUE_TEST_DB itself. It reads bytecode, so a name only mentioned (an `isinstance` check,
  an annotation) does not count, and it may answer yes for a server that is given a database
  of its own at run time (tests/server/conftest.py names those after a run).
- A test parametrised over backends (`store`, `database_url`, a `backend` argument) already
  runs on each of them in the main pass: its memory case is rerun only on the backends its
  parameters leave out (`uncovered_backends`).
- `BackendLedger` notes, while tests run, every test and fixture that asked for a memory
  store TRANQUE_TEST_DB could replace.
"""

from __future__ import annotations

import dis
import inspect
import types
from collections.abc import Callable, Iterable, Iterator
from typing import Any

SETTING = "TRANQUE_TEST_DB"
BACKENDS = ("sqlite", "postgresql")  # what TRANQUE_TEST_DB may put in place of memory
EXPLICIT = frozenset({"sqlite", "sqlite-memory", "postgresql"})  # parameter values naming a database
PACKAGE = "tests."


def _in_package(thing: object) -> bool:
    return str(getattr(thing, "__module__", "")).startswith(PACKAGE)


Used = tuple[object, bool] | str  # (a global's value, whether it is called there), or a string


class Reach:
    """Answers, and remembers, whether a function reaches the function `target` (when given)
    or the string constant `text` (when given)."""

    def __init__(self, target: Callable[..., Any] | None = None, text: str | None = None) -> None:
        self.target = None if target is None else inspect.unwrap(target)
        self.text = text
        self.known: dict[types.CodeType, bool] = {}

    def function(self, function: object) -> bool:
        """Whether `function` (a test, a fixture) reaches the target."""
        seen: set[types.CodeType] = set()
        if self._function(function, seen):
            return True
        self.known.update(dict.fromkeys(seen, False))  # all it reaches was read: none of it does
        return False

    def _function(self, function: object, seen: set[types.CodeType]) -> bool:
        function = getattr(function, "__func__", function)  # a method of a test class
        function = inspect.unwrap(function)  # type: ignore[arg-type]
        hypothesis = getattr(function, "hypothesis", None)  # @given wraps the test
        function = getattr(hypothesis, "inner_test", function)
        if self.target is not None and function is self.target:
            return True
        if not isinstance(function, types.FunctionType) or not _in_package(function):
            return False
        code = function.__code__
        if code in self.known:
            return self.known[code]
        if code in seen:
            return False  # being read further up: what it reaches is read there
        seen.add(code)
        if any(self._reaches(used, seen) for used in _uses(code, function.__globals__)):
            self.known[code] = True
            return True
        return False

    def _instantiated(self, cls: type, seen: set[types.CodeType]) -> bool:
        for base in cls.__mro__:
            if _in_package(base):
                for member in vars(base).values():
                    if isinstance(member, staticmethod | classmethod):
                        member = member.__func__
                    if isinstance(member, property):
                        member = member.fget
                    if isinstance(member, types.FunctionType) and self._function(member, seen):
                        return True
        return False

    def _reaches(self, used: Used, seen: set[types.CodeType]) -> bool:
        if isinstance(used, str):
            return used == self.text
        value, called = used
        if isinstance(value, type):
            return called and self._instantiated(value, seen)
        return self._function(value, seen)


_USES: dict[types.CodeType, list[Used]] = {}  # what each function's code uses, read once


def _uses(code: types.CodeType, namespace: dict[str, Any]) -> list[Used]:
    if code not in _USES:
        _USES[code] = list(_used(code, namespace))
    return _USES[code]


def _used(code: types.CodeType, namespace: dict[str, Any]) -> Iterator[Used]:
    """What `code` and the code nested in it use: each global name (and each attribute of a
    module of the tests package) with whether it is called right away, and each string."""
    modules: list[types.ModuleType] = []
    for instruction in dis.get_instructions(code):
        name = instruction.argval
        if instruction.opname == "LOAD_CONST" and isinstance(name, str):
            yield name
        elif instruction.opname == "LOAD_GLOBAL" and name in namespace:
            value = namespace[name]
            if isinstance(value, types.ModuleType) and value.__name__.startswith(PACKAGE):
                modules.append(value)
            yield value, instruction.argrepr.startswith("NULL + ")
        elif instruction.opname in ("LOAD_ATTR", "LOAD_METHOD"):
            for module in modules:
                if hasattr(module, name):
                    yield getattr(module, name), True
    for constant in code.co_consts:
        if isinstance(constant, types.CodeType):
            yield from _used(constant, namespace)


def uncovered_backends(values: Iterable[object]) -> tuple[str, ...]:
    """The backends a test's memory case must still be rerun on, when `values` are the
    backends its cases name (in all of them, for any argument that picks one)."""
    given = set(values)
    return tuple(backend for backend in BACKENDS if backend not in given)


def parametrised_backends(values: Iterable[object]) -> bool:
    """Whether an argument taking `values` picks a database (`store`, `database_url`, ...)."""
    return any(value in EXPLICIT for value in values)


class BackendLedger:
    """Which running tests and fixtures asked for a memory store TRANQUE_TEST_DB may replace."""

    def __init__(self) -> None:
        self.running: list[object] = []  # the test, then the fixtures being set up in it
        self.asked: set[int] = set()

    def note(self) -> None:
        if self.running:
            self.asked.add(id(self.running[-1]))

    def asked_by(self, things: Iterable[object]) -> bool:
        return any(id(thing) in self.asked for thing in things)
