"""The suite with fichas off: `TRANQUE_FICHAS_ENABLED=0 pytest ...` (the setting's own variable,
as `tranque serve` reads it: server/config.py) makes every `Settings` a test builds default to
`fichas_enabled=False`, so every test server, store and CLI run starts with fichas off. A test
that sets `fichas_enabled` itself keeps its value. tests/conftest.py applies it at start;
tests/server/support/serve_subprocess.py reads the variable for its own process. The tests of
fichas themselves (tests/server/fichas/, tests/web/test_fichas_*.py) are about fichas on: they
lift the switch or say `fichas_enabled` outright, and test fichas off where they say so."""

from __future__ import annotations

import functools
import os
from typing import Any

from tranque.server.settings import Settings

VARIABLE = "TRANQUE_FICHAS_ENABLED"
OFF = ("0", "false", "no", "off")


def fichas_off() -> bool:
    """Whether the environment switches fichas off for this run."""
    return os.environ.get(VARIABLE, "").strip().lower() in OFF


def apply() -> None:
    """With fichas off by the environment, `Settings()` defaults to `fichas_enabled=False`."""
    if not fichas_off() or getattr(Settings.__init__, "fichas_off", False):
        return
    original = Settings.__init__

    @functools.wraps(original)
    def init(self: Settings, *args: Any, **kwargs: Any) -> None:
        if fichas_off():  # read at each call: tests/server/fichas/conftest.py lifts it for a while
            kwargs.setdefault("fichas_enabled", False)
        original(self, *args, **kwargs)

    init.fichas_off = True  # type: ignore[attr-defined]
    setattr(Settings, "__init__", init)  # noqa: B010
