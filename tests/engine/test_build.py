"""The compiled engine modules (setup.py builds them with mypyc) must match their sources."""

import importlib
from pathlib import Path

import pytest

COMPILED = ("tiles", "chance", "bitboard", "deal", "round", "scoring")


@pytest.mark.parametrize("name", COMPILED)
def test_a_compiled_module_is_not_older_than_its_source(name: str) -> None:
    module = importlib.import_module(f"tranque.engine.{name}")
    path = Path(module.__file__ or "")
    source = path.with_name(f"{name}.py")
    assert source.exists()
    if path.suffix == ".so":
        assert path.stat().st_mtime >= source.stat().st_mtime, (
            f"{path.name} was built before {source.name} last changed: run the install command again"
        )


def test_setup_compiles_exactly_the_modules_this_test_checks() -> None:
    setup_text = (Path(__file__).parents[2] / "setup.py").read_text()
    listed = {
        line.strip().strip('",').rsplit("/", 1)[-1]
        for line in setup_text.splitlines()
        if "src/tranque" in line
    }
    assert listed == {f"{name}.py" for name in COMPILED}
