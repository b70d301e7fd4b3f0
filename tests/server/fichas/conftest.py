"""The tests of fichas are about fichas on: in a run with fichas switched off
(`TRANQUE_FICHAS_ENABLED=0`, tests/fichas_switch.py) the variable is lifted while they run, for
their servers in this process and in processes of their own alike. A test of fichas off says
`fichas_enabled=False` itself. Package-scoped, as hypothesis allows no function-scoped fixture
around its examples."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests import fichas_switch


@pytest.fixture(scope="package", autouse=True)
def fichas_on() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv(fichas_switch.VARIABLE, raising=False)
        yield
