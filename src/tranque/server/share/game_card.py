"""A finished game's share card: who played, on which sides, the final score in tantos, how
the last hand ended, the date and the variant, and that hand's line of play.

Only a kept game gets a card, and a game is kept only once it is over (players/archive.py):
every hand of it is over, and R17 shows all hands at the end of a round, so its last line is
what any spectator of the replay sees. A table whose round is still in play never reaches
this module (http/share.py refuses it). `show_line=False` (a table of shared deals not yet
revealed, whose tiles other tables are still playing) leaves the line out: the card then
holds no tile at all.

`game_card` replays the record with the engine (CPU work): it runs in the share worker,
with the drawing (`render_game`, cards.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from tranque.engine import Rules
from tranque.engine.presets import PRESETS
from tranque.server.share.canvas import ACCENT, MARGIN, MUTED, PAPER, SIDES, WIDTH, Canvas, text_width
from tranque.server.share.texts import day, names_joined, say
from tranque.server.share.tiles import Half, chained, draw_line, line_width
from tranque.server.store import GameRow
from tranque.server.table.choices import ENGLISH
from tranque.server.table.replay_frames import replay_frames


@dataclass(frozen=True)
class Side:
    names: str  # the side's players, "Ana y Beto"
    score: int  # its tantos at the end
    goals: int  # fútbol's goals (0 in every other preset)
    won: bool


@dataclass(frozen=True)
class GameCard:
    """Everything a finished game's card shows: words, numbers, and the last hand's line."""

    lang: str
    headline: str  # «¡Ganaron Ana y Beto!»
    sides: tuple[Side, ...]
    details: str  # «Clásico · a 100 · 4 jugadores por parejas · 7 manos»
    ended: str  # «La última mano se trancó»
    date: str
    line: tuple[Half, ...]  # the last hand's line, left end first; () when not shown

    @property
    def tiles(self) -> int:
        """How many tiles the card shows."""
        return len(self.line)


def preset_title(name: str, lang: str) -> str:
    preset = PRESETS.get(name)
    if preset is None:
        return name
    return ENGLISH.get(name, (preset.title, preset.summary))[0] if lang == "en" else preset.title


@dataclass(frozen=True)
class GameWords:
    """What the summary alone says of a finished game (no replay): the card's words, and its
    page's Open Graph title and description."""

    headline: str
    sides: tuple[Side, ...]
    details: str

    def description(self) -> str:
        """«Ana y Beto 152 · Caro y Dani 87 · Clásico · a 100 · …»"""
        scores = [f"{side.names} {side.score}" for side in self.sides]
        return " · ".join([*scores, self.details])


def game_words(game: GameRow, lang: str) -> GameWords:
    """The words of the kept `game`'s card in `lang`."""
    summary = game.summary
    rules = Rules.from_json(game.record["rules"])
    names = {seat["seat"]: seat["name"] for seat in summary["seats"]}
    winners = set(summary["winners"])
    goals = summary.get("goals") or []
    sides = tuple(
        Side(
            names=names_joined(
                lang, [names.get(s, "?") for s in range(rules.players) if rules.team_of(s) == team]
            ),
            score=summary["scores"][team],
            goals=goals[team] if team < len(goals) else 0,
            won=team in winners,
        )
        for team in range(rules.team_count)
    )
    won = [side.names for side in sides if side.won]
    if len(won) == 1:
        players_won = sum(1 for s in range(rules.players) if rules.team_of(s) in winners)
        headline = say(lang, "won_many" if players_won > 1 else "won_one", names=won[0])
    else:
        headline = say(lang, "tie")
    hands = summary["rounds"]
    details = " · ".join(
        [
            preset_title(game.preset, lang),
            say(lang, "target", target=rules.target),
            say(lang, "players", players=rules.players)
            + (" " + say(lang, "pairs") if rules.is_pairs else ""),
            say(lang, "hands_one") if hands == 1 else say(lang, "hands_many", hands=hands),
        ]
    )
    return GameWords(headline, sides, details)


def game_card(game: GameRow, lang: str, show_line: bool = True) -> GameCard:
    """The card of the kept (so finished) `game`, in `lang`: its words, how its last hand
    ended and (with `show_line`) that hand's line, from the engine's replay of its record."""
    words = game_words(game, lang)
    frames, rounds = replay_frames(game.record)
    last = rounds[-1] if rounds else None
    result = None if last is None else last["result"]
    kind = None if result is None else result["kind"]
    ended = say(
        lang, "ended_domino" if kind == "domino" else "ended_tranque" if kind == "tranque" else "ended_other"
    )
    line: tuple[Half, ...] = ()
    if show_line and last is not None and result is not None:  # a hand that ended: all of it is public
        line = tuple(chained([box["tile"] for box in frames[last["end"]]["line"]]))
    return GameCard(
        lang, words.headline, words.sides, words.details, ended, day(lang, game.finished_at), line
    )


def render_game_card(card: GameCard) -> bytes:
    """The card as a 1200x630 PNG."""
    canvas = Canvas(card.date)
    canvas.fitted_text((MARGIN, 110), card.headline, 56, WIDTH - 2 * MARGIN, PAPER, bold=True)
    canvas.fitted_text((MARGIN, 184), card.details, 26, WIDTH - 2 * MARGIN, MUTED)
    rows = len(card.sides)
    top, bottom = 232, 440 if card.line else 520
    step = min(72.0, (bottom - top) / max(1, rows))
    size = int(min(40, step * 0.6))
    for index, side in enumerate(card.sides):
        y = top + index * step
        colour = SIDES[index % len(SIDES)]
        canvas.draw.rounded_rectangle((MARGIN, y + 4, MARGIN + 14, y + step - 8), radius=4, fill=colour)
        score = f"{side.score}" + (f"  ({say(card.lang, 'goals', goals=side.goals)})" if side.goals else "")
        tantos, small = " " + say(card.lang, "tantos"), size * 2 // 3
        score_width = text_width(score, size, True) + text_width(tantos, small)
        fill = ACCENT if side.won else PAPER  # the winners in the accent colour, bold
        room = WIDTH - 2 * MARGIN - 60 - score_width
        canvas.fitted_text((MARGIN + 30, y), side.names, size, room, fill, bold=side.won)
        canvas.text((WIDTH - MARGIN - text_width(tantos, small), y + size - small), tantos, small, MUTED)
        score_right = WIDTH - MARGIN - text_width(tantos, small)
        canvas.fitted_text((score_right, y), score, size, 400, fill, bold=True, right=True)
    canvas.fitted_text((MARGIN, bottom - 4), card.ended, 26, WIDTH - 2 * MARGIN, MUTED)
    if card.line:
        across = WIDTH - 2 * MARGIN
        half = 30.0  # a half-tile's side, in pixels: smaller until the whole line fits
        while half > 6 and line_width(card.line, half, max(2.0, half / 8)) > across:
            half -= 1
        left = MARGIN + (across - line_width(card.line, half, max(2.0, half / 8))) / 2
        draw_line(canvas.draw, card.line, 510, left, half)
    canvas.footer(say(card.lang, "footer_game"))
    return canvas.png()
