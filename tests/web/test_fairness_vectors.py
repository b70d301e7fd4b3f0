"""The vectors the browser's modules are tested against still say what the engine does.

tests/web/js/fairness.test.mjs deals from the seeds of deals.json and results_text.test.mjs
words the results of results.json under `node --test`; both files are produced by the engine
(tests/web/fairness_vectors.py). If the engine's deal or its round results change, this fails
until the files are regenerated, so the node tests never check the browser against stale data.
"""

from __future__ import annotations

import json

import pytest

from tests.web import fairness_vectors


@pytest.mark.parametrize(
    ("name", "make"),
    [("deals.json", fairness_vectors.deal_vectors), ("results.json", fairness_vectors.result_vectors)],
)
def test_the_committed_vectors_are_what_the_engine_produces(name: str, make: object) -> None:
    committed = json.loads((fairness_vectors.VECTORS / name).read_text())
    assert callable(make)
    assert committed == json.loads(json.dumps(make())), (
        f"{name} is stale: regenerate it with .venv/bin/python -m tests.web.fairness_vectors"
    )


def test_the_deal_vectors_match_the_documented_python_deal() -> None:
    """The docs' standard-library deal (docs/protocol.md, «Fair deals») gives the same hands
    and boneyard as the engine for every vector: the JS port follows a documented algorithm."""
    namespace: dict[str, object] = {}
    text = (fairness_vectors.VECTORS.parents[3] / "docs" / "protocol.md").read_text()
    start = text.index("```python\nimport hashlib")
    code = text[start + len("```python\n") : text.index("```", start + 10)]
    exec(compile(code, "protocol.md", "exec"), namespace)
    deal = namespace["deal"]
    assert callable(deal)
    for vector in json.loads((fairness_vectors.VECTORS / "deals.json").read_text()):
        rules = vector["rules"]
        hands, boneyard = deal(vector["seed"], rules["set_max"], rules["players"], rules["hand_size"])
        assert [sorted(hand) for hand in hands] == [sorted(hand) for hand in vector["hands"]]
        assert boneyard == vector["boneyard"]


def test_the_reparto_vector_is_what_the_server_publishes() -> None:
    from tests.web import reparto_vectors

    committed = json.loads((fairness_vectors.VECTORS / "reparto_day.json").read_text())
    assert committed["revealed"] and committed["seed"]
    assert committed == json.loads(json.dumps(reparto_vectors.day_vector())), (
        "reparto_day.json is stale: regenerate it with .venv/bin/python -m tests.web.reparto_vectors"
    )
