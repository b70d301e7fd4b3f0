"""The `tranque` command line: simulate, play, replay, verify, arena, their errors and both
languages. Output wraps at 80 columns, so texts are compared with `flat` (runs of spaces and
line breaks as one space)."""

from __future__ import annotations

import dataclasses
import importlib.metadata
import io
import itertools
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from tests.cli_helpers import answers, flat, forbid, one_line_error
from tests.engine.deals import complete_deal, run
from tranque import Draw, Game, Play, PlayerView, Rules, Side, Tile
from tranque.bots import make_bot
from tranque.bots.arena import play_out
from tranque.cli import main
from tranque.engine import Action, RoundEnd
from tranque.engine.record import load, save, to_record
from tranque.terminal.catalogue import plural
from tranque.terminal.command import Context
from tranque.terminal.play import Match, Quit
from tranque.terminal.render import board
from tranque.terminal.results import headline, round_end


def script(monkeypatch: pytest.MonkeyPatch, lines: Iterable[str]) -> None:
    """Feed `lines` to input(); when they run out, input() hits the end of the stream."""
    monkeypatch.setattr("builtins.input", answers(lines))


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
        assert f"Partida guardada en {path}" in flat(out)
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
    buffer = io.StringIO()
    console = Console(file=buffer, markup=False, highlight=False, soft_wrap=True)
    return Context("es", console, console, answers(lines)), buffer


def two_player_game(hands: list[str], script: str) -> Game:
    """A two-player clasico game of these hands (the other tiles in the boneyard) with the
    opening `script` played."""
    rules = Rules.preset("clasico", players=2)
    game = Game(rules, deals=[complete_deal(rules, hands)])
    run(game, script)
    return game


# Dealt for choosing by tile (TestTileInput, TestMoreInput); the opening is "6-6 6-5i 6-3d".
TILE_INPUT_HANDS = ["6-5 5-3 4-4 5-1 2-2 1-0 0-0", "6-6 6-3 3-3 2-1 2-0 4-0 3-0"]


class TestTileInput:
    """Choosing by tile: the human holds 5-3 (fits both ends, 5 and 3), 5-1 (left only), 4-4 (no)."""

    @pytest.fixture
    def game(self) -> Game:
        game = two_player_game(TILE_INPUT_HANDS, "6-6 6-5i 6-3d")
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
        assert "¿En qué punta va el 5-3? i = izquierda (5), d = derecha (3), v = volver:" in out
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
        "not json": "garbage.json no es un registro de partida de Tranque",
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
    assert expected in one_line_error(capsys.readouterr())


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


# --- Bad input: one line in the player's language, exit 2, nothing written or started ----------


ARENA = ["arena", "greedy", "random"]


