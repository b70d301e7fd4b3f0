"""Builds the engine's hot path with mypyc when it can; the same modules run as plain Python otherwise.

Set TRANQUE_PURE_PYTHON=1 to skip compiling (the behaviour is identical, only slower).
"""

import os

from setuptools import setup

# The hot path: tile tables, random choices, the bitmask round, dealing, the public Round
# over them, and scoring.
COMPILED = [
    "src/tranque/engine/tiles.py",
    "src/tranque/engine/chance.py",
    "src/tranque/engine/bitboard.py",
    "src/tranque/engine/deal.py",
    "src/tranque/engine/round.py",
    "src/tranque/engine/scoring.py",
]


def ext_modules() -> list:
    if os.environ.get("TRANQUE_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    extensions = mypycify(COMPILED, opt_level="3")
    for extension in extensions:
        extension.optional = True  # no C compiler: install the pure-Python modules instead
    return extensions


setup(ext_modules=ext_modules())
