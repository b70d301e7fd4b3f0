"""`tranque analyze RECORD.json`: every decision of a recorded game with its alternatives, the
loss and the class, each player's accuracy, in Spanish or English, as JSON, for one seat; a
bad file or seat is one line and exit code 2. A small budget keeps it quick."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import flat, one_line_error
from tests.test_cli import bad_records
from tranque import Game, Rules
from tranque.bots import make_bot
from tranque.bots.arena import play_out
from tranque.cli import main
from tranque.engine.record import save

BUDGET = ["--budget", "24"]


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short recorded game: clasico 1 contra 1 to 30, greedy against random, seed 5."""
    rules = Rules.preset("clasico", players=2, target=30)
    game = play_out(Game(rules, seed=5), [make_bot("greedy", seed=1), make_bot("random", seed=2)])
    path = tmp_path_factory.mktemp("analyze") / "partida.json"
    save(game, path)
    return path


def analyze_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["analyze", *args, *BUDGET, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def test_every_decision_and_each_players_accuracy_in_spanish(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyze", str(record), *BUDGET]) == 0
    captured = capsys.readouterr()
    out = flat(captured.out)
    assert "Traceback" not in captured.err
    assert out.startswith("Análisis · Clásico · 2 jugadores, individual · a 30")
    assert "24 repartos de las fichas que no veía, semilla 0" in out
    assert "Mano 1" in out and "Jugador 0: " in out and "Jugador 1: " in out
    assert "(mejor" in out and "jugada)" in out
    assert "precisa" in out
    for heading in (
        "Precisión por jugador",
        "Precisas",
        "Imprecisiones",
        "Errores",
        "Forzadas",
        "Pérdida media",
    ):
        assert heading in out
    for english in ("Analysis", "Accuracy", "Round ", "best", "played"):
        assert english not in out


def test_in_english(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "analyze", str(record), *BUDGET]) == 0
    captured = capsys.readouterr()
    out = flat(captured.out)
    assert out.startswith("Analysis · Clásico · 2 players, individual · to 30")
    assert "Round 1" in out and "Player 0: " in out and "(best" in out
    assert "Accuracy by player" in out and "Inaccuracies" in out and "Mean loss" in out
    for spanish in ("Análisis", "Mano ", "Jugador", "mejor", "precisa", "Analizando"):
        assert spanish not in out + captured.err


def test_as_json_the_same_every_time(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = analyze_json(capsys, str(record))
    assert analyze_json(capsys, str(record)) == data
    assert data["deals"] == 24 and data["seed"] == 0
    decisions = data["decisions"]
    forced = [d for d in decisions if d["verdict"] == "forced"]
    judged = [d for d in decisions if d["verdict"] != "forced"]
    assert forced and judged
    for decision in judged:
        alternatives = decision["alternatives"]
        assert len(alternatives) >= 2
        assert alternatives[0]["action"] == decision["best"]
        assert decision["played"] in [a["action"] for a in alternatives]
        assert decision["verdict"] in ("accurate", "inaccuracy", "error")
        assert decision["loss"] >= 0
    assert all(d["alternatives"] == [] for d in forced)
    assert [p["seat"] for p in data["players"]] == [0, 1]
    assert sum(p["decisions"] for p in data["players"]) == len(judged)
    other_seed = analyze_json(capsys, str(record), "--seed", "1")
    assert other_seed["seed"] == 1


def test_one_seat(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = analyze_json(capsys, str(record), "--seat", "1")
    assert {d["seat"] for d in data["decisions"]} == {1}
    assert [p["seat"] for p in data["players"]] == [1]
    assert main(["analyze", str(record), "--seat", "1", *BUDGET]) == 0
    out = capsys.readouterr().out
    assert "Jugador 1: " in out and "Jugador 0: " not in out


@pytest.mark.parametrize("case", ["missing", "not json", "not a record", "tampered", "directory"])
def test_a_bad_file_is_one_line_and_exit_2(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, expected = bad_records(tmp_path)[case]
    assert main(["analyze", str(path), *BUDGET]) == 2
    assert expected in one_line_error(capsys.readouterr())


def test_a_bad_file_in_english(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "other.json"
    path.write_text('{"hello": 1}', encoding="utf-8")
    assert main(["--lang", "en", "analyze", str(path)]) == 2
    assert "is not a Tranque game record" in one_line_error(capsys.readouterr())


@pytest.mark.parametrize(
    ("args", "spanish", "english"),
    [
        (
            ["--seat", "2"],
            "opción --seat no válida: el asiento va de 0 a 1, no 2",
            "invalid --seat: seats go",
        ),
        (["--budget", "0"], "--budget: debe ser al menos 1, no 0", "--budget: must be at least 1, not 0"),
        (["--seat", "uno"], "--seat: «uno» no es un número entero", "--seat: 'uno' is not a whole number"),
    ],
)
def test_a_bad_option_is_one_line_and_exit_2(
    record: Path, args: list[str], spanish: str, english: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyze", str(record), *args]) == 2
    assert spanish in one_line_error(capsys.readouterr())
    assert main(["--lang", "en", "analyze", str(record), *args]) == 2
    assert english in one_line_error(capsys.readouterr())


def test_a_game_without_decisions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(Rules.preset("clasico", players=2), seed=1)
    game.apply(game.round.legal_actions()[0])  # the forced lead of the highest double
    save(game, tmp_path / "fresh.json")
    assert main(["analyze", str(tmp_path / "fresh.json")]) == 0
    out = flat(capsys.readouterr().out)
    assert "No hay decisiones que juzgar: todas las jugadas fueron forzadas." in out
    assert "Precisión por jugador" in out


def test_help_shows_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", "--help"]) == 0
    out = flat(capsys.readouterr().out)
    for text in ("RECORD.json", "--seat K", "--budget N", "(por defecto: 2000)", "--json"):
        assert text in out
    assert main(["--help"]) == 0
    assert "analiza una partida guardada" in flat(capsys.readouterr().out)
