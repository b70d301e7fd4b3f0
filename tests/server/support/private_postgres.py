"""A PostgreSQL server of a test's own, for tests that stop it mid-game: `initdb` into a
temporary folder and `pg_ctl` on a free port, run as the `postgres` user when the test runs as
root (PostgreSQL refuses to run as root). Never the machine's server on 5432.

    with PrivatePostgres() as database:
        url = database.url          # postgresql://postgres@127.0.0.1:PORT/postgres
        database.stop()             # fast shutdown: every connection is cut
        database.start()
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests import services
from tests.server.support.harness import free_port

SECONDS = 30  # to start or stop the server


def _binaries() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    if on_path is None:
        services.unavailable("PostgreSQL's server programs are not installed (apt-get install postgresql)")
    return Path(on_path).parent


class PrivatePostgres:
    def __init__(self) -> None:
        self.bin = _binaries()
        self.port = free_port()
        # Not under pytest's tmp_path: the postgres user must reach it, and /root is closed to it.
        self.folder = Path(tempfile.mkdtemp(prefix="tranque-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *command: str) -> None:
        as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        done = subprocess.run([*as_postgres, *command], capture_output=True, text=True, timeout=SECONDS + 30)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {done.stdout}{done.stderr}")

    def __enter__(self) -> PrivatePostgres:
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        initdb = str(self.bin / "initdb")
        self._run(initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        self.start()
        return self

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        pg_ctl = str(self.bin / "pg_ctl")
        self._run(pg_ctl, "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")

    def stop(self) -> None:
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(RuntimeError):  # already stopped
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
