"""The table of docs/configuration.md, made from the settings' own fields and their
meanings (`config.meaning`: a key without one fails tests/test_docs.py).

`python -m tranque.server.config_docs` writes the table into docs/configuration.md, between
its two `GENERATED` markers.
"""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

from tranque.server.config import NOT_NEGATIVE, Key, bounds_of, layout, number_text, shown

START = "<!-- GENERATED from the settings' fields by `python -m tranque.server.config_docs`: do not edit -->"
END = "<!-- GENERATED: end -->"
DOCUMENT = Path(__file__).resolve().parents[3] / "docs" / "configuration.md"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def allowed(key: Key) -> str:
    """A number's bounds in words, when they are not only "not negative"."""
    if key.kind.base not in (int, float):
        return ""
    least, most, inclusive = bounds_of(key)
    if (least, most, inclusive) == NOT_NEGATIVE:
        return ""
    low = "" if least is None else ("" if inclusive else "more than ") + number_text(least)
    if most is None:
        return f" (at least {low})" if inclusive else f" ({low})"
    if inclusive and least is not None:
        return f" ({low} to {number_text(most)})"
    return f" ({low + ', ' if low else ''}at most {number_text(most)})"


def table() -> str:
    """The Markdown of every key: one table for the top level, one per section."""
    the = layout()
    parts: list[str] = []
    for section in [None, *the.sections]:
        keys = [key for key in the.keys.values() if key.section == section]
        if section is None:
            parts.append("### Top-level keys\n")
        else:
            doc = inspect.getdoc(the.sections[section]) or ""
            summary = " ".join(doc.split("\n\n")[0].split())
            parts.append(f"### `[{section}]`\n\n{summary}\n")
        parts.append("| TOML key | environment variable | default | meaning |")
        parts.append("|---|---|---|---|")
        for key in keys:
            env = ", ".join(f"`{name}`" for name in [key.env, *key.aliases])
            default = shown(key, key.default)
            parts.append(f"| `{key.toml}` | {env} | `{default}` | {_cell(key.doc)}{allowed(key)} |")
        parts.append("")
    return "\n".join(parts)


def document(text: str) -> str:
    """`text` (docs/configuration.md) with the table between its markers made again."""
    before, start, rest = text.partition(START)
    _, end, after = rest.partition(END)
    if not start or not end:
        raise ValueError(f"{DOCUMENT.name} lacks its markers {START!r} and {END!r}")
    return f"{before}{START}\n\n{table()}\n{END}{after}"


def main() -> int:
    text = DOCUMENT.read_text(encoding="utf-8")
    DOCUMENT.write_text(document(text), encoding="utf-8")
    print(f"{DOCUMENT} written", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
