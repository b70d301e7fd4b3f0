"""The browser's modules that run without a browser, under `node --test` (tests/web/js/)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

JS_TESTS = Path(__file__).resolve().parent / "js"
NODE_MAJOR = 20  # node:test's mock clock with Date


def test_the_browser_modules_pass_their_node_tests() -> None:
    node = shutil.which("node")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout if node else ""
    found = re.match(r"v(\d+)\.", version)
    if node is None or found is None or int(found.group(1)) < NODE_MAJOR:
        pytest.skip(f"needs Node.js {NODE_MAJOR} or later (found {version.strip() or 'none'})")
    result = subprocess.run([node, "--test", str(JS_TESTS)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"^# pass [1-9]", result.stdout, re.M), result.stdout
