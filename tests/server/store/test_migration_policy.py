"""Every migration is expand-then-contract (docs/deploy.md, «Upgrades»): a release's revisions
only add, so that the processes of the previous release keep working on the new schema while
the site is upgraded one process at a time.

Two checks. A static one reads every revision's `upgrade()`: dropping or renaming a table or a
column, altering a column, or adding a NOT NULL column with no server default (the previous
code's INSERTs would fail) is refused unless the module declares itself a contract step
(`CONTRACT_AFTER = "<revision>"`: the revision since whose release no code reads what it drops,
before this one). A dynamic one runs the previous release's code (the commit before the newest
revision was added, taken from git) on a database, migrates it to head with this code, and has
both read what the other wrote, the previous code on the new schema included.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tarfile
import textwrap
from io import BytesIO
from pathlib import Path

import pytest
from alembic import command
from alembic.script import ScriptDirectory

from tests import services
from tests.server.support.migration_helpers import execute, own_database_url
from tranque.cli import main
from tranque.server.store import StoredEvent
from tranque.server.store.schema import table_events, tables, users
from tranque.server.store.sql import SqlStore, alembic_config

ROOT = Path(__file__).resolve().parents[3]
VERSIONS = ROOT / "src" / "tranque" / "server" / "migrations" / "versions"
CONTRACT_CALLS = {"drop_column", "drop_table", "rename_table"}
CONTRACT_WORDS = ("DROP TABLE", "DROP COLUMN", "RENAME", "ALTER COLUMN")


def expand_violations(source: str) -> list[str]:
    """What a revision's `upgrade()` does that only a contract step may do (empty: it only adds).

    >>> expand_violations("def upgrade():\\n    op.add_column('t', sa.Column('c', sa.Integer))")
    []
    >>> expand_violations("def upgrade():\\n    with op.batch_alter_table('t') as t: t.drop_column('c')")
    ['drop_column (line 2)']
    """
    tree = ast.parse(source)
    found: list[str] = []
    for function in tree.body:
        if not (isinstance(function, ast.FunctionDef) and function.name == "upgrade"):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                upper = " ".join(node.value.upper().split())
                found += [f"{word} in SQL (line {node.lineno})" for word in CONTRACT_WORDS if word in upper]
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            name = node.func.attr
            if name in CONTRACT_CALLS or name == "alter_column":
                found.append(f"{name} (line {node.lineno})")
            elif name == "add_column" and not_null_without_default(node):
                found.append(f"add_column NOT NULL without server_default (line {node.lineno})")
    return found


def not_null_without_default(call: ast.Call) -> bool:
    columns = [arg for arg in call.args if isinstance(arg, ast.Call)]
    for column in columns:
        keywords = {k.arg: k.value for k in column.keywords}
        nullable = keywords.get("nullable")
        not_null = isinstance(nullable, ast.Constant) and nullable.value is False
        primary = isinstance(keywords.get("primary_key"), ast.Constant)
        if (not_null or primary) and "server_default" not in keywords:
            return True
    return False


def contract_after(source: str) -> str | None:
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "CONTRACT_AFTER" for target in node.targets
        ):
            assert isinstance(node.value, ast.Constant)
            return str(node.value.value)
    return None


def revisions_in_order() -> list[str]:
    script = ScriptDirectory.from_config(alembic_config())
    return [revision.revision for revision in reversed(list(script.walk_revisions()))]


def test_every_revision_only_adds_unless_it_is_a_declared_contract_step() -> None:
    order = revisions_in_order()
    files = sorted(VERSIONS.glob("[0-9]*.py"))
    assert len(files) == len(order)
    for path in files:
        source = path.read_text(encoding="utf-8")
        revision = path.name.split("_")[0]
        violations = expand_violations(source)
        after = contract_after(source)
        if after is None:
            assert violations == [], (
                f"{path.name}: {violations}; a release only adds (docs/deploy.md «Upgrades»): "
                "drop or rename in a later release, declared with CONTRACT_AFTER"
            )
        else:  # what it drops was last read by code released before this revision
            assert after in order and order.index(after) < order.index(revision), path.name


def test_the_check_catches_a_drop_a_rename_and_a_strict_new_column() -> None:
    risky = textwrap.dedent(
        """
        def upgrade():
            op.drop_column("users", "avatar")
            op.alter_column("users", "name", new_column_name="display_name")
            op.add_column("users", sa.Column("level", sa.Integer, nullable=False))
            op.execute("ALTER TABLE users RENAME COLUMN name TO nombre")
            op.drop_table("records")

        def downgrade():
            op.drop_table("anything")
        """
    )
    found = sorted(violation.split(" (")[0] for violation in expand_violations(risky))
    assert found == sorted(
        [
            "drop_column",
            "alter_column",
            "add_column NOT NULL without server_default",
            "RENAME in SQL",
            "drop_table",
        ]
    )
    column = "sa.Column('c', sa.Integer, nullable=False, server_default='0')"
    safe = f"def upgrade():\n    op.add_column('t', {column})"
    assert expand_violations(safe) == []


# The previous release's code on the new schema ------------------------------------------------

PREVIOUS_CODE = """
import asyncio, json, sys
import alembic.command
import tranque
from tranque.server.store import StoredEvent
from tranque.server.store.sql import SqlStore