@pytest.mark.parametrize(
    ("argv", "spanish", "english"),
    [
        (
            [*ARENA, "--preset", "nope"],
            "opción --preset no válida: «nope» no existe; hay: clasico, sin-pozo",
            "invalid --preset: “nope” does not exist",
        ),
        (
            [*ARENA, "--players", "5", "--mode", "pairs"],
            "opción --mode no válida: «clasico» con 5 jugadores se juega individual",
            "invalid --mode: “clasico” with 5 players is played individually",
        ),
        (
            [*ARENA, "--players", "7"],
            "opción --players no válida: «clasico» se juega con 2, 3, 4, 5 o 6 jugadores, no con 7",
            "invalid --players: “clasico” is played by 2, 3, 4, 5 or 6 players, not 7",
        ),
        (
            [*ARENA, "--target", "0"],
            "opción --target no válida: la meta debe ser positiva, no 0",
            "invalid --target: the target must be positive, not 0",
        ),
        (
            [*ARENA, "--games", "0"],
            "--games: debe ser al menos 1, no 0",
            "--games: must be at least 1, not 0",
        ),
        (
            [*ARENA, "--games", "-3"],
            "--games: debe ser al menos 1, no -3",
            "--games: must be at least 1, not -3",
        ),
        ([*ARENA, "--jobs", "0"], "--jobs: debe ser al menos 1, no 0", "--jobs: must be at least 1, not 0"),
        (
            ["arena", "greedy", "oracle"],
            "no hay un bot «oracle»; hay: random, greedy, heuristic, expert",
            "there is no bot 'oracle'; there are: random, greedy, heuristic, expert",
        ),
        (["arena", "greedy"], "indica dos niveles de bot, no 1", "name two bot levels, not 1"),
        (
            ["arena", "expert", "greedy", "--budget", "sample=80"],
            "--budget: «sample» no es un campo del presupuesto del experto; hay: samples, exact_tiles",
            "--budget: 'sample' is not a field of the expert's budget; there are: samples, exact_tiles",
        ),
        (
            ["arena", "expert", "greedy", "--budget", "samples=80,heavy_first_share=2"],
            "--budget: heavy_first_share=2.0: se espera de 0 a 1",
            "--budget: heavy_first_share=2.0: expected from 0 to 1",
        ),
        (
            ["arena", "expert", "greedy", "--budget", "samples=lots"],
            "--budget: samples=lots: se espera un número entero",
            "--budget: samples=lots: expected a whole number",
        ),
        (
            ["arena", "greedy", "expert", "--budget", "samples=80"],
            "--budget es para el experto: nombra primero a expert, no a «greedy»",
            "--budget is for the expert: name expert first, not 'greedy'",
        ),
        (
            ["play", "--preset", "nope"],
            "opción --preset no válida: «nope» no existe",
            "invalid --preset: “nope” does not exist",
        ),
        (
            ["simulate", "--players", "3", "--mode", "pairs"],
            "opción --mode no válida: «clasico» con 3 jugadores se juega individual",
            "invalid --mode: “clasico” with 3 players is played individually",
        ),
        (
            ["bot", "run", "--url", "ws://localhost:8000/ws", "--token", "tqb_x", "--games", "0"],
            "--games: debe ser al menos 1, no 0",
            "--games: must be at least 1, not 0",
        ),
        (["bot", "run", "--url", "ws://localhost:8000/ws"], "--token", "--token"),
        (["--foo"], "opción desconocida: --foo", "unknown option: --foo"),
        (
            [],
            "falta la orden: play, simulate, replay, serve, verify, arena, analyze, bot, admin, "
            "migrate, backup, restore, tournament, puzzles (tranque --help",
            "missing command",
        ),
    ],
)
@pytest.mark.parametrize("lang", ["es", "en"])
def test_bad_input_is_one_line_in_the_players_language(
    argv: list[str],
    spanish: str,
    english: str,
    lang: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    forbid(
        monkeypatch,
        "a match",
        "tranque.terminal.arena.play_match",
        "tranque.terminal.simulate.simulate",
        "tranque.terminal.play.Match",
    )
    assert main(["--lang", lang, *argv]) == 2
    line = one_line_error(capsys.readouterr())
    assert (spanish if lang == "es" else english) in line
    assert list(tmp_path.iterdir()) == []


def test_an_unknown_language_in_the_environment_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("TRANQUE_LANG", "fr")
    assert main(["simulate", "--games", "1"]) == 2
    assert "TRANQUE_LANG: «fr» no es un idioma; hay: es, en" in one_line_error(capsys.readouterr())
    assert main(["--lang", "en", "simulate", "--games", "1", "--json"]) == 0  # --lang wins


def unwritable_paths(tmp_path: Path) -> dict[str, tuple[Path, str, str]]:
    """Record paths that cannot be written, and what `play` says about each, es and en."""
    if os.geteuid() == 0:  # root writes anywhere a permission allows; sysfs refuses it
        locked = Path("/sys/tranque-test-record.json")
    else:
        folder = tmp_path / "locked"
        folder.mkdir(mode=0o500)
        locked = folder / "game.json"
    missing = tmp_path / "no" / "such" / "game.json"
    return {
        "missing directory": (
            missing,
            f"opción --record no válida: no existe la carpeta {missing.parent}",
            f"invalid --record: there is no directory {missing.parent}",
        ),
        "a directory": (
            tmp_path,
            f"opción --record no válida: {tmp_path} es una carpeta",
            f"invalid --record: {tmp_path} is a directory",
        ),
        "no permission": (
            locked,
            f"opción --record no válida: no se puede escribir {locked}: no hay permiso",
            f"invalid --record: cannot write {locked}: permission denied",
        ),
    }


@pytest.mark.parametrize("command", ["play", "simulate"])
@pytest.mark.parametrize("case", ["missing directory", "a directory", "no permission"])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_an_unwritable_record_is_refused_before_the_game(
    command: str,
    case: str,
    lang: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, spanish, english = unwritable_paths(tmp_path)[case]
    before = sorted(tmp_path.rglob("*"))
    script(monkeypatch, always_one())
    assert main(["--lang", lang, command, "--seed", "1", "--record", str(path)]) == 2
    assert (spanish if lang == "es" else english) in one_line_error(capsys.readouterr())
    assert sorted(tmp_path.rglob("*")) == before
    assert case == "a directory" or not path.exists()


class TestRecordOnInterrupt:
    def test_ctrl_c_at_a_prompt_still_saves_the_record(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = tmp_path / "cc.json"
        monkeypatch.setattr("builtins.input", answers(["1", "1"], end=KeyboardInterrupt))
        assert main(["play", "--seed", "3", "--record", str(path)]) == 130
        captured = capsys.readouterr()
        assert f"Partida guardada en {path}" in flat(captured.out)
        assert captured.err == "Interrumpido.\n"
        game = load(path)
        assert not game.is_over
        assert 1 <= sum(seat == 0 for _, seat, _ in game.actions) <= 2

    def test_the_end_of_the_input_still_saves_the_record(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = tmp_path / "eof.json"
        script(monkeypatch, ["1"])
        assert main(["--lang", "en", "play", "--seed", "3", "--record", str(path)]) == 0
        out = flat(capsys.readouterr().out)
        assert "Game abandoned." in out and f"Game saved to {path}" in out
        assert sum(seat == 0 for _, seat, _ in load(path).actions) == 1


# --- verify: deals and every move, on records from play and simulate ----------------------------


def played_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str = "game.json") -> Path:
    path = tmp_path / name
    script(monkeypatch, always_one())
    assert main(["play", "--seed", "6", "--record", str(path)]) == 0
    return path


def tampered(path: Path, change: Any) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    out = path.with_name("tampered.json")
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


class TestVerify:
    def verify(self, capsys: pytest.CaptureFixture[str], path: Path, lang: str = "es") -> tuple[int, str]:
        code = main(["--lang", lang, "verify", str(path)])
        return code, capsys.readouterr().out

    def test_a_play_record_checks_each_seed_and_every_move(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        path = played_record(tmp_path, monkeypatch)
        rounds = len(load(path).rounds)
        capsys.readouterr()
        code, out = self.verify(capsys, path)
        assert code == 0
        lines = out.splitlines()
        assert flat(out).startswith(
            "Partida de tranque play o simulate: no hay compromisos publicados; se comprueba que la "
            "semilla de cada mano da su reparto."
        )
        assert [line for line in lines if line.startswith("Mano ")] == [
            f"Mano {n}: verificado" for n in range(1, rounds + 1)
        ]
        assert "Jugadas: verificado: cada jugada, los puntos y los ganadores se reproducen" in flat(out)
        assert "NO verificado" not in out
        assert flat(out).endswith(
            "Todo verificado: los repartos son los de sus semillas y la partida se reproduce entera."
        )

    def test_a_simulate_record_in_english(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        path = tmp_path / "last.json"
        assert main(["simulate", "--games", "2", "--seed", "4", "--record", str(path)]) == 0
        assert f"Última partida guardada en {path}" in flat(capsys.readouterr().out)
        code, out = self.verify(capsys, path, "en")
        assert code == 0
        assert flat(out).startswith(
            "A game from tranque play or simulate: there are no published commitments"
        )
        assert "Round 1: verified" in out and "Moves: verified" in out and "NOT verified" not in out

    @pytest.mark.parametrize(
        ("case", "change", "reason"),
        [
            (
                "a changed move",
                lambda data: data["rounds"][0]["actions"][1].update(type="play", tile="6-6", side="left"),
                "mano 1, jugada 2 (asiento",
            ),
            (
                "a removed move",
                lambda data: data["rounds"][0]["actions"].pop(),
                "mano 1: el registro dice un resultado que la partida no da",
            ),
            (
                "a forged winner",
                lambda data: data.update(winners=[1 - data["winners"][0]]),
                "el registro dice ganadores",
            ),
        ],
    )
    def test_a_changed_game_is_refused(
        self,
        case: str,
        change: Any,
        reason: str,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        path = tampered(played_record(tmp_path, monkeypatch), change)
        capsys.readouterr()
        code, out = self.verify(capsys, path)
        assert code == 1, case
        assert "Mano 1: verificado" in out  # the deals themselves are intact
        assert f"Jugadas: NO verificado: {reason}" in flat(out)
        if case == "a changed move":
            assert "): No tienes la ficha 6-6." in flat(out)
        assert flat(out).endswith("Hay cosas que no se pudieron verificar.")
        code, out = self.verify(capsys, path, "en")
        assert code == 1 and "Moves: NOT verified: " in out

    def test_a_swapped_deal_and_a_malformed_seed_are_named(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        def swap(data: dict[str, Any]) -> None:
            hands = data["rounds"][0]["hands"]
            hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
            data["rounds"][1]["seed"] = "zz"

        path = tampered(played_record(tmp_path, monkeypatch), swap)
        capsys.readouterr()
        code, out = self.verify(capsys, path)
        assert code == 1
        assert "Mano 1: NO verificado: la semilla no da el reparto registrado" in out
        assert "Mano 2: NO verificado: la semilla no es un número hexadecimal" in out
        assert "Jugadas: NO verificado: mano 1: la semilla no da el reparto registrado" in flat(out)


# --- --version and help ----------------------------------------------------------------------


def test_version_is_the_installed_packages(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"tranque {importlib.metadata.version('tranque')}\n"


@pytest.mark.parametrize(
    ("command", "defaults"),
    [
        ("play", ["--preset PRESET", "clasico)", "--bot BOT", "greedy)", "--seat K", "0)"]),
        ("simulate", ["--games N", "200)", "--players-kind", "mixed)"]),
        ("arena", ["expert heuristic)", "--games N", "100)", "--seed S", "1)", "--jobs J", "1)"]),
        ("serve", ["--host HOST", "127.0.0.1)", "--port P", "8000)", "--bot-level BOT", "heuristic)"]),
    ],
)
@pytest.mark.parametrize(("lang", "default"), [("es", "(por defecto: "), ("en", "(default: ")])
def test_help_shows_the_defaults(
    command: str, defaults: list[str], lang: str, default: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", lang, command, "--help"]) == 0
    out = flat(capsys.readouterr().out)
    position = 0
    for text in defaults:  # each option, then its default, in order
        position = out.index(text, position)
    assert out.count(default) >= len(defaults) // 2
    assert ("default:" in out) == (lang == "en")


# --- Round ends: every count in words, ponce's palitos, plurals, 80 columns ---------------------


def rendered(renderable: Any, width: int = 80) -> str:
    buffer = io.StringIO()
    Console(file=buffer, width=width, markup=False, highlight=False, emoji=False).print(renderable)
    return buffer.getvalue()


def first_round(rules: Rules, wanted: Any, kind: str = "greedy") -> tuple[Game, int]:
    """The first round, over games between bots with seeds 0, 1, 2…, whose result is `wanted`."""
    for seed in range(300):
        game = Game(rules, seed=seed)
        play_out(game, [make_bot(kind, seed=seed * 8 + seat) for seat in range(rules.players)])
        for number, result in enumerate(game.results):
            if wanted(result):
                return game, number
    raise AssertionError("no such round in 300 games")


def round_text(game: Game, number: int, lang: str, width: int = 80) -> str:
    result, hands = game.results[number], game.rounds[number].hands
    return rendered(round_end(game.rules, number, result, hands, lang), width)


@pytest.mark.parametrize(("players", "spanish", "english"), [(6, "cinco", "five"), (4, "tres", "three")])
def test_R12_a_pairs_domino_counts_the_other_hands(players: int, spanish: str, english: str) -> None:
    game, number = first_round(Rules.preset("clasico", players=players), lambda r: r.kind is RoundEnd.DOMINO)
    assert (
        f"la pareja ganadora se lleva los puntos de las otras {spanish} manos, la del compañero incluida"
        in flat(round_text(game, number, "es"))
    )
    assert f"the pips of the other {english} hands, the partner's included" in flat(
        round_text(game, number, "en")
    )


def test_V6_a_tied_ponce_tranque_scores_only_the_blockers_two() -> None:
    game, number = first_round(Rules.preset("ponce"), lambda r: r.tie)
    result = game.results[number]
    text = flat(round_text(game, number, "es"))
    assert (
        "¡Tranque empatado! Las cuentas más bajas empatan: nadie se lleva las fichas; solo cuentan los 2 "
        "palitos de quien trancó." in text
    )
    assert "nadie anota" not in text
    blocker = "AB"[game.rules.team_of(result.closer)]
    assert re.search(rf"Pareja {blocker}: (\d palitos? por pases \+ )?2 palitos por trancar", text)
    assert f"Pareja {blocker} +{result.points[game.rules.team_of(result.closer)]}" in text
    assert "only the blocker's 2 palitos are scored" in flat(round_text(game, number, "en"))


def palitos_in(why: str) -> dict[str, int]:
    """The palitos each team's breakdown adds up to, from a "Por qué" line."""
    totals = {}
    for part in why.split(" · "):
        team, terms = part.split(": ", 1)
        totals[team] = sum(int(n) for n in re.findall(r"(\d+) palitos? por", terms))
    return totals


def test_V6_ponce_palitos_are_passes_blocker_and_rounded_pips() -> None:
    rules = Rules.preset("ponce")
    for kind, wanted in [
        (RoundEnd.DOMINO, lambda r: r.kind is RoundEnd.DOMINO and r.pass_points[r.winner] > 0),
        (RoundEnd.TRANQUE, lambda r: r.kind is RoundEnd.TRANQUE and not r.tie),
    ]:
        game, number = first_round(rules, wanted)
        result = game.results[number]
        text = flat(round_text(game, number, "es"))
        why = text.split("Por qué: ", 1)[1].split(" Anotan: ", 1)[0]
        expected = {f"Pareja {'AB'[team]}": points for team, points in enumerate(result.points) if points}
        assert palitos_in(why) == expected
        assert result.winner_seat is not None
        hands = "de las otras manos" if kind is RoundEnd.DOMINO else "de todas las manos"
        taken = sum(result.seat_counts) - (
            result.seat_counts[result.winner_seat] if kind is RoundEnd.DOMINO else 0
        )
        assert f"por los {taken} puntos {hands}, redondeados a decenas" in why
        if kind is RoundEnd.TRANQUE:
            assert "2 palitos por trancar" in why


def test_V6_pass_points_are_told_as_they_happen_and_a_game_may_end_on_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for seed in range(40):
        script(monkeypatch, always_one())
        assert main(["play", "--preset", "ponce", "--seed", str(seed)]) == 0
        out = flat(capsys.readouterr().out)
        if "llega a la meta con ese pase" in out:
            break
    else:
        raise AssertionError("no ponce game ended on a pass")
    assert re.search(
        r"pasa \+2 palitos para la pareja [AB] \(el primer pase que anota en la partida vale 2\)", out
    )
    assert re.search(r"pasa \+1 palito para la pareja [AB] ", out)
    assert re.search(
        r"pasa \+1 palito para la pareja [AB] La pareja [AB] \([^)]*\) llega a la meta con ese pase: la "
        r"partida termina sin acabar la mano\. Marcador: Pareja A \d+/20 · Pareja B \d+/20",
        out,
    )


def test_plurals() -> None:
    assert [plural("tiles", n, "es") for n in (0, 1, 2)] == ["0 fichas", "1 ficha", "2 fichas"]
    assert [plural("pips", n, "en") for n in (1, 7)] == ["1 pip", "7 pips"]
    assert plural("palitos", 1, "es") == "1 palito"
    view = Game(Rules.preset("clasico", players=2), seed=1).view(0)
    assert "Pozo: 1 ficha\n" in rendered(board(dataclasses.replace(view, boneyard_count=1), 0, "es"))
    assert "Boneyard: 1 tile\n" in rendered(board(dataclasses.replace(view, boneyard_count=1), 0, "en"))
    rules = Rules.preset("clasico", players=2)
    game, number = first_round(rules, lambda r: r.kind is RoundEnd.TRANQUE and not r.tie)
    result = game.results[number]
    assert result.winner_seat is not None
    counts = list(result.seat_counts)
    counts[result.winner_seat] = 1
    one = dataclasses.replace(result, seat_counts=tuple(counts), counts=tuple(counts))
    assert "gana jugador " in headline(rules, one, "es", None)
    assert "con 1 punto en la mano" in headline(rules, one, "es", None)
    assert "with 1 pip in hand" in headline(rules, one, "en", None)


def test_V2_a_tranque_tie_broken_by_the_starter_says_so() -> None:
    rules = Rules.preset("salon")
    game, number = first_round(
        rules, lambda r: r.kind is RoundEnd.TRANQUE and not r.tie and r.counts[0] == r.counts[1]
    )
    text = flat(round_text(game, number, "es"))
    pips = game.results[number].counts[0]
    assert f"la cuenta más baja empata a {pips} puntos: gana la pareja" in text
    assert "quien salió o el más cercano después" in text


def test_lines_wrap_at_word_boundaries_at_80_columns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    script(monkeypatch, always_one())
    assert main(["play", "--players", "6", "--mode", "individual", "--seed", "3"]) == 0
    # Typed answers are not echoed here, so what follows a prompt starts a line of its own.
    out = re.sub(
        r"(Tu jugada \([^)]*\): |Pulsa Enter para seguir \(q para salir\): )", "\n", capsys.readouterr().out
    )
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "Jugador 4 0/200 · Jugador 5 0/200" in flat(out)  # no name cut in two
    boards = [n for n, line in enumerate(lines) if line.startswith("Mesa: ")]
    assert any(lines[n + 1].startswith(tuple("0123456789")) for n in boards)  # some line did wrap
    for n in boards:
        tiles = []
        for line in lines[n:]:
            if line.startswith("Puntas: "):
                break
            tiles += line.removeprefix("Mesa: ").split()
        assert all(re.fullmatch(r"\d\|\d", tile) for tile in tiles), tiles


class TestEqualEnds:
    """R8: with both ends showing 6, "6-3 d" is the one placement there is, and is told so."""

    @pytest.fixture
    def game(self) -> Game:
        game = two_player_game(["6-6 5-5 4-4 3-3 2-2 1-1 0-0", "6-3 5-4 5-2 4-2 3-1 2-0 1-0"], "6-6")
        assert game.round.turn == 1 and game.round.ends == (6, 6)
        return game

    @pytest.mark.parametrize(
        ("lang", "option", "told"),
        [
            (
                "es",
                "1) 6-3 en el 6 (las dos puntas son iguales)",
                "Juegas 6-3 en el 6 (las dos puntas son iguales)",
            ),
            (
                "en",
                "1) 6-3 on the 6 (both ends are the same)",
                "You play 6-3 on the 6 (both ends are the same)",
            ),
        ],
    )
    def test_the_play_names_no_side(self, game: Game, lang: str, option: str, told: str) -> None:
        ctx, buffer = quiet_context(["6-3 d"])
        ctx.lang = lang
        match = Match(game, 1, {}, ctx)
        match.apply(match.ask(game.view(1)))
        out = buffer.getvalue()
        assert option in out and told in out
        assert "izquierda" not in out.split("Tu jugada")[-1] and "left" not in out.split("Your move")[-1]

    def test_replay_tells_it_the_same_way(
        self, game: Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        game.apply(Play(Tile(6, 3), Side.RIGHT))
        save(game, tmp_path / "equal.json")
        assert main(["replay", str(tmp_path / "equal.json")]) == 0
        assert "Jugador 1 juega 6-3 en el 6 (las dos puntas son iguales)" in capsys.readouterr().out


class TestMoreInput:
    def test_one_number_a_stray_word_and_going_back(self, monkeypatch: pytest.MonkeyPatch) -> None:
        game = two_player_game(TILE_INPUT_HANDS, "6-6 6-5i 6-3d")
        ctx, buffer = quiet_context(["1 2", "5-1 i extra", "5-3", "v", "2"])
        assert Match(game, 0, {}, ctx).ask(game.view(0)) == Play(Tile(5, 3), Side.LEFT)
        out = buffer.getvalue()
        assert "Escribe un solo número de opción, no «1 2»." in out
        assert "No entiendo «5-1 i extra»" in out
        assert "Elige otra jugada." in out


class TestNotationInput:
    """The library's notation (`str(action)`, `Action.parse`) is understood at the prompt:
    a tile with its end in one word, 6-4i/6-4d (or l/r), and robar/draw, pasar/pass."""

    @pytest.mark.parametrize(
        ("line", "expected"),
        [
            ("5-3d", Play(Tile(5, 3), Side.RIGHT)),
            ("5-3i", Play(Tile(5, 3), Side.LEFT)),
            ("3-5R", Play(Tile(5, 3), Side.RIGHT)),
            ("5-3l", Play(Tile(5, 3), Side.LEFT)),
            ("5-1i", Play(Tile(5, 1), Side.LEFT)),
        ],
    )
    def test_a_tile_with_its_end_in_one_word(self, line: str, expected: Play) -> None:
        game = two_player_game(TILE_INPUT_HANDS, "6-6 6-5i 6-3d")
        ctx, _ = quiet_context([line])  # one answer: no question about the end follows
        assert Match(game, 0, {}, ctx).ask(game.view(0)) == expected

    def test_a_wrong_end_or_tile_in_notation_is_explained(self) -> None:
        game = two_player_game(TILE_INPUT_HANDS, "6-6 6-5i 6-3d")
        ctx, buffer = quiet_context(["5-1d", "4-4i", "7-7d", "robar", "pasar", "5-1i"])
        assert Match(game, 0, {}, ctx).ask(game.view(0)) == Play(Tile(5, 1), Side.LEFT)
        out = buffer.getvalue()
        assert "La ficha 5-1 no pega a la derecha (ahí hay un 3)." in out
        assert "La ficha 4-4 no se puede jugar ahora: elige una de las opciones." in out
        assert "No tienes la ficha 7-7." in out
        assert "Ahora no puedes robar del pozo: elige una de las opciones." in out
        assert "Ahora no puedes pasar: elige una de las opciones." in out

    @pytest.mark.parametrize(("lang", "word"), [("es", "robar"), ("en", "draw"), ("es", "DRAW")])
    def test_drawing_by_its_word(self, lang: str, word: str) -> None:
        game = two_player_game(["5-5 5-4 4-4 3-3 2-2 1-1 0-0", "6-6 6-3 3-1 2-1 2-0 4-0 3-0"], "6-6")
        ctx, buffer = quiet_context(["pass", word])
        ctx.lang = lang
        assert Match(game, 0, {}, ctx).ask(game.view(0)) == Draw()
        said = "Ahora no puedes pasar" if lang == "es" else "You can't pass now: pick one of the options."
        assert said in buffer.getvalue()

    def test_a_whole_game_typed_in_notation(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        typed: list[str] = []
        real = Match.interpret

        def in_notation(self: Match, text: str, options: list[Action], view: PlayerView) -> Action:
            chosen = str(options[-1])  # what the library writes for the last option
            typed.append(chosen)
            understood = real(self, chosen, options, view)
            assert understood == options[-1], chosen
            return understood

        monkeypatch.setattr(Match, "interpret", in_notation)
        script(monkeypatch, itertools.repeat(""))
        assert main(["play", "--seed", "5", "--players", "2", "--target", "30"]) == 0
        out = capsys.readouterr().out
        last = out.splitlines()[-1]
        assert last == "¡Ganaste la partida!" or last.startswith(("Gana la partida ", "Empate: "))
        assert any(len(word) == 4 and word[3] in "id" for word in typed)


class TestArena:
    def test_the_table_in_spanish(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = [*ARENA, "--preset", "sin-pozo", "--target", "20", "--games", "2"]
        assert main(argv) == 0
        captured = capsys.readouterr()
        out = captured.out
        assert "greedy contra random: Sin pozo · 4 jugadores por parejas · a 20" in out
        assert "4 partidas" in out and "IC 95% (Wilson)" in out
        for heading in ("Manos", "Partidas", "Pts/mano", "p50 ms", "1. greedy", "2. random"):
            assert heading in out
        assert "Tiempo por jugada: CPU de un núcleo." in out

    def test_the_table_in_english(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = [
            "--lang",
            "en",
            *ARENA,
            "--preset",
            "sin-pozo",
            "--target",
            "20",
            "--games",
            "2",
            "--jobs",
            "2",
        ]
        assert main(argv) == 0
        captured = capsys.readouterr()
        out = captured.out
        assert "greedy against random: Sin pozo · 4 players in pairs · to 20" in out
        assert "4 games" in out and "95% CI (Wilson)" in out
        for heading in ("Rounds", "Games", "Pts/round", "Time per move: CPU of one core."):
            assert heading in out
        for spanish in ("Manos", "Partidas", "contra", "Jugando", "Tiempo"):
            assert spanish not in out + captured.err

    def test_a_budget_names_what_it_changes(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ["arena", "expert", "greedy", "--budget", "samples=2,exact_samples=2", "--target", "20"]
        assert main([*argv, "--games", "1", "--preset", "sin-pozo", "--players", "2"]) == 0
        out = flat(capsys.readouterr().out)
        title = "expert (samples=2,exact_samples=2) contra greedy: Sin pozo · 2 jugadores, individual · a 20"
        assert title in out


# --- simulate: the seed is always shown -----------------------------------------------------


def test_simulate_without_a_seed_shows_the_one_it_drew(capsys: pytest.CaptureFixture[str]) -> None:
    first = simulate_json(capsys, "--games", "3")
    assert isinstance(first["seed"], int)
    again = simulate_json(capsys, "--games", "3", "--seed", str(first["seed"]))
    for data in (first, again):
        data.pop("games_per_second")
    assert again == first
