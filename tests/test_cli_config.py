"""`tranque serve --config FILE`, its environment and options (docs/configuration.md): the
precedence, every bad key one line and exit code 2 before anything starts, `--print-config`,
and the settings of a file reaching every worker of `--workers 2`."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import httpx
import pytest

from tests.cli_helpers import flat, forbid, one_line_error
from tests.server.support.harness import free_port
from tranque.cli import main

SERVE = "import sys; from tranque.cli import main; sys.exit(main())"


@pytest.fixture(autouse=True)
def clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No TRANQUE_ variable of the test run's, in a directory of its own, where nothing starts."""
    for name in list(os.environ):
        if name.startswith("TRANQUE_"):
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    forbid(monkeypatch, "the site", "uvicorn.run", "tranque.terminal.serve.check_database")
    return tmp_path


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tranque.toml"
    path.write_text(text, encoding="utf-8")
    return path


def printed(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["serve", *args, "--print-config"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return tomllib.loads(captured.out)


def picked(config: dict[str, object]) -> tuple[object, ...]:
    return config["hints_per_game"], config["analysis_workers"], config["default_bot_level"]


def test_the_file_then_the_environment_then_the_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    file = write(
        tmp_path,
        'hints_per_game = 5\nanalysis_workers = 4\ndefault_bot_level = "expert"\n'
        '[limits]\nbody_bytes = 1000\n[cluster]\nprefix = "sitio"\n',
    )
    config = printed(capsys, "--config", str(file))
    assert picked(config) == (5, 4, "expert")
    assert config["limits"]["body_bytes"] == 1000  # type: ignore[index]
    assert config["reports_per_day"] == 10  # every key, defaults too

    monkeypatch.setenv("TRANQUE_HINTS_PER_GAME", "7")
    monkeypatch.setenv("TRANQUE_ANALYSIS_WORKERS", "2")
    monkeypatch.setenv("TRANQUE_BOT_LEVEL", "greedy")
    monkeypatch.setenv("TRANQUE_CLUSTER__PREFIX", "otro")
    config = printed(capsys, "--config", str(file))
    assert picked(config) == (7, 2, "greedy")
    assert config["cluster"]["prefix"] == "otro"  # type: ignore[index]

    config = printed(capsys, "--config", str(file), "--analysis-workers", "0", "--bot-level", "random")
    assert picked(config) == (7, 0, "random")

    monkeypatch.setenv("TRANQUE_CONFIG", str(file))  # the file by its variable
    monkeypatch.delenv("TRANQUE_HINTS_PER_GAME")
    assert printed(capsys)["hints_per_game"] == 5


def test_print_config_hides_passwords(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    file = write(tmp_path, 'database_url = "postgresql://tranque:hunter2@db.internal/tranque"\n')
    monkeypatch.setenv("TRANQUE_REDIS_URL", "redis://app:hunter3@cache:6379/0")
    assert main(["serve", "--config", str(file), "--print-config"]) == 0
    out = capsys.readouterr().out
    assert 'database_url = "postgresql://tranque:***@db.internal/tranque"' in out
    assert 'redis_url = "redis://app:***@cache:6379/0"' in out
    assert "hunter" not in out


@pytest.mark.parametrize(
    ("text", "environ", "spanish", "english"),
    [
        (
            '[limits]\nbody_bytes = "muchos"\n',
            {},
            'tranque.toml: limits.body_bytes: se esperaba un número entero, no "muchos"',
            'tranque.toml: limits.body_bytes: expected a whole number, not "muchos"',
        ),
        (
            "[socket_limits]\nburst = -5\n",
            {},
            "tranque.toml: socket_limits.burst: debe ser al menos 0, no -5",
            "tranque.toml: socket_limits.burst: must be at least 0, not -5",
        ),
        (
            "[limits]\nlive_games_per_adress = 20\n",
            {},
            "tranque.toml: limits.live_games_per_adress: no es un ajuste de Tranque; ¿quisiste decir "
            "live_games_per_address?",
            "tranque.toml: limits.live_games_per_adress: not a Tranque setting; did you mean "
            "live_games_per_address?",
        ),
        (
            'clock = "real"\n',
            {},
            "tranque.toml: clock: este ajuste no se configura desde un archivo ni desde el entorno",
            "tranque.toml: clock: this setting cannot be set from a file or the environment",
        ),
        (
            "",
            {"TRANQUE_SOCKET_LIMITS__BURST": "muchos"},
            'TRANQUE_SOCKET_LIMITS__BURST: se esperaba un número entero, no "muchos"',
            'TRANQUE_SOCKET_LIMITS__BURST: expected a whole number, not "muchos"',
        ),
        (
            "",
            {"TRANQUE_REDIS_ULR": "redis://app:hunter2@cache"},
            "TRANQUE_REDIS_ULR: no es un ajuste de Tranque; ¿quisiste decir TRANQUE_REDIS_URL?",
            "TRANQUE_REDIS_ULR: not a Tranque setting; did you mean TRANQUE_REDIS_URL?",
        ),
        (
            "",
            {"TRANQUE_SECURE_COOKIES": "quizás"},
            'TRANQUE_SECURE_COOKIES: se esperaba true o false, no "quizás"',
            'TRANQUE_SECURE_COOKIES: expected true or false, not "quizás"',
        ),
    ],
    ids=["type", "range", "unknown", "not configurable", "env type", "env unknown", "env bool"],
)
@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_bad_key_is_one_line_naming_it_and_nothing_starts(
    text: str,
    environ: dict[str, str],
    spanish: str,
    english: str,
    lang: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    file = write(tmp_path, text)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert main(["--lang", lang, "serve", "--config", str(file)]) == 2
    line = one_line_error(capsys.readouterr())
    assert line == "tranque: error: " + (spanish if lang == "es" else english)
    assert "hunter2" not in line
    assert sorted(path.name for path in tmp_path.iterdir()) == ["tranque.toml"]  # no database made


def test_a_file_that_is_not_toml_is_named_with_the_place_of_the_mistake(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = write(tmp_path, "[limits\nbody_bytes = 3\n")
    assert main(["--lang", "en", "serve", "--config", str(file)]) == 2
    line = one_line_error(capsys.readouterr())
    assert line.startswith(f"tranque: error: {file}: not valid TOML: ") and "line 1" in line
    assert main(["--lang", "en", "serve", "--config", str(tmp_path / "missing.toml")]) == 2
    assert "cannot read the settings file" in one_line_error(capsys.readouterr())


def test_every_bad_key_at_once_one_line_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = write(tmp_path, "hints_per_game = -1\nbot_processes = 0\nredis = 3\n")
    assert main(["--lang", "en", "serve", "--config", str(file)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        "tranque: error: tranque.toml: hints_per_game: must be at least 0, not -1",
        "tranque.toml: bot_processes: must be at least 1, not 0",
        "tranque.toml: redis: not a Tranque setting; did you mean redis_url?",
    ]


def test_the_example_of_the_documentation_is_a_valid_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = (Path(__file__).resolve().parents[1] / "docs" / "configuration.md").read_text(encoding="utf-8")
    example = document.split("```toml\n", 1)[1].split("```", 1)[0]
    config = printed(capsys, "--config", str(write(tmp_path, example)))
    assert config["default_bot_level"] == "expert" and config["limits"]["live_games_per_address"] == 20  # type: ignore[index]
    assert "SECRET" not in str(config)


def test_a_setting_of_the_file_reaches_every_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The file gives the database, Redis and the cluster's prefix; each of the two worker
    processes holds its process lease under that prefix in Redis."""
    import redis

    from tests import services

    database = services.fresh_postgres_url().replace("postgresql+asyncpg://", "postgresql://")
    redis_url = services.redis_url()
    prefix = services.unique_name("tranque_config")
    file = write(
        tmp_path,
        f'database_url = "{database}"\nredis_url = "{redis_url}"\n[cluster]\nprefix = "{prefix}"\n',
    )
    monkeypatch.undo()  # the real uvicorn and database checks, in a subprocess of its own
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRANQUE_")}
    process = subprocess.Popen(
        [sys.executable, "-c", SERVE, "serve", "--config", str(file), "--port", str(port), "--workers", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=tmp_path,
        start_new_session=True,
    )
    client = redis.Redis.from_url(redis_url)
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
        for node in nodes:
            assert client.exists(f"{prefix}:node:{node}"), f"{node} does not use the file's prefix"
        assert not any(client.exists(f"tranque:node:{node}") for node in nodes)
    finally:
        client.close()
        os.killpg(process.pid, signal.SIGINT)
        process.wait(timeout=60)
        assert process.stdout is not None
        out = process.stdout.read()
        process.stdout.close()
    assert "Procesos: 2, coordinados por Redis" in flat(out)
    assert database.split("@")[-1] in flat(out)


def test_admin_uses_the_database_serve_would(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import argparse

    from tranque.terminal.serve import database_url

    url = f"sqlite+aiosqlite:///{tmp_path}/sitio.db"
    monkeypatch.setenv("TRANQUE_CONFIG", str(write(tmp_path, f'database_url = "{url}"\n')))
    assert database_url(argparse.Namespace(db=None)) == url
    assert database_url(argparse.Namespace(db="postgresql://db/x")) == "postgresql://db/x"
    monkeypatch.setenv("TRANQUE_DATABASE_URL", "postgresql://db/y")
    assert database_url(argparse.Namespace(db=None)) == "postgresql://db/y"


def test_where_it_listens_comes_from_the_file_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    file = write(tmp_path, 'host = "0.0.0.0"\nport = 8123\nworkers = 1\nforwarded_allow_ips = "10.0.0.5"\n')
    config = printed(capsys, "--config", str(file))
    assert (config["host"], config["port"], config["forwarded_allow_ips"]) == ("0.0.0.0", 8123, "10.0.0.5")
    monkeypatch.setenv("TRANQUE_PORT", "8124")
    assert printed(capsys, "--config", str(file))["port"] == 8124
    assert printed(capsys, "--config", str(file), "--port", "8125")["port"] == 8125
    # several processes from the file: still Redis and PostgreSQL, before anything starts
    file = write(tmp_path, "workers = 2\n")
    assert main(["--lang", "en", "serve", "--config", str(file)]) == 2
    assert "With --workers 2 the processes coordinate through Redis" in one_line_error(capsys.readouterr())
    monkeypatch.setenv("TRANQUE_WORKERS", "65")
    assert main(["--lang", "en", "serve", "--config", str(file)]) == 2
    assert one_line_error(capsys.readouterr()) == (
        'tranque: error: TRANQUE_WORKERS: must be between 1 and 64, not "65"'
    )


def test_other_programs_variables_are_left_alone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TRANQUE_SITE", "https://tranque.example")  # tranque admin's
    monkeypatch.setenv("TRANQUE_ADMIN_TOKEN", "abc")
    monkeypatch.setenv("TRANQUE_SOMETHING_ELSE_ENTIRELY", "x")  # like no key: another program's
    monkeypatch.setenv("TRANQUE_REDIS_PREFIX", "sitio2")  # an alias of cluster.prefix
    assert printed(capsys)["cluster"]["prefix"] == "sitio2"  # type: ignore[index]
    monkeypatch.setenv("TRANQUE_LIMITS__BODY_BYTE", "3")  # a section's key, misspelt: refused
    assert main(["--lang", "en", "serve", "--print-config"]) == 2
    assert one_line_error(capsys.readouterr()) == (
        "tranque: error: TRANQUE_LIMITS__BODY_BYTE: not a Tranque setting; did you mean "
        "TRANQUE_LIMITS__BODY_BYTES?"
    )