url, phase, source = sys.argv[1], sys.argv[2], sys.argv[3]
assert tranque.__file__.startswith(source), f"imported {tranque.__file__}, not the previous code"
if phase == "after":  # the schema is newer than this code knows: use it as it is
    alembic.command.upgrade = lambda *args, **kwargs: None

async def main():
    store = SqlStore(url)
    await store.start()
    try:
        if phase == "before":
            await store.create_user("Viejo", "hash-viejo", 1.0)
            await store.create_table("mesa-vieja", {"preset": "clasico"}, 1.0)
            events = [StoredEvent(n, "chat", {"n": n}, 1.0 + n) for n in (1, 2, 3)]
            await store.append_events("mesa-vieja", events)
            return {}
        nuevo = await store.find_user("nuevo")
        await store.append_event("mesa-vieja", StoredEvent(4, "chat", {"n": 4}, 5.0))
        await store.create_user("Tardio", "hash-tardio", 6.0)
        events = await store.load_events("mesa-nueva")
        return {"nuevo": nuevo.name if nuevo else None, "events": [[e.seq, e.kind, e.data] for e in events]}
    finally:
        await store.close()

print(json.dumps(asyncio.run(main())))
"""


def previous_release_source(tmp_path: Path) -> Path:
    """The `src` of the code before the newest revision was added (HEAD, if that revision is
    not committed yet), extracted from git."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    newest = next(VERSIONS.glob(f"{head}_*.py"))
    relative = newest.relative_to(ROOT).as_posix()

    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)
        if done.returncode != 0:
            services.unavailable(f"git cannot read this checkout's history ({done.stderr.strip()})")
        return done.stdout.strip()

    added = git("log", "--diff-filter=A", "--format=%H", "--", relative).splitlines()
    previous = f"{added[-1]}^" if added else "HEAD"
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", previous, "src"], capture_output=True, check=False
    )
    if archive.returncode != 0:
        services.unavailable(f"git has no commit {previous} (a shallow clone?): {archive.stderr.decode()}")
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(tmp_path / "previous", filter="data")
    return tmp_path / "previous" / "src"


def run_previous(source: Path, url: str, phase: str) -> dict[str, object]:
    environment = {**os.environ, "PYTHONPATH": str(source)}
    done = subprocess.run(
        [sys.executable, "-c", PREVIOUS_CODE, url, phase, str(source)],
        capture_output=True,
        text=True,
        env=environment,
        cwd=source.parent,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_previous_release_and_this_one_share_the_migrated_database(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = own_database_url(backend, request, tmp_path)
    previous = previous_release_source(tmp_path)
    # The previous release makes its schema (head - 1 or older) and writes an account and a table.
    run_previous(previous, url, "before")
    assert main(["migrate", "--db", url]) == 0
    assert main(["migrate", "--check", "--db", url]) == 0
    capsys.readouterr()

    async def now_this_release() -> None:
        store = SqlStore(url, migrate=False)
        await store.start()
        try:
            viejo = await store.find_user("viejo")
            assert viejo is not None and viejo.name == "Viejo"
            events = await store.load_events("mesa-vieja")
            assert [(e.seq, e.kind, e.data) for e in events] == [(n, "chat", {"n": n}) for n in (1, 2, 3)]
            await store.create_user("Nuevo", "hash-nuevo", 2.0)
            await store.create_table("mesa-nueva", {"preset": "clasico"}, 2.0)
            await store.append_events("mesa-nueva", [StoredEvent(n, "chat", {"n": n}, 2.0) for n in (1, 2)])
        finally:
            await store.close()

    services._run(now_this_release())
    # A process of the previous release, still running (or restarted) during the upgrade.
    read = run_previous(previous, url, "after")
    assert read == {"nuevo": "Nuevo", "events": [[1, "chat", {"n": 1}], [2, "chat", {"n": 2}]]}

    async def written_by_the_previous() -> None:
        store = SqlStore(url, migrate=False)
        await store.start()
        try:
            assert (await store.find_user("tardio")) is not None
            assert [e.seq for e in await store.load_events("mesa-vieja")] == [1, 2, 3, 4]
        finally:
            await store.close()

    services._run(written_by_the_previous())


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_rows_written_at_the_previous_revision_are_read_back_at_head(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Without git: the previous revision's schema, rows written on it as a server at that
    revision writes them, the upgrade, then this code reads them (the migration keeps them)."""
    url = own_database_url(backend, request, tmp_path)
    order = revisions_in_order()
    command.upgrade(alembic_config(url), order[-2])

    rows = [
        users.insert().values(id=1, name="Antes", name_key="antes", password_hash="h", created_at=1.0),
        tables.insert().values(
            table_id="mesa", config={"preset": "clasico"}, status="playing", created_at=1.0
        ),
        *(
            table_events.insert().values(table_id="mesa", seq=n, kind="chat", data={"n": n}, at=1.0)
            for n in (1, 2, 3)
        ),
    ]
    services._run(execute(url, *rows))

    async def read_after_the_upgrade() -> None:
        store = SqlStore(url)
        await store.start()
        try:
            user = await store.find_user("antes")
            assert user is not None and user.name == "Antes"
            assert [e.data for e in await store.load_events("mesa")] == [{"n": n} for n in (1, 2, 3)]
            row = await store.table("mesa")
            assert row is not None and row.status == "playing"
        finally:
            await store.close()

    services._run(read_after_the_upgrade())
