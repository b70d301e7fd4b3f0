"""Both builds of the engine behave alike: where the install compiled the engine (setup.py,
mypyc), the same tests run again here on its plain-Python modules, in a subprocess that
imports a copy of the package without the compiled files."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tranque

ROOT = Path(__file__).resolve().parents[2]
# What differs between the builds: copies and pickles, the fast path, the randomness.
TESTS = ("tests/engine/test_copy_pickle.py", "tests/engine/test_fast_path.py", "tests/engine/test_chance.py")


def test_the_plain_python_engine_passes_the_same_tests(tmp_path: Path) -> None:
    package = Path(tranque.__file__).parent
    if not any(package.glob("engine/*.so")):
        pytest.skip("this install is plain Python: the whole suite is already testing that build")
    shutil.copytree(package, tmp_path / "tranque", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    where = subprocess.run(
        [
            sys.executable,
            "-c",
            "import tranque.engine.bitboard as s, tranque.engine.round as r; print(s.__file__, r.__file__)",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert all(path.startswith(str(tmp_path)) and path.endswith(".py") for path in where), where
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *TESTS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout.splitlines()[-1]
