"""`tranque backup` / `tranque restore` on SQLite (a live server's database, copied while a game
is played, put back and served again), their refusals, and the PostgreSQL procedure of
docs/deploy.md «Backups» (pg_dump -Fc, pg_restore into another database)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import sqlite3
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from tests import services
from tests.cli_helpers import flat, one_line_error
from tests.server.support.harness import LiveServer, Player
from tests.server.support.scripted import ScriptedClient, game_settings, stored_events
from tranque.cli import main
from tranque.server.store import StoredEvent
from tranque.server.store.sql import SqlStore, upgrade_to_head


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def copied_events(path: Path, table_id: str) -> list[tuple[int, str, Any]]:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as copy:
        rows = copy.execute(
            "SELECT seq, kind, data FROM table_events WHERE table_id = ? ORDER BY seq", (table_id,)
        ).fetchall()
    return [(seq, kind, json.loads(data)) for seq, kind, data in rows]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_live_servers_database_is_copied_mid_game_and_the_copy_serves_the_table_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = tmp_path / "live" / "tranque.db"
    live.parent.mkdir()
    copy = tmp_path / "copia.db"
    with LiveServer(game_settings(sqlite_url(live))) as server:
        seated = server.post("/api/practice", {"preset": "clasico", "players": 2, "bot_level": "random"})
        table = seated["table"]

        async def play_and_copy() -> int:
            async with ScriptedClient(server, table, seated["token"], rng=random.Random(5)) as guest:
                game = asyncio.create_task(guest.play())
                while len(await asyncio.to_thread(stored_events, server, table)) < 6:
                    await asyncio.sleep(0.01)
                code = await asyncio.to_thread(main, ["backup", str(copy), "--db", sqlite_url(live)])
                await game
                return code

        started = len(stored_events(server, table))
        assert asyncio.run(play_and_copy()) == 0
        played = [(e.seq, e.kind, e.data) for e in stored_events(server, table)]
    said = flat(capsys.readouterr().out)
    assert said.startswith(f"Copia guardada en {copy} (")
    assert "solo su dueño puede leerla): integridad ok, revisión " in said
    assert mode(copy) == 0o600
    assert not Path(f"{copy}-wal").exists()  # one file
    kept = copied_events(copy, table)
    assert len(kept) >= max(started, 6)
    assert kept == played[: len(kept)]  # a consistent moment of the log, every event whole
    assert played[-1][1] == "game_ended"

    restored = tmp_path / "restored" / "tranque.db"
    restored.parent.mkdir()
    assert main(["restore", str(copy), "--db", sqlite_url(restored)]) == 0
    assert flat(capsys.readouterr().out).startswith(f"Base de datos {restored} repuesta desde {copy}")
    assert mode(restored) == 0o600
    with LiveServer(game_settings(sqlite_url(restored))) as again:
        # Every copied event is there; a table recovered in play goes on from them (its guest away).
        assert [(e.seq, e.kind, e.data) for e in stored_events(again, table)][: len(kept)] == kept
        if kept[-1][1] != "game_ended":  # copied mid-game: the table is back in play
            assert table in again.state.registry.tables

            async def rejoin() -> dict[str, Any]:
                async with Player(again) as guest:
                    return await guest.request({"type": "hello", "table": table, "token": seated["token"]})

            assert asyncio.run(rejoin())["type"] == "ack"


def test_restore_refuses_a_database_in_use_then_replaces_it_with_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    live = tmp_path / "tranque.db"
    copy = tmp_path / "copia.db"
    asyncio.run(upgrade_to_head(sqlite_url(live)))
    assert main(["backup", str(copy), "--db", sqlite_url(live)]) == 0
    capsys.readouterr()
    with LiveServer(game_settings(sqlite_url(live))) as server:
        server.post("/api/practice", {"preset": "clasico", "players": 2, "bot_level": "random"})
        assert main(["restore", str(copy), "--db", sqlite_url(live)]) == 2
        assert "--force" in one_line_error(capsys.readouterr())  # without it: refused
        assert main(["restore", str(copy), "--db", sqlite_url(live), "--force"]) == 2
        assert "está en uso" in one_line_error(capsys.readouterr())
        tables_then = len(server.state.registry.tables)
    assert tables_then == 1
    assert main(["restore", str(copy), "--db", sqlite_url(live), "--force"]) == 0
    capsys.readouterr()
    assert mode(live) == 0o600
    with sqlite3.connect(live) as database:  # the copy's (empty) tables, not the server's game
        assert database.execute("SELECT count(*) FROM tables").fetchone() == (0,)


def test_the_refusals_leave_everything_as_it_was(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database = tmp_path / "tranque.db"
    asyncio.run(upgrade_to_head(sqlite_url(database)))
    copy = tmp_path / "copia.db"
    assert main(["backup", str(copy), "--db", sqlite_url(database)]) == 0
    capsys.readouterr()
    before = copy.read_bytes()

    assert main(["backup", str(copy), "--db", sqlite_url(database)]) == 2  # no copy is replaced
    assert "Ya existe" in one_line_error(capsys.readouterr())
    assert copy.read_bytes() == before
    assert main(["backup", str(tmp_path / "x.db"), "--db", sqlite_url(tmp_path / "none.db")]) == 2
    assert "No hay base de datos" in one_line_error(capsys.readouterr())
    assert not (tmp_path / "none.db").exists() and not (tmp_path / "x.db").exists()
    assert main(["backup", str(tmp_path / "falta" / "x.db"), "--db", sqlite_url(database)]) == 2
    assert "No existe la carpeta" in one_line_error(capsys.readouterr())
    assert main(["backup", str(copy), "--db", "memory://"]) == 2
    one_line_error(capsys.readouterr())

    assert main(["restore", str(copy), "--db", sqlite_url(database)]) == 2  # there, no --force
    assert "--force" in one_line_error(capsys.readouterr())
    not_tranque = tmp_path / "otra.db"
    with sqlite3.connect(not_tranque) as other:
        other.execute("CREATE TABLE cosas (x)")
    junk = tmp_path / "basura.db"
    junk.write_bytes(b"esto no es SQLite" * 100)
    target = tmp_path / "nueva.db"
    for wrong in (not_tranque, junk, tmp_path / "falta.db"):
        assert main(["--lang", "en", "restore", str(wrong), "--db", sqlite_url(target)]) == 2
        line = one_line_error(capsys.readouterr())
        assert "is not a Tranque database" in line or "There is no database" in line
        assert not target.exists()


def test_postgresql_gets_the_commands_to_run_without_its_password(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql://tranque:s3cret-pw@db.internal:5433/tranque"
    assert main(["backup", "site.dump", "--db", url]) == 2
    said = capsys.readouterr().err
    assert "s3cret-pw" not in said
    assert "pg_dump -Fc -f site.dump postgresql://tranque@db.internal:5433/tranque" in said
    assert main(["--lang", "en", "restore", "site.dump", "--db", url]) == 2
    said = capsys.readouterr().err
    assert "s3cret-pw" not in said
    restore = (
        "pg_restore --clean --if-exists --no-owner -d postgresql://tranque@db.internal:5433/tranque site.dump"
    )
    assert restore in said and "$PGPASSWORD" in said


def test_the_postgresql_procedure_dumps_and_restores_every_row(tmp_path: Path) -> None:
    """docs/deploy.md «Backups»: pg_dump -Fc, then pg_restore --clean --if-exists into another
    database; the store reads the same rows there."""
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        services.unavailable("pg_dump and pg_restore are not installed (apt-get install postgresql-client)")
    source, target = services.fresh_postgres_url(), services.fresh_postgres_url()

    async def write() -> None:
        store = SqlStore(source)
        await store.start()
        try:
            await store.create_user("Guardada", "hash", 1.0)
            await store.create_table("mesa", {"preset": "clasico"}, 1.0)
            await store.append_events("mesa", [StoredEvent(n, "chat", {"n": n}, 1.0) for n in (1, 2, 3)])
        finally:
            await store.close()

    async def read(url: str) -> tuple[str | None, list[tuple[int, Any]], tuple[str, ...]]:
        store = SqlStore(url, migrate=False)  # refuses a database not at head: the version table came too
        await store.start()
        try:
            user = await store.find_user("guardada")
            events = [(e.seq, e.data) for e in await store.load_events("mesa")]
            async with store.engine.connect() as connection:
                version = (await connection.execute(sa.text("SELECT version_num FROM alembic_version"))).all()
            return (user.name if user else None), events, tuple(row[0] for row in version)
        finally:
            await store.close()

    services._run(write())
    dump = tmp_path / "tranque.dump"

    def libpq(url: str) -> str:
        return sa.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)

    environment = {**os.environ, "PGCONNECT_TIMEOUT": "5"}
    subprocess.run(["pg_dump", "-Fc", "-f", str(dump), libpq(source)], check=True, env=environment)
    listing = subprocess.run(["pg_restore", "-l", str(dump)], check=True, capture_output=True, text=True)
    assert "TABLE DATA public table_events" in listing.stdout
    subprocess.run(
        ["pg_restore", "--clean", "--if-exists", "--no-owner", "-d", libpq(target), str(dump)],
        check=True,
        env=environment,
    )
    assert services._run(read(target)) == services._run(read(source))
    assert services._run(read(target))[0] == "Guardada"
