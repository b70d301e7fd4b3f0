"""The `tranque` command line: simulate, play, replay, their errors and both languages."""

from __future__ import annotations

import io
import itertools
import json
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tranque import Game, Play, Rules, Side, Tile
from tranque.cli import main
from tranque.engine.record import load, save, to_record
from tranque.terminal.command import Context
from tranque.terminal.play import Match, Quit


def script(monkeypatch: pytest.MonkeyPatch, lines: Iterable[str]) -> None:
    """Feed `lines` to input(); when they run out, input() hits the end of the stream."""
    feed = iter(lines)

    def fake_input(prompt: str = "") -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    monkeypatch.setattr("builtins.input", fake_input)


def always_one(first: Iterable[str] = ()) -> Iterable[str]:
    return itertools.chain(first, itertools.repeat("1"))


def simulate_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["simulate", "--json", *args]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


class TestSimulate:
    def test_figures_are_sane(self, capsys: pytest.CaptureFixture[str]) -> None:
        data = simulate_json(capsys, "--games", "30", "--seed", "7")
        assert data["games"] == 30
        assert data["preset"] == "clasico" and data["players"] == 4 and data["mode"] == "pairs"
        assert data["bots"] == ["greedy", "random", "greedy", "random"]
        rounds = data["rounds"]
        assert isinstance(rounds, int) and rounds >= 30
        assert data["rounds_per_game"] == round(rounds / 30, 3)
        assert 0 < data["tranque_pct"] < 100
        assert 0 <= data["tie_pct"] <= data["tranque_pct"]
        assert 0 < data["avg_points_per_round"] < 168
        # R14 in clasico: only the round's winner scores, so every game has exactly one winner.
        assert sum(data["win_pct_by_side"]) == pytest.approx(100, abs=0.02)

    def test_same_seed_same_figures(self, capsys: pytest.CaptureFixture[str]) -> None:
        runs = [simulate_json(capsys, "--games", "25", "--seed", "11") for _ in range(2)]
        other = simulate_json(capsys, "--games", "25", "--seed", "12")
        for data in [*runs, other]:
            data.pop("games_per_second")
        assert runs[0] == runs[1]
        assert other["seed"] == 12
        other["seed"] = 11
        assert other != runs[0]

    def test_players_kind_and_individual_mode(self, capsys: pytest.CaptureFixture[str]) -> None:
        data = simulate_json(
            capsys, "--games", "5", "--seed", "1", "--players", "3", "--players-kind", "random"
        )
        assert data["mode"] == "individual"
        assert data["bots"] == ["random"] * 3
        assert len(data["win_pct_by_side"]) == 3

    def test_table_in_spanish(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["simulate", "--games", "5", "--seed", "1"]) == 0
        out = capsys.readouterr().out
        for label in ("Partidas", "Manos por partida", "Manos trancadas", "Puntos por mano", "Pareja A"):
            assert label in out
        assert "Partidas por segundo" in out

    def test_table_in_english(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["--lang", "en", "simulate", "--games", "5", "--seed", "1"]) == 0
        out = capsys.readouterr().out
        for label in ("Games", "Rounds per game", "Rounds ending in tranque", "Team A", "Games per second"):
            assert label in out
        assert "Partidas" not in out

    def test_lang_from_environment(
        self, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setenv("TRANQUE_LANG", "en")
        assert main(["simulate", "--games", "2", "--seed", "1"]) == 0
        assert "Rounds per game" in capsys.readouterr().out

    def test_record_saves_the_last_game(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        path = tmp_path / "last.json"
        simulate_json(capsys, "--games", "3", "--seed", "5", "--record", str(path))
        game = load(path)
        assert game.is_over and len(game.winners) == 1


class TestPlay:
    def play(
        self,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
        lines: Iterable[str],
        *args: str,
    ) -> tuple[int, str]:
        script(monkeypatch, lines)
        code = main(["play", *args])
        return code, capsys.readouterr().out

    def test_whole_game_choosing_option_one(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = tmp_path / "game.json"
        code, out = self.play(monkeypatch, capsys, always_one(), "--seed", "3", "--record", str(path))
        assert code == 0
        game = load(path)
        assert game.is_over and len(game.winners) == 1
        for number in range(1, len(game.results) + 1):
            assert f"Fin de la mano {number}:" in out
        winner = game.winners[0]
        if winner == 0:  # seat 0 is the human's team
            assert "¡Tu pareja ganó la partida!" in out
        else:
            assert "Gana la partida la pareja B (jugadores 1 y 3)." in out
        assert f"Partida guardada en {path}" in out
        assert "Tu mano:" in out and "Pozo: 0 fichas" in out and "1) " in out

    def test_bots_moves_are_told(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out = self.play(monkeypatch, capsys, always_one(), "--seed", "3")
        assert code == 0
        assert "Jugador 1 juega" in out or "Jugador 1 sale con" in out
        assert "Juegas " in out or "Sales con " in out

    def test_wrong_inputs_are_explained_and_the_game_goes_on(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out = self.play(monkeypatch, capsys, always_one(["99", "x", "7-7", ""]), "--seed", "4")
        assert code == 0
        assert "No hay opción «99»: elige un número del 1 al" in out
        assert "No entiendo «x»: escribe el número de una opción" in out
        assert "No tienes la ficha 7-7." in out
        assert "Escribe el número de una opción, una ficha como 6-4, o q para salir." in out
        assert "Gana la partida" in out or "ganó la partida" in out

    def test_q_quits_cleanly(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out = self.play(monkeypatch, capsys, ["q"], "--seed", "4")
        assert code == 0
        assert out.rstrip().endswith("Partida abandonada. ¡Hasta la próxima!")

    def test_end_of_input_quits_cleanly(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out = self.play(monkeypatch, capsys, [], "--seed", "4")
        assert code == 0 and "Partida abandonada." in out

    def test_english(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        script(monkeypatch, ["x", "q"])
        assert main(["--lang", "en", "play", "--seed", "4"]) == 0
        out = capsys.readouterr().out
        assert "Your hand:" in out and "Your move (" in out
        assert "I don't understand 'x'" in out
        assert "Game abandoned." in out
        assert "Tu mano" not in out

    def test_individual_game_against_random_bots(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        code, out = self.play(
            monkeypatch,
            capsys,
            always_one(),
            "--players",
            "3",
            "--bot",
            "random",
            "--seat",
            "2",
            "--seed",
            "9",
        )
        assert code == 0
        assert "Pareja" not in out
        assert "¡Ganaste la partida!" in out or "Gana la partida jugador" in out


def quiet_context(lines: Iterable[str]) -> tuple[Context, io.StringIO]:
    feed = iter(lines)

    def read_line() -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    buffer = io.StringIO()
    console = Console(file=buffer, markup=False, highlight=False, soft_wrap=True)
    return Context("es", console, console, read_line), buffer


class TestTileInput:
    """Choosing by tile: the human holds 5-3 (fits both ends, 5 and 3), 5-1 (left only), 4-4 (no)."""

    @pytest.fixture
    def game(self) -> Game:
        hands = [
            ["6-5", "5-3", "4-4", "5-1", "2-2", "1-0", "0-0"],
            ["6-6", "6-3", "3-3", "2-1", "2-0", "4-0", "3-0"],
        ]
        dealt = {Tile.parse(tile) for hand in hands for tile in hand}
        boneyard = [tile for tile in Tile.full_set(6) if tile not in dealt]
        game = Game(Rules.preset("clasico", players=2), deals=[(hands, boneyard)])
        game.apply(Play(Tile(6, 6)))
        game.apply(Play(Tile(6, 5), Side.LEFT))
        game.apply(Play(Tile(6, 3), Side.RIGHT))
        assert game.round.turn == 0 and game.round.ends == (5, 3)
        return game

    def ask(self, game: Game, lines: list[str]) -> tuple[Play, str]:
        ctx, buffer = quiet_context(lines)
        action = Match(game, 0, {}, ctx).ask(game.view(0))
        assert isinstance(action, Play)
        return action, buffer.getvalue()

    def test_options_are_numbered(self, game: Game) -> None:
        action, out = self.ask(game, ["3"])
        assert "  1) 5-1 a la izquierda\n  2) 5-3 a la izquierda\n  3) 5-3 a la derecha\n" in out
        assert action == Play(Tile(5, 3), Side.RIGHT)

    def test_tile_that_fits_both_ends_asks_which(self, game: Game) -> None:
        action, out = self.ask(game, ["4-4", "5-1 d", "5-3", "x", "d"])
        assert "La ficha 4-4 no se puede jugar ahora" in out
        assert "La ficha 5-1 no pega a la derecha (ahí hay un 3)." in out
        assert "¿En qué punta va el 5-3? i = izquierda (5), d = derecha (3):" in out
        assert "Escribe i (izquierda) o d (derecha)." in out
        assert action == Play(Tile(5, 3), Side.RIGHT)

    def test_tile_and_end_in_one_go(self, game: Game) -> None:
        assert self.ask(game, ["3-5 i"])[0] == Play(Tile(5, 3), Side.LEFT)
        assert self.ask(game, ["5-1"])[0] == Play(Tile(5, 1), Side.LEFT)

    def test_quit_while_choosing_an_end(self, game: Game) -> None:
        ctx, _ = quiet_context(["5-3", "q"])
        with pytest.raises(Quit):
            Match(game, 0, {}, ctx).ask(game.view(0))


class TestReplay:
    def recorded_game(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[Path, Game]:
        path = tmp_path / "game.json"
        script(monkeypatch, always_one())
        assert main(["play", "--record", str(path), *args]) == 0
        return path, load(path)

    def test_every_round_and_action_is_told(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path, game = self.recorded_game(tmp_path, monkeypatch, "--seed", "6")
        capsys.readouterr()
        assert main(["replay", str(path)]) == 0
        out = capsys.readouterr().out
        lines = out.splitlines()
        assert lines[0] == "Partida guardada · Clásico · 4 jugadores por parejas · a 100"
        assert out.count("Fin de la mano ") == len(game.results) == len(game.rounds)
        for number, round_ in enumerate(game.rounds, start=1):
            assert f"Mano {number} · sale jugador {round_.starter}" in out
        told = [line for line in lines if line.startswith("  Jugador ")]
        assert len(told) == len(game.actions)
        first_deal = " ".join(
            str(t) for t in sorted(game.rounds[0].dealt_hands[0], key=lambda t: (t.high, t.low), reverse=True)
        )
        assert f"Jugador 0: {first_deal}" in out
        winner = "A (jugadores 0 y 2)" if game.winners == [0] else "B (jugadores 1 y 3)"
        assert lines[-1] == f"Gana la partida la pareja {winner}."

    def test_abandoned_game(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = tmp_path / "left.json"
        script(monkeypatch, ["1", "q"])
        assert main(["play", "--seed", "6", "--players", "2", "--record", str(path)]) == 0
        capsys.readouterr()
        assert main(["replay", str(path)]) == 0
        out = capsys.readouterr().out
        assert "(la mano quedó sin terminar)" in out
        assert out.rstrip().endswith("La partida quedó sin terminar.")

    def test_english(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path, game = self.recorded_game(tmp_path, monkeypatch, "--seed", "6")
        capsys.readouterr()
        assert main(["replay", "--lang", "en", str(path)]) == 0
        out = capsys.readouterr().out
        assert out.count("End of round ") == len(game.results)
        assert "Mano " not in out


def bad_records(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    game = Game(Rules.preset("clasico", players=2), seed=1)
    game.apply(game.round.legal_actions()[0])
    tampered = to_record(game)
    tampered["scores"] = [50, 0]
    files = {
        "missing": (tmp_path / "nope.json", None),
        "not json": (tmp_path / "garbage.json", "{not json"),
        "not a record": (tmp_path / "other.json", '{"hello": 1}'),
        "tampered": (tmp_path / "tampered.json", json.dumps(tampered)),
        "directory": (tmp_path, None),
    }
    expected = {
        "missing": "no existe el archivo",
        "not json": "no es JSON válido",
        "not a record": "no es un registro de partida de Tranque",
        "tampered": "el registro dice puntos [50, 0]",
        "directory": "no se puede leer",
    }
    for path, text in files.values():
        if text is not None:
            path.write_text(text, encoding="utf-8")
    return {name: (path, expected[name]) for name, (path, _) in files.items()}


@pytest.mark.parametrize("case", ["missing", "not json", "not a record", "tampered", "directory"])
def test_bad_record_exits_2_with_a_spanish_error(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, expected = bad_records(tmp_path)[case]
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("tranque: error: ") and expected in captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err


def test_saved_record_replays_after_a_good_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game(Rules.preset("clasico", players=2), seed=1)
    save(game, tmp_path / "fresh.json")
    assert main(["replay", str(tmp_path / "fresh.json")]) == 0
    assert "(la mano quedó sin terminar)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--preset", "nada"], "opción --preset no válida: «nada» no existe"),
        (
            ["simulate", "--players", "3", "--mode", "pairs"],
            "opción --mode no válida: «clasico» con 3 jugadores",
        ),
        (
            ["play", "--preset", "futbol", "--players", "4"],
            "opción --players no válida: «futbol» se juega con 2",
        ),
        (["play", "--target", "0"], "opción --target no válida: la meta debe ser positiva"),
        (["play", "--seat", "9"], "opción --seat no válida: el asiento va de 0 a 3, no 9"),
        (["play", "--bot", "nadie"], "opción --bot no válida: no hay un bot «nadie»"),
        (["simulate", "--games", "0"], "--games: debe ser al menos 1, no 0"),
        (["simulate", "--games", "muchas"], "--games: «muchas» no es un número entero"),
        (["simulate", "--mode", "todos"], "--mode: 'todos' no es válido; opciones: 'pairs', 'individual'"),
        (["simulate", "--jugadores", "4"], "opción desconocida: --jugadores 4"),
        (["--lang", "fr", "simulate"], "--lang: 'fr' no es válido"),
        (["replay"], "falta: FILE"),
        ([], "falta la orden: play, simulate, replay"),
    ],
)
def test_bad_option_is_one_spanish_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"tranque: error: {captured.err.removeprefix('tranque: error: ').rstrip()}\n"
    assert message in captured.err
    assert captured.err.count("\n") == 1


def test_help_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("uso: tranque") and "órdenes" in out and "simula muchas partidas" in out
    assert main(["--lang", "en", "play", "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: tranque play") and "--bot" in out and "your seat" in out


def test_console_script_is_installed() -> None:
    script_path = Path(sys.executable).parent / "tranque"
    assert script_path.exists(), "run .venv/bin/pip install -e . to install the console script"
    done = subprocess.run([str(script_path), "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert done.stdout.startswith("uso: tranque") and "replay" in done.stdout
