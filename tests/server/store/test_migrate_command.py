"""`tranque migrate [--check]`, and `tranque serve` / the store with migrating at start off."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.script import ScriptDirectory

from tests import services
from tests.cli_helpers import flat, forbid, one_line_error
from tests.server.support.harness import free_port
from tests.server.support.migration_helpers import execute, own_database_url
from tranque.cli import main
from tranque.server.app import environment_of
from tranque.server.config import from_environment
from tranque.server.settings import Settings
from tranque.server.store.sql import SqlStore, alembic_config
from tranque.server.store.sql.revisions import SchemaNotAtHead, database_schema_state

SCRIPT = ScriptDirectory.from_config(alembic_config())
HEAD = SCRIPT.get_current_head() or ""
PREVIOUS = str(SCRIPT.get_revision(HEAD).down_revision)


def with_password(url: str) -> str:
    """The URL with a password in it (PostgreSQL here trusts local connections and ignores it)."""
    parsed = sa.make_url(url)
    if parsed.get_backend_name() != "postgresql":
        return url
    return parsed.set(password="s3cret-pw").render_as_string(hide_password=False)


def revision_of(url: str) -> tuple[str, ...]:
    return services._run(database_schema_state(url)).current


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_check_and_migrate_on_every_state(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = with_password(own_database_url(backend, request, tmp_path))
    shown = sa.make_url(url).render_as_string(hide_password=True)

    # Empty: a SQLite file that does not exist is not created; a new PostgreSQL database is empty.
    assert main(["migrate", "--check", "--db", url]) == 1
    said = flat(capsys.readouterr().err)
    if backend == "sqlite":
        assert not (tmp_path / "tranque.db").exists()
        assert f"No hay base de datos en {tmp_path / 'tranque.db'}; esta versión va en {HEAD}." in said
    else:
        assert f"La base de datos {shown} está vacía (no tiene el esquema de Tranque)" in said
    assert "Corre: tranque migrate" in said

    # Behind: its pending revisions listed, nothing changed.
    command.upgrade(alembic_config(url), PREVIOUS)
    assert main(["migrate", "--check", "--db", url]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert flat(captured.err) == (
        f"La base de datos {shown} está atrasada: revisión {PREVIOUS}, esta versión va en {HEAD}; "
        f"faltan {HEAD}. Corre: tranque migrate"
    )
    assert revision_of(url) == (PREVIOUS,)

    # Migrated, then at head; migrating again changes nothing.
    assert main(["migrate", "--db", url]) == 0
    assert flat(capsys.readouterr().out) == f"Base de datos {shown} migrada de {PREVIOUS} a {HEAD} ({HEAD})."
    assert main(["--lang", "en", "migrate", "--check", "--db", url]) == 0
    assert flat(capsys.readouterr().out) == f"The database {shown} is up to date: revision {HEAD}."
    assert main(["migrate", "--db", url]) == 0
    assert "ya estaba al día" in capsys.readouterr().out

    # Ahead: a newer release migrated it; neither --check nor migrate accepts it or changes it.
    services._run(execute(url, sa.text("UPDATE alembic_version SET version_num = '9999'")))
    assert main(["migrate", "--check", "--db", url]) == 1
    said = flat(capsys.readouterr().err)
    assert said.startswith(f"La base de datos {shown} está en la revisión 9999, que esta versión no conoce")
    assert main(["--lang", "en", "migrate", "--db", url]) == 1
    assert "a newer release of Tranque migrated it" in flat(capsys.readouterr().err)
    assert revision_of(url) == ("9999",)


def test_a_database_never_shows_its_password(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql://tranque:s3cret-pw@127.0.0.1:1/tranque"  # nothing listens on port 1
    assert main(["migrate", "--check", "--db", url]) == 2
    line = one_line_error(capsys.readouterr())
    assert "s3cret-pw" not in line and "tranque:***@127.0.0.1:1" in line


def test_migrate_refuses_the_in_memory_database(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["migrate", "--db", "memory://"]) == 2
    assert "en memoria" in one_line_error(capsys.readouterr())


def test_the_default_database_is_the_environments_then_tranque_db(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRANQUE_DATABASE_URL", raising=False)
    assert main(["migrate"]) == 0
    assert (tmp_path / "tranque.db").exists()
    other = tmp_path / "otra.db"
    monkeypatch.setenv("TRANQUE_DATABASE_URL", f"sqlite+aiosqlite:///{other}")
    assert main(["migrate", "--check"]) == 1
    assert not other.exists()
    capsys.readouterr()


@pytest.mark.parametrize("how", ["--no-migrate", "TRANQUE_MIGRATE_AT_START=0"])
def test_serve_without_migrating_refuses_a_database_behind(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'tranque.db'}"
    command.upgrade(alembic_config(url), PREVIOUS)
    forbid(monkeypatch, "the site", "uvicorn.run")
    flags = ["--no-migrate"] if how == "--no-migrate" else []
    if not flags:
        monkeypatch.setenv("TRANQUE_MIGRATE_AT_START", "0")
    assert main(["serve", "--db", url, *flags]) == 2
    line = one_line_error(capsys.readouterr())
    assert f"está en la revisión {PREVIOUS} y esta versión en {HEAD}" in line
    assert "corre primero tranque migrate" in line
    assert revision_of(url) == (PREVIOUS,)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_store_that_does_not_migrate_refuses_behind_and_accepts_head_and_ahead(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    url = own_database_url(backend, request, tmp_path)
    command.upgrade(alembic_config(url), PREVIOUS)

    async def start(migrate: bool) -> None:
        store = SqlStore(url, migrate=migrate)
        try:
            await store.start()
            await store.create_user(f"Cuenta{len(revision_of(url)[0])}{migrate}", "h", 1.0)
        finally:
            await store.close()

    with pytest.raises(SchemaNotAtHead, match="run `tranque migrate` first"):
        services._run(start(migrate=False))
    assert revision_of(url) == (PREVIOUS,)
    command.upgrade(alembic_config(url), "head")
    services._run(start(migrate=False))
    # A process of an older release, restarted during a rolling upgrade, uses a newer schema as it is.
    services._run(execute(url, sa.text("UPDATE alembic_version SET version_num = '9999'")))
    services._run(start(migrate=True))
    assert revision_of(url) == ("9999",)


def test_worker_processes_get_the_setting() -> None:
    assert Settings().migrate_at_start is True
    assert from_environment(environment_of(Settings(migrate_at_start=False))).migrate_at_start is False
    assert from_environment(environment_of(Settings())).migrate_at_start is True
    assert from_environment({"TRANQUE_MIGRATE_AT_START": "0"}).migrate_at_start is False


def test_serve_names_its_database_without_the_password(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("uvicorn.run", lambda *args, **kwargs: None)  # as if stopped at once
    url = with_password(postgres_url)
    assert main(["serve", "--db", url, "--port", str(free_port())]) == 0  # nothing listens
    said = capsys.readouterr().out
    assert "s3cret-pw" not in said and ":***@" in said
