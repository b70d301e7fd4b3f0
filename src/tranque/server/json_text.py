"""JSON text as the server writes it: every frame, stored event and JSON column (orjson).

orjson writes the same JSON as the standard library's compact encoder, several times faster,
and a table serialises each event at least twice (its stored form, each audience's frame). For
what orjson refuses the standard library answers alike: a lone surrogate (only a client's
own text, echoed, can hold one: it goes out escaped), a dict with keys other than strings,
an integer beyond 64 bits.

>>> dumps({"tile": "6-4", "name": "Peñalosa", "at": 12.5, "ends": (6, 4)})
'{"tile":"6-4","name":"Peñalosa","at":12.5,"ends":[6,4]}'
>>> dumps({1: "\\ud800"})
'{"1":"\\\\ud800"}'
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_FALLBACK = json.JSONEncoder(separators=(",", ":"))  # non-ASCII escaped: surrogates survive


def dumps(value: Any) -> str:
    """`value` as compact JSON text, non-ASCII characters as themselves where they can be."""
    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError:
        return _FALLBACK.encode(value)
