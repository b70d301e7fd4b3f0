"""The repository stands on its own: its documents link only to what it contains, and nothing
in it points at notes that exist only on the developers' machines.

- Every relative link in README.md, CONTRIBUTING.md and docs/*.md resolves to a file of the
  repository, and every `#anchor` to a heading of the linked document (as GitHub makes
  heading anchors).
- README.md is a front page: at most 15 KB, and its commands run in a fresh shell (the
  virtualenv's `tranque`, not one on the PATH). docs/benchmarks.md covers every script of
  benchmarks/.
- No file of the repository (tracked, or untracked and not ignored) names the team's private
  documents, the numbered source texts the rules were written from, or issues by number.
- docs/rules.md defines every rule ID the tests are named after, and its tables of
  parameters match `Rules` and the presets.
"""

from __future__ import annotations

import re
import subprocess
from enum import Enum
from pathlib import Path

import pytest

from tranque.engine.presets import PRESETS
from tranque.engine.rules import PARAMETERS

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MOST_BYTES = 15_000

FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)

# Built in pieces so that this file does not match its own patterns.
FORBIDDEN = {
    "a link to the team's shared directory": re.compile(r"\.\./" + "shared"),
    "the team's rules notes": re.compile("RULES" + r"\.md"),
    "the team's design notes": re.compile("DESIGN" + r"\.md"),
    "the team's style notes": re.compile("STYLE" + r"\.md"),
    "a numbered source text": re.compile(r"\bseeds?\s+" + r"0\d\d\b", re.I),
    "the source texts' advice": re.compile(r"\bseeds'\s+" + "advice", re.I),
    "an issue by number": re.compile(r"\bissues?\s+" + r"#?\d+", re.I),
}


def prose_lines(text: str) -> list[tuple[int, str]]:
    """The document's lines outside fenced code blocks, numbered from 1."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text, lower case, without punctuation, spaces as
    hyphens.

    >>> slug("Client → server messages"), slug("`round_started`")
    ('client--server-messages', 'round_started')
    >>> slug("1. The default rules: `clasico`"), slug("The engine's [public](x) API")
    ('1-the-default-rules-clasico', 'the-engines-public-api')
    """
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor a document offers: its headings (repeats numbered -1, -2, …) and HTML anchors."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in prose_lines(text):
        found.update(HTML_ANCHOR.findall(line))
        match = HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(text: str) -> list[tuple[int, str]]:
    """(line number, target) of every inline, image and reference link outside code."""
    found = []
    for number, line in prose_lines(text):
        line = CODE_SPAN.sub("", line)
        found += [(number, target) for target in INLINE_LINK.findall(line)]
        reference = REFERENCE_LINK.match(line)
        if reference:
            found.append((number, reference.group(1)))
    return found


def git_files(*options: str) -> list[str]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", *options], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout: the repository's files cannot be listed")
    return [name for name in listed.decode().split("\0") if name]


def repository_files() -> set[str]:
    """Tracked files and untracked ones git does not ignore, that exist in the work tree."""
    names = set(git_files()) | set(git_files("--others", "--exclude-standard"))
    return {name for name in names if (ROOT / name).is_file()}


