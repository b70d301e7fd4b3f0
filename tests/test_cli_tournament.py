"""`tranque tournament simulate`: a whole tournament played by bots through the server's own
machine, its rounds and standings printed in the reader's language."""

from __future__ import annotations

import argparse

import pytest

from tests.cli_helpers import one_line_error
from tranque.cli import main
from tranque.terminal.tournament import Simulation, config_from_args, simulate_event

TINY = [
    "tournament",
    "simulate",
    "--entrants",
    "8",
    "--rounds",
    "3",
    "--target",
    "20",
    "--bots",
    "random,greedy",
]


def simulated(*options: str, seed: int = 5) -> Simulation:
    """The same event the command plays, run directly."""
    values: dict[str, str | int | None] = {
        "format": "suizo",
        "entry": "duel",
        "rounds": None,
        "target": None,
        "preset": "clasico",
    }
    values.update({"entrants": 8, "hands": 4, "window": 60})
    words = list(options)
    for name, value in zip(words[::2], words[1::2], strict=True):
        key = name.removeprefix("--")
        values[key] = value if key in ("format", "entry", "preset") else int(value)
    args = argparse.Namespace(**values)
    return simulate_event(config_from_args(args, "es"), ["random", "greedy"], seed)


def standings_rows(out: str, title: str) -> list[list[str]]:
    """The cells of the standings table printed after `title`."""
    lines = out[out.index(title) :].splitlines()
    return [
        [cell.strip() for cell in line.strip("│").split("│")]
        for line in lines
        if line.startswith("│") and line.split("│")[1].strip()
    ]


def test_a_tiny_suizo_prints_each_round_and_the_machines_standings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main([*TINY, "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "Torneo simulado: suizo, uno contra uno, 8 inscritos" in out
    assert all(f"Ronda {n}" in out for n in (1, 2, 3)) and "Ronda 4" not in out
    sim = simulated("--entrants", "8", "--rounds", "3", "--target", "20")
    t = sim.tournament
    expected = [
        [
            str(s.place),
            t.entrant(s.entrant).names[0],
            sim.level_of[s.entrant],
            str(s.played),
            str(s.wins),
            str(s.losses),
            f"{s.efectividad:+d}",
            str(s.points_for),
        ]
        for s in t.standings()
    ]
    assert standings_rows(out, "Clasificación final") == expected
    assert len(expected) == 8 and sum(s.played for s in t.standings()) == 2 * 12  # 4 games a round
    podium = ", ".join(t.entrant(no).names[0] for no in t.podium())
    assert podium.replace(", ", "") and f"Podio: 1.º {t.entrant(t.podium()[0]).names[0]}" in out
    # every game to 20, capped there
    assert all(max(g.result.points) == 20 for g in t.games() if g.result is not None)


def test_the_same_seed_prints_the_same_event(capsys: pytest.CaptureFixture[str]) -> None:
    main([*TINY, "--seed", "9"])
    first = capsys.readouterr().out
    main([*TINY, "--seed", "9", "--jobs", "2"])
    assert capsys.readouterr().out == first


def test_a_minitorneo_by_pairs_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--lang", "en", "tournament", "simulate", "--format", "minitorneo", "--entry", "pairs"]
    assert main([*argv, "--entrants", "4", "--target", "20", "--bots", "random,greedy", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Simulated tournament: minitorneo, fixed pairs, 4 entrants" in out
    assert "Round 2" in out and "Round 3" not in out  # semi-finals, then the final and third place
    sim = simulated("--format", "minitorneo", "--entry", "pairs", "--entrants", "4", "--target", "20", seed=2)
    names = [" / ".join(sim.tournament.entrant(no).names) for no in sim.tournament.podium()]
    rows = standings_rows(out, "Final standings")
    assert [row[0] for row in rows] == ["1", "2", "3", "4"]
    assert "1st" in out and names[0].split(" / ")[0] in rows[0][1]


def test_a_rotating_suizo_shows_the_partners_tie_break(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "simulate", "--entry", "rotating", "--entrants", "9", "--rounds", "2"]
    assert main([*argv, "--target", "20", "--bots", "random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Desempate" in out and "Descansa (cuenta como ganada)" in out  # 9 players: one bye a round


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--bots", "dios"], "no hay un bot «dios»"),
        (["--bots", ","], "indica al menos un bot"),
        (["--format", "minitorneo", "--entrants", "6"], "Un minitorneo es de 4, 8 o 16 inscritos."),
        (["--format", "arena", "--rounds", "2"], "el formato arena no tiene un número fijo de rondas"),
        (["--entry", "rotating", "--entrants", "3"], "El torneo admite de 4 a 1000 inscritos."),
        (["--preset", "ponce"], "Con esta forma de juego las reglas pueden ser"),
        (["--preset", "nada"], "Con esta forma de juego las reglas pueden ser"),
    ],
)
def test_a_bad_option_is_one_line(
    options: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["tournament", "simulate", *options]) == 2
    assert message in one_line_error(capsys.readouterr())
