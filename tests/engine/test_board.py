"""`print(game)`, `str(round)` and `str(view)` draw the board each object knows; `repr` is one
short line."""

from __future__ import annotations

import re

import pytest

from tranque.engine import Action, Game, Round, Rules, Tile

PRESETS = ["clasico", "ponce", "futbol", "latino"]


def played(preset: str, moves: int, seed: int = 7) -> Game:
    """A game after `moves` actions, always taking the last legal one (rounds are dealt on)."""
    game = Game(Rules.preset(preset), seed=seed)
    for _ in range(moves):
        if game.is_over:
            break
        if game.round.is_over:
            game.start_next_round()
        else:
            game.apply(game.legal_actions()[-1])
    return game


def seat_lines(text: str) -> dict[int, str]:
    """Each seat's row, by seat: what follows "seat N (X):" or "asiento N:"."""
    rows = {}
    for line in text.splitlines():
        found = re.fullmatch(r"[> ] (?:seat|asiento) (\d+)(?: \([A-C]\))?: (.*)", line)
        if found:
            rows[int(found.group(1))] = found.group(2)
    return rows


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("moves", [0, 5, 17])
def test_a_game_shows_the_line_every_hand_and_the_options(preset: str, moves: int) -> None:
    game = played(preset, moves)
    text = game.board("en")
    assert str(game) == game.board("es") != text
    rows = seat_lines(text)
    assert sorted(rows) == list(range(game.rules.players))
    for seat, hand in enumerate(game.round.hands):
        assert rows[seat] == (" ".join(map(str, hand)) or "no tiles")
    lines = text.splitlines()
    if game.round.ends is None:
        assert "Line: empty" in lines
    else:
        left, right = game.round.ends
        assert f"Line, with ends {left} and {right}:" in lines
        laid = "".join(line.strip() for line in lines if line.startswith("  ["))
        halves = [tuple(map(int, pair)) for pair in re.findall(r"\[(\d)\|(\d)\]", laid)]
        assert halves == game.round.layout
        assert halves[0][0] == left and halves[-1][1] == right
    assert f"Boneyard: {game.round.boneyard_count} tile" in text
    if game.turn is not None:
        (turn_line,) = [line for line in lines if line.startswith("Turn: ")]
        assert turn_line.startswith(f"Turn: seat {game.turn} · options: ")
        options = turn_line.split("options: ")[1].split(", ")
        assert [Action.parse(option) for option in options] == game.legal_actions()
        (marked,) = [line for line in lines if line.startswith("> ")]
        assert re.match(rf"> seat {game.turn}\b", marked)


@pytest.mark.parametrize("seat", [0, 1, None])
def test_a_view_shows_only_its_own_hand(seat: int | None) -> None:
    game = played("clasico", 9)
    view = game.view(seat)
    rows = seat_lines(view.board("en"))
    for other, hand in enumerate(game.round.hands):
        if other == seat:
            assert rows[other] == " ".join(map(str, hand))
        else:
            assert rows[other] == f"{len(hand)} tiles"
            assert not any(str(tile) in rows[other] for tile in hand)
    assert str(view) == view.board("es")
    assert ("vista de un espectador" if seat is None else f"vista del asiento {seat}") in str(view)


def test_a_finished_round_says_how_it_ended_and_a_finished_game_who_won() -> None:
    game = played("clasico", 10_000)
    assert game.is_over
    text = game.board("en")
    result = game.round.result
    assert result is not None
    points = " · ".join(map(str, result.points))
    assert f"· points {points}" in text
    winners = ", ".join(f"team {'AB'[team]}" for team in game.winners)
    assert text.splitlines()[-1] == f"Game over: won by {winners}"
    assert "Turn:" not in text
    assert str(game.round).splitlines()[-1].startswith("Mano terminada: ")


def test_a_round_on_its_own_draws_its_deal() -> None:
    rules = Rules.preset("clasico", players=2, mode="individual")
    hands = [
        ["6-6", "6-5", "6-4", "6-3", "6-2", "6-1", "6-0"],
        ["5-5", "5-4", "5-3", "5-2", "5-1", "5-0", "4-4"],
    ]
    rest = [str(tile) for tile in Tile.full_set(6) if str(tile) not in hands[0] + hands[1]]
    rnd = Round.deal(rules, hands, rest, starter=1)
    assert str(rnd) == "\n".join(
        [
            "clasico · 2 jugadores, cada uno por su cuenta · a 100 puntos",
            "Marcador: asiento 0 0 · asiento 1 0",
            "Mesa: vacía",
            "  asiento 0: 6-0 6-1 6-2 6-3 6-4 6-5 6-6",
            "> asiento 1: 4-4 5-0 5-1 5-2 5-3 5-4 5-5",
            "Pozo: 14 fichas",
            "Turno: asiento 1 · opciones: 4-4, 5-0, 5-1, 5-2, 5-3, 5-4, 5-5",
        ]
    )
    rnd.apply(Action.parse("5-5"))
    assert repr(rnd) == "<Round clasico, 2 players, turn 0, 1 on the line>"
    assert "Mesa, con puntas 5 y 5:\n  [5|5]\n" in str(rnd)


@pytest.mark.parametrize("preset", PRESETS)
def test_repr_is_one_short_line_naming_the_object(preset: str) -> None:
    game = played(preset, 6)
    assert repr(game) == f"<Game {preset}, {game.rules.players} players, turn {game.turn}, 6 on the line>"
    assert repr(game.round).startswith(f"<Round {preset}, ")
    finished = played(preset, 10_000)
    assert repr(finished).startswith(f"<Game {preset}, {finished.rules.players} players, over, winners ")
    view = game.view(1)
    shown = f"turn {view.turn}, {len(view.hand)} in hand, 6 on the line>"
    assert repr(view) == f"<PlayerView of seat 1, {preset}, {shown}"
    assert repr(game.view(None)).startswith(f"<PlayerView of a spectator, {preset}, ")
    for text in (repr(game), repr(game.round), repr(view), repr(finished), repr(finished.round)):
        assert "\n" not in text and len(text) < 80