def broken_links(document: Path, text: str, files: set[str]) -> list[str]:
    """Every relative link of `document` that leads nowhere in the repository, explained."""
    problems = []
    for number, target in links(text):
        if EXTERNAL.match(target):
            continue
        path_part, _, anchor = target.partition("#")
        where = f"{document.relative_to(ROOT).as_posix()}:{number}: {target}"
        linked = (document.parent / path_part).resolve() if path_part else document
        if not linked.is_relative_to(ROOT):
            problems.append(f"{where} leads outside the repository")
            continue
        name = linked.relative_to(ROOT).as_posix()
        is_directory = any(f.startswith(name + "/") for f in files)
        if name not in files and not is_directory:
            problems.append(f"{where}: no such file in the repository")
            continue
        if anchor:
            if linked.suffix != ".md":
                problems.append(f"{where}: an anchor into a file that is not Markdown")
            elif anchor not in anchors(text if linked == document else linked.read_text(encoding="utf-8")):
                problems.append(f"{where}: {name} has no heading with the anchor #{anchor}")
    return problems


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves_to_a_file_and_heading_of_the_repository(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    assert links(text), f"{document.name} has no links: is the link reader broken?"
    assert broken_links(document, text, repository_files()) == []


def test_the_link_check_catches_a_missing_file_a_missing_anchor_and_a_way_out() -> None:
    files = repository_files()
    text = "\n".join(
        [
            "# Title",
            "[fine](docs/rules.md#3-clarifications) [fine too](#title) ![image](docs/screenshot-table.png)",
            "[gone](docs/nothing.md) [bad anchor](docs/rules.md#no-such-section)",
            "[outside](../elsewhere/NOTES.md) `[in code](nowhere.md)` [web](https://example.org/x)",
            "```",
            "[in a block](nowhere.md)",
            "```",
        ]
    )
    problems = broken_links(ROOT / "README.md", text, files)
    assert len(problems) == 3, problems
    assert "no such file" in problems[0]
    assert "no heading with the anchor #no-such-section" in problems[1]
    assert "leads outside the repository" in problems[2]


def test_no_file_points_at_notes_outside_the_repository_or_at_issues_by_number() -> None:
    found = []
    for name in sorted(repository_files()):
        data = (ROOT / name).read_bytes()
        if b"\0" in data:
            continue  # binary: images, databases
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            for what, pattern in FORBIDDEN.items():
                match = pattern.search(line)
                if match:
                    found.append(f"{name}:{number}: {what} ({match.group(0)!r})")
    assert found == []


def test_the_forbidden_patterns_match_what_they_are_meant_to() -> None:
    samples = [
        "[x](../" + "shared/notes.md)",
        "see " + "RULES" + ".md",
        "DESIGN" + ".md 5",
        "STYLE" + ".md",
        "(seed " + "004)",
        "Seeds " + "001–004",
        "the seeds" + "' advice",
        "(issue " + "4)",
        "Issue #" + "12",
    ]
    for sample in samples:
        assert any(pattern.search(sample) for pattern in FORBIDDEN.values()), sample
    for fine in ["--seed 7", "round_seed", "a fresh CSPRNG seed", "docs/rules.md", "docs/design.md"]:
        assert not any(pattern.search(fine) for pattern in FORBIDDEN.values()), fine


# README.md as a front page, docs/benchmarks.md as the home of the figures -------------------

# The commands the install puts in the virtualenv, which a fresh shell does not have.
VENV_COMMANDS = {"tranque", "pytest", "ruff", "mypy"}


def bare_venv_commands(text: str) -> list[str]:
    """Lines of shell code blocks that call a virtualenv's command as if it were on the PATH."""
    found, language = [], None
    for number, line in enumerate(text.splitlines(), start=1):
        fence = FENCE.match(line)
        if fence:
            language = line.strip().strip("`~").strip() if language is None else None
            continue
        if language in ("sh", "bash", "console") and line.split()[:1] and line.split()[0] in VENV_COMMANDS:
            found.append(f"{number}: {line.strip()}")
    return found


def test_the_readme_is_a_front_page_of_at_most_15_KB() -> None:
    size = len((ROOT / "README.md").read_bytes())
    assert size <= README_MOST_BYTES, f"README.md is {size} bytes: move what is not a front page into docs/"


def test_the_readmes_commands_run_in_a_fresh_shell() -> None:
    assert bare_venv_commands((ROOT / "README.md").read_text(encoding="utf-8")) == []


def test_the_fresh_shell_check_catches_a_bare_command_in_a_shell_block_only() -> None:
    lines = ["```sh", ".venv/bin/tranque serve", "tranque play", "```", "tranque play in prose"]
    text = "\n".join([*lines, "```python", "pytest", "```"])
    assert bare_venv_commands(text) == ["3: tranque play"]


def test_every_benchmark_script_has_its_place_in_the_benchmarks_document() -> None:
    text = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    scripts = sorted(path.name for path in (ROOT / "benchmarks").glob("*.py"))
    assert len(scripts) > 5, "no benchmark scripts found: is the path wrong?"
    assert [name for name in scripts if name not in text] == []


# docs/rules.md against the tests and the engine ---------------------------------------------

RULES_DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
RULE_ROW = re.compile(r"^\| ([RVC]\d+) \|", re.M)
RULE_IDS = [f"R{n}" for n in range(1, 18)] + [f"V{n}" for n in range(1, 10)] + [f"C{n}" for n in range(1, 11)]


def rules_section(heading: str) -> str:
    """The text under `heading` (a whole line of docs/rules.md), up to the next heading as high."""
    level = heading.split(" ")[0]
    match = re.search(rf"^{re.escape(heading)}\n(.*?)(?=^#{{1,{len(level)}}} |\Z)", RULES_DOC, re.M | re.S)
    assert match is not None, f"docs/rules.md has no heading «{heading}»"
    return match.group(1)


def test_rules_doc_defines_every_rule_ID_once() -> None:
    assert sorted(RULE_ROW.findall(RULES_DOC), key=RULE_IDS.index) == RULE_IDS


def test_every_rule_ID_a_test_is_named_after_is_defined_in_the_rules_doc() -> None:
    defined = set(RULE_ROW.findall(RULES_DOC))
    named: dict[str, set[str]] = {}
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        for name in re.findall(r"^\s*(?:async\s+)?def (test_\w+)", path.read_text(encoding="utf-8"), re.M):
            for part in name.split("_")[1:]:
                if not re.fullmatch(r"[RVC]\d+", part):
                    break
                named.setdefault(part, set()).add(f"{path.relative_to(ROOT).as_posix()}::{name}")
    assert len(named) > 20, "no test names with rule IDs found: is the name reader broken?"
    assert {rule: tests for rule, tests in named.items() if rule not in defined} == {}


def _table_rows(text: str) -> list[list[str]]:
    rows = []
    for line in text.splitlines():
        if line.startswith("| `"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def _plain(value: object) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def test_rules_doc_lists_every_parameter_of_Rules() -> None:
    documented = {row[0].strip("`") for row in _table_rows(rules_section("### Parameters"))}
    parameters = set(PARAMETERS) - {"preset_name"}
    assert documented == parameters


def test_rules_doc_says_what_each_preset_changes_as_presets_py_does() -> None:
    documented = {}
    for row in _table_rows(rules_section("### What each preset changes")):
        if len(row) == 4:
            changes = {}
            if row[3] != "—":
                for item in row[3].split(","):
                    key, _, value = item.strip().strip("`").partition(": ")
                    changes[key] = value
            documented[row[0].strip("`")] = changes
    expected = {name: {key: _plain(v) for key, v in p.changes.items()} for name, p in PRESETS.items()}
    assert documented == expected


def test_configuration_doc_lists_every_setting_as_the_code_has_it() -> None:
    """docs/configuration.md's tables are made from the settings' fields: a field added,
    renamed or given another default or meaning changes them (`python -m
    tranque.server.config_docs` writes them again)."""
    from tranque.server import config_docs

    text = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    assert text == config_docs.document(text), (
        "docs/configuration.md is out of date: run `python -m tranque.server.config_docs`"
    )


def test_every_setting_says_what_it_is_for() -> None:
    from tranque.server.config import layout

    undocumented = [key.toml for key in layout().keys.values() if not key.doc.strip()]
    assert undocumented == [], (
        f"give each a comment at the end of its line, or field(metadata={{'doc': ...}}): {undocumented}"
    )
