"""The board as text: what `print(game)`, `str(round)` and `str(view)` show.

Each shows what its object knows. A `Game` or a `Round` holds the whole deal, so every hand
is shown; a `PlayerView` shows its own seat's hand and only how many tiles the others hold.
The line is drawn as laid, left to right, each tile's halves in table order (touching halves
match). ``>`` marks the seat to act, whose options are in the engine's notation
(`Action.parse` reads them back). `str()` is in Spanish, as the engine's messages are;
`board("en")` gives the same in English. `repr()` stays one short line.

>>> from tranque.engine import Action, Game, Rules
>>> game = Game(Rules.preset("clasico"), seed=42)
>>> for move in ("6-6", "6-0"):
...     _ = game.apply(Action.parse(move))
>>> print(game.board("en"))
clasico · 4 players in pairs · to 100 points · round 1
Score: team A 0 · team B 0
Line, with ends 0 and 6:
  [0|6][6|6]
> seat 0 (A): 3-0 4-1 4-3 4-4 5-0 5-2 6-4
  seat 1 (B): 1-0 2-2 4-0 5-5 6-1 6-2 6-5
  seat 2 (A): 3-1 3-2 4-2 5-1 5-4 6-3
  seat 3 (B): 0-0 1-1 2-0 2-1 3-3 5-3
Boneyard: 0 tiles
Turn: seat 0 · options: 3-0i, 5-0i, 6-4d
>>> game
<Game clasico, 4 players, turn 0, 2 on the line>
>>> game.view(0)
<PlayerView of seat 0, clasico, turn 0, 7 in hand, 2 on the line>
>>> print(game.view(0))
clasico · 4 jugadores por parejas · a 100 puntos · vista del asiento 0
Marcador: pareja A 0 · pareja B 0
Mesa, con puntas 0 y 6:
  [0|6][6|6]
> asiento 0 (A): 3-0 4-1 4-3 4-4 5-0 5-2 6-4
  asiento 1 (B): 7 fichas
  asiento 2 (A): 6 fichas
  asiento 3 (B): 6 fichas
Pozo: 0 fichas
Turno: asiento 0 · opciones: 3-0i, 5-0i, 6-4d
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tranque.engine.actions import Action
from tranque.engine.errors import render
from tranque.engine.rules import Rules
from tranque.engine.scoring import RoundEnd, RoundResult
from tranque.engine.tiles import Tile

TEAM_LETTERS = "ABC"
TILES_PER_ROW = 12  # the line wraps so that a board stays within 80 columns


@dataclass(frozen=True)
class Board:
    """What one board shows: the public table, and the hands its owner knows (None where only
    the count is known)."""

    rules: Rules
    layout: Sequence[tuple[int, int]]
    ends: tuple[int, int] | None
    hands: Sequence[Sequence[Tile] | None]
    hand_counts: Sequence[int]
    boneyard_count: int
    turn: int | None  # None once nobody is to act
    legal_actions: Sequence[Action]
    scores: Sequence[int]
    goals: Sequence[int]
    result: RoundResult | None
    round_number: int | None = None  # 0-based; None for a round on its own
    seen_by: int | None = None  # the seat of a player's view
    spectator: bool = False
    winners: Sequence[int] = ()

    def text(self, lang: str) -> str:
        """The board in `lang` ("es" or "en"), one line per row, without a final newline."""
        lines = [self._header(lang), self._scores(lang), *self._line(lang)]
        for seat, count in enumerate(self.hand_counts):
            lines.append(self._seat(seat, count, lang))
        lines.append(render("board_boneyard", lang, tiles=_tiles(self.boneyard_count, lang)))
        lines.extend(self._status(lang))
        return "\n".join(lines)

    def _header(self, lang: str) -> str:
        rules = self.rules
        parts = [
            rules.preset_name,
            render(
                "board_players_pairs" if rules.is_pairs else "board_players_individual", lang, n=rules.players
            ),
            render("board_target", lang, n=rules.target),
        ]
        if rules.goals_to_win:
            parts.append(render("board_goals_to_win", lang, n=rules.goals_to_win))
        if self.round_number is not None:
            parts.append(render("board_round", lang, n=self.round_number + 1))
        if self.seen_by is not None:
            parts.append(render("board_seen_by", lang, seat=self.seen_by))
        elif self.spectator:
            parts.append(render("board_spectator", lang))
        return " · ".join(parts)

    def _scores(self, lang: str) -> str:
        parts = []
        for team, score in enumerate(self.scores):
            part = f"{_team_name(self.rules, team, lang)} {score}"
            if self.rules.goals_to_win:
                part += " " + render("board_goals", lang, n=self.goals[team])
            parts.append(part)
        return render("board_score", lang, scores=" · ".join(parts))

    def _line(self, lang: str) -> list[str]:
        if self.ends is None:
            return [render("board_line_empty", lang)]
        laid = [f"[{first}|{second}]" for first, second in self.layout]
        rows = [
            "  " + "".join(laid[start : start + TILES_PER_ROW])
            for start in range(0, len(laid), TILES_PER_ROW)
        ]
        return [render("board_line", lang, left=self.ends[0], right=self.ends[1]), *rows]

    def _seat(self, seat: int, count: int, lang: str) -> str:
        mark = ">" if seat == self.turn else " "
        name = render("board_seat", lang, seat=seat)
        if self.rules.is_pairs:
            name += f" ({TEAM_LETTERS[self.rules.team_of(seat)]})"
        hand = self.hands[seat]
        shown = " ".join(str(tile) for tile in hand) if hand is not None else _tiles(count, lang)
        if hand is not None and not hand:
            shown = render("board_no_tiles", lang)
        return f"{mark} {name}: {shown}"

    def _status(self, lang: str) -> list[str]:
        lines = []
        result = self.result
        if result is not None:
            points = " · ".join(str(points) for points in result.points)
            if result.kind is RoundEnd.DOMINO:
                lines.append(render("board_over_domino", lang, seat=result.winner_seat, points=points))
            elif result.winner is None:
                lines.append(render("board_over_tranque_tie", lang, points=points))
            else:
                winner = _team_name(self.rules, result.winner, lang)
                lines.append(render("board_over_tranque", lang, winner=winner, points=points))
        if self.winners:
            names = ", ".join(_team_name(self.rules, team, lang) for team in self.winners)
            lines.append(render("board_game_over", lang, winners=names))
        elif self.turn is not None:
            status = render("board_turn", lang, seat=self.turn)
            if self.legal_actions:
                options = ", ".join(str(action) for action in self.legal_actions)
                status += " · " + render("board_may", lang, actions=options)
            lines.append(status)
        elif result is None:
            lines.append(render("board_between_rounds", lang))
        return lines


def _team_name(rules: Rules, team: int, lang: str) -> str:
    if rules.is_pairs:
        return render("board_team", lang, letter=TEAM_LETTERS[team])
    return render("board_seat", lang, seat=team)


def _tiles(count: int, lang: str) -> str:
    return render("board_tile" if count == 1 else "board_tiles", lang, n=count)


def short_repr(kind: str, rules: Rules, turn: int | None, line: int, over: str | None) -> str:
    """``<Round clasico, 4 players, turn 3, 2 on the line>``: what an object is, in a line."""
    state = over if over is not None else "between rounds" if turn is None else f"turn {turn}"
    return f"<{kind} {rules.preset_name}, {rules.players} players, {state}, {line} on the line>"
