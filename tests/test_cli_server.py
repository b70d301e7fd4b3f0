"""`tranque verify` on a record from a real server game, and `tranque serve` starting the site."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.cli_helpers import flat, forbid, one_line_error
from tests.server.support.harness import LiveServer, Player, fast_settings, free_port
from tranque import Rules
from tranque.cli import main


def finished_practice_record() -> dict[str, Any]:
    """A practice game to 1 point, its guest timing out until a bot covers the seat (R15, R16)."""
    with LiveServer(fast_settings()) as server:
        # A target of 1 is no table's (POST /api/practice refuses it): the registry seats it directly.
        table, token = server.on_server(
            lambda: server.state.registry.practice(Rules.preset("clasico", target=1), "Invitado", "greedy")
        )
        seated = {"table": table.table_id, "token": token}

        async def play_out() -> None:
            async with Player(server) as guest:
                await guest.request({"type": "hello", "table": seated["table"], "token": seated["token"]})
                for _ in range(60):
                    server.advance(60)
                    try:
                        await guest.expect(
                            lambda m: m.get("type") == "event" and m["kind"] == "game_ended", timeout=2
                        )
                        return
                    except TimeoutError:
                        continue
                raise AssertionError("the practice game did not end")

        asyncio.run(play_out())
        answer = httpx.get(f"{server.http}/api/tables/{seated['table']}/record", timeout=20)
        assert answer.status_code == 200
        record: dict[str, Any] = answer.json()
        return record


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return finished_practice_record()


def write(path: Path, data: Any) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


class TestVerify:
    def test_every_round_of_a_server_game_is_verified(
        self, record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        rounds = len(record["rounds"])
        assert rounds >= 1 and all(r["seed"] for r in record["rounds"])
        assert main(["verify", write(tmp_path / "partida.json", record)]) == 0
        out = capsys.readouterr().out
        assert flat(out).startswith(
            "Partida del sitio: en cada mano, la semilla y la sal reveladas deben dar el compromiso "
            "publicado al repartir, y la semilla, el reparto."
        )
        assert [line for line in out.splitlines() if line.startswith("Mano ")] == [
            f"Mano {n}: verificado" for n in range(1, rounds + 1)
        ]
        assert "Jugadas: verificado" in out and "NO verificado" not in out
        assert flat(out).endswith("la partida se reproduce entera.")

    def test_a_tampered_seed_fails_its_round(
        self, record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        tampered = json.loads(json.dumps(record))
        seed = tampered["rounds"][0]["seed"]
        tampered["rounds"][0]["seed"] = ("1" if seed[0] != "1" else "2") + seed[1:]
        assert main(["verify", write(tmp_path / "trampa.json", tampered)]) == 1
        out = flat(capsys.readouterr().out)
        assert (
            "Mano 1: NO verificado: la semilla y la sal no dan el compromiso publicado al repartir; "
            "la semilla no da el reparto registrado"
        ) in out
        for n in range(2, len(record["rounds"]) + 1):
            assert f"Mano {n}: verificado" in out
        assert "Jugadas: NO verificado: mano 1: la semilla no da el reparto registrado" in out
        assert out.endswith("Hay cosas que no se pudieron verificar.")

    def test_a_tampered_deal_fails_even_with_the_right_seed(
        self, record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        tampered = json.loads(json.dumps(record))
        hands = tampered["rounds"][0]["hands"]
        hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
        assert main(["--lang", "en", "verify", write(tmp_path / "trampa.json", tampered)]) == 1
        out = capsys.readouterr().out
        assert "Round 1: NOT verified: the seed does not give the recorded deal" in out
        assert "Moves: NOT verified: round 1:" in flat(out)

    def test_a_changed_move_or_score_is_refused_although_the_deals_check_out(
        self, record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        forged = json.loads(json.dumps(record))
        forged["scores"] = forged["scores"][::-1] if len(set(forged["scores"])) > 1 else [999, 0]
        assert main(["verify", write(tmp_path / "trampa.json", forged)]) == 1
        out = flat(capsys.readouterr().out)
        assert "Mano 1: verificado" in out
        assert "Jugadas: NO verificado: el registro dice puntos" in out
        moved = json.loads(json.dumps(record))
        moved["rounds"][0]["actions"].pop()
        assert main(["verify", write(tmp_path / "trampa.json", moved)]) == 1
        assert "Jugadas: NO verificado: mano 1:" in flat(capsys.readouterr().out)

    def test_a_missing_salt_is_named(
        self, record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        tampered = json.loads(json.dumps(record))
        del tampered["rounds"][0]["salt"]
        assert main(["verify", write(tmp_path / "trampa.json", tampered)]) == 1
        assert "Mano 1: NO verificado: la mano no trae sal y compromiso" in capsys.readouterr().out

    def test_unreadable_files_exit_2(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        missing = str(tmp_path / "no-existe.json")
        assert main(["verify", missing]) == 2
        assert capsys.readouterr().err.strip() == f"tranque: error: no existe el archivo {missing}"
        for name, text in [("roto.json", "{no es json"), ("lista.json", "[1, 2]"), ("otro.json", '{"a": 1}')]:
            path = tmp_path / name
            path.write_text(text, encoding="utf-8")
            assert main(["verify", str(path)]) == 2
            assert capsys.readouterr().err.strip() == (
                f"tranque: error: {path} no es un registro de partida de Tranque"
            )

    def test_a_record_of_the_wrong_shape_exits_2(
        self, record: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        broken = {**record, "rounds": ["no es una mano"]}
        assert main(["verify", write(tmp_path / "raro.json", broken)]) == 2
        assert "no es un registro de partida" in capsys.readouterr().err


SERVE = "import sys; from tranque.cli import main; sys.exit(main())"


def bad_databases(tmp_path: Path) -> dict[str, tuple[str, str, str]]:
    """--db values the site cannot open, and the line `serve` says for each, es and en."""
    missing = tmp_path / "no" / "such"
    return {
        "unknown scheme": (
            "nope://somewhere",
            "opción --db no válida: no se conoce «nope»; usa sqlite:///archivo.db",
            "invalid --db: 'nope' is not known; use sqlite:///file.db",
        ),
        "not a url": (
            "::::",
            "opción --db no válida: «::::» no es una URL",
            "invalid --db: '::::' is not a database URL",
        ),
        "unreachable postgres": (
            f"postgresql://nobody:secret@127.0.0.1:{free_port()}/nothing",
            "no se puede abrir la base de datos postgresql://nobody:***@127.0.0.1:",
            "cannot open the database postgresql://nobody:***@127.0.0.1:",
        ),
        "sqlite in a missing directory": (
            f"sqlite+aiosqlite:///{missing}/tranque.db",
            f"opción --db no válida: no existe la carpeta {missing}",
            f"invalid --db: there is no directory {missing}",
        ),
    }


class TestServe:
    def test_help_lists_the_options(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["serve", "--help"]) == 0
        out = capsys.readouterr().out
        for option in ("--host", "--port", "--db URL", "--bot-level"):
            assert option in out
        assert "TRANQUE_DATABASE_URL" in out

    def test_bad_options_exit_2_without_starting(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["serve", "--bot-level", "tramposo"]) == 2
        assert "--bot-level" in capsys.readouterr().err
        assert main(["serve", "--port", "70000"]) == 2
        assert capsys.readouterr().err.strip() == (
            "tranque: error: opción --port no válida: el puerto va de 1 a 65535, no 70000"
        )

    @pytest.mark.parametrize(
        "case", ["unknown scheme", "not a url", "unreachable postgres", "sqlite in a missing directory"]
    )
    @pytest.mark.parametrize("lang", ["es", "en"])
    def test_a_bad_database_is_one_line_before_the_site_is_announced(
        self,
        case: str,
        lang: str,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        forbid(monkeypatch, "the site", "uvicorn.run")
        monkeypatch.chdir(tmp_path)
        url, spanish, english = bad_databases(tmp_path)[case]
        assert main(["--lang", lang, "serve", "--db", url]) == 2
        line = one_line_error(capsys.readouterr())  # and nothing on stdout: not "Tranque está en marcha"
        assert (spanish if lang == "es" else english) in line and "secret" not in line
        assert list(tmp_path.iterdir()) == []

    @pytest.fixture
    def serving(self, tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int, Path]]:
        port = free_port()
        database = tmp_path / "sitio.db"
        env = {**os.environ, "TRANQUE_DATABASE_URL": f"sqlite+aiosqlite:///{database}"}
        process = subprocess.Popen(
            [sys.executable, "-c", SERVE, "serve", "--port", str(port), "--bot-level", "greedy"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            cwd=tmp_path,
        )
        try:
            yield process, port, database
        finally:
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=30)
            assert process.stdout is not None
            process.stdout.close()

    def test_serve_starts_the_site_on_the_database_of_the_environment(
        self, serving: tuple[subprocess.Popen[str], int, Path]
    ) -> None:
        process, port, database = serving
        deadline = time.monotonic() + 60
        while True:  # wait for the site to come up (not a timed assertion: only a bound)
            assert process.poll() is None, "tranque serve exited"
            try:
                home = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "tranque serve did not come up"
                time.sleep(0.1)
        assert home.status_code == 200
        bots = httpx.get(f"http://127.0.0.1:{port}/api/bots", timeout=5).json()
        assert "greedy" in [bot["name"] for bot in bots]
        assert database.exists()
        process.send_signal(signal.SIGINT)  # Ctrl+C: a graceful stop, exit code 0
        assert process.wait(timeout=30) == 0
        assert process.stdout is not None
        out = process.stdout.read()
        assert out.rstrip().endswith("Tranque se detuvo.")
        assert (
            f"Tranque está en marcha: abre http://127.0.0.1:{port} en el navegador. Ctrl+C para pararlo."
            in flat(out)
        )
        assert f"Base de datos: sqlite+aiosqlite:///{database}" in flat(out)


class TestServeSeveralProcesses:
    """`tranque serve --workers N --redis URL --db postgresql://…` (docs/deploy.md)."""

    @pytest.mark.parametrize(
        ("args", "spanish"),
        [
            (
                ["--workers", "2"],
                "Con --workers 2 los procesos se coordinan por Redis: indica --redis redis://…",
            ),
            (
                ["--redis", "redis://127.0.0.1:6379/0"],
                "Varios procesos comparten una base PostgreSQL: indica --db postgresql://… (SQLite es "
                "para un solo proceso)",
            ),
            (["--workers", "0"], "--workers debe estar entre 1 y 64, no 0."),
        ],
    )
    def test_an_impossible_combination_is_one_line_before_anything_starts(
        self,
        args: list[str],
        spanish: str,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        forbid(monkeypatch, "the site", "uvicorn.run")
        monkeypatch.chdir(tmp_path)
        monkeypatch.delenv("TRANQUE_REDIS_URL", raising=False)
        monkeypatch.delenv("TRANQUE_DATABASE_URL", raising=False)
        assert main(["serve", *args]) == 2
        assert spanish in one_line_error(capsys.readouterr())
        assert list(tmp_path.iterdir()) == []

    @pytest.mark.parametrize("lang", ["es", "en"])
    def test_a_redis_it_cannot_use_is_one_line_before_the_site_starts(
        self, lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Refused, or a wrong password: not a process that waits for Redis at start and then
        ignores SIGTERM."""
        from tests import services

        database = services.fresh_postgres_url()
        forbid(monkeypatch, "the site", "uvicorn.run")
        monkeypatch.chdir(tmp_path)
        port = free_port()
        refused = f"redis://:secret@127.0.0.1:{port}/0"
        assert main(["--lang", lang, "serve", "--db", database, "--redis", refused]) == 2
        line = one_line_error(capsys.readouterr())
        assert ("no se puede usar Redis en" if lang == "es" else "cannot use Redis at") in line
        assert "secret" not in line and ":***@" in line
        server = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(port),
                "--requirepass",
                "right",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
        )
        try:
            for _ in range(100):
                with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
                    break
                time.sleep(0.05)
            assert main(["--lang", lang, "serve", "--db", database, "--redis", refused]) == 2
            line = one_line_error(capsys.readouterr())
            assert "secret" not in line and ("password" in line or "WRONGPASS" in line)
        finally:
            server.kill()
            server.wait(10)

    def test_workers_share_one_port_and_one_cluster(self, tmp_path: Path) -> None:
        from tests import services

        database = services.fresh_postgres_url().replace("postgresql+asyncpg://", "postgresql://")
        redis = services.redis_url()
        port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("TRANQUE_")}
        command = ["serve", "--port", str(port), "--workers", "2", "--db", database, "--redis", redis]
        process = subprocess.Popen(
            [sys.executable, "-c", SERVE, *command],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            cwd=tmp_path,
            start_new_session=True,
        )
        try:
            nodes: set[str] = set()
            deadline = time.monotonic() + 90
            while len(nodes) < 2:  # each request lands on one of the two processes
                assert process.poll() is None, "tranque serve exited"
                assert time.monotonic() < deadline, f"only {nodes} answered"
                try:
                    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as http:
                        nodes.add(http.get("/api/cluster").json()["node"])
                except httpx.TransportError:
                    time.sleep(0.1)
            assert None not in nodes
            # A practice game made on one process: the other keeps a replica of it, and a
            # socket that lands on either takes the seat.
            seated = httpx.post(
                f"http://127.0.0.1:{port}/api/practice", json={"preset": "clasico"}, timeout=30
            )
            assert seated.status_code == 200, seated.text
            statuses: dict[str, dict[str, Any]] = {}
            while len(statuses) < 2 or sum(status["replicas"] for status in statuses.values()) < 1:
                assert time.monotonic() < deadline, statuses
                with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as http:
                    status = http.get("/api/cluster").json()
                statuses[status["node"]] = status
            assert sorted((s["owned"], s["replicas"]) for s in statuses.values()) == [(0, 1), (1, 0)]
            hello = {"type": "hello", "table": seated.json()["table"], "token": seated.json()["token"]}

            async def take_the_seat() -> list[dict[str, Any]]:
                import websockets

                answers = []
                for number in range(8):  # new connections: the two processes share them
                    async with websockets.connect(f"ws://127.0.0.1:{port}/ws") as socket:
                        await socket.send(json.dumps({**hello, "id": number}))
                        while (frame := json.loads(await socket.recv()))["type"] not in ("ack", "error"):
                            pass
                        answers.append(frame)
                return answers

            assert all(
                answer == {"type": "ack", "id": n, "seat": 0, "seq": answer["seq"]}
                for n, answer in enumerate(asyncio.run(take_the_seat()))
            )
        finally:
            os.killpg(process.pid, signal.SIGINT)
            process.wait(timeout=60)
            assert process.stdout is not None
            out = process.stdout.read()
            process.stdout.close()
        assert "Procesos: 2, coordinados por Redis" in flat(out)
