"""How the terminal shows a game: names, the line, events, options and the board.

Shared by `play` (a human's view) and `replay` (the referee's view). Seats are shown as
the engine numbers them (jugador 0 … n-1); teams in pairs are lettered A, B, C. `you` is the
human's seat, or None when nobody is "tú" (replays).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tranque.engine import (
    Action,
    Draw,
    DrawEvent,
    Drawing,
    Event,
    Play,
    PlayerView,
    PlayEvent,
    Rules,
    Scoring,
    Side,
    Tile,
)
from tranque.engine.presets import PRESETS
from tranque.terminal.catalogue import plural, t

Ends = tuple[int, int] | None

TEAM_LETTERS = "ABC"
END_STYLE = "bold reverse"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def join_names(names: Sequence[str], lang: str) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + t("and", lang) + names[-1]


def player_name(seat: int, lang: str, you: int | None = None) -> str:
    return t("you", lang) if seat == you else t("player", lang, seat=seat)


def team_name(rules: Rules, team: int, lang: str, you: int | None = None) -> str:
    """A team ("pareja A") in pairs, a player in individual."""
    if rules.is_pairs:
        return t("team", lang, letter=TEAM_LETTERS[team])
    return player_name(team, lang, you)


def team_members(rules: Rules, team: int, lang: str, you: int | None = None) -> str:
    """A team's players: "tú y jugador 2", or "jugadores 1 y 3"."""
    seats = rules.seats_of(team)
    if you in seats:
        return join_names([player_name(seat, lang, you) for seat in seats], lang)
    return t("players", lang, seats=join_names([str(seat) for seat in seats], lang))


def team_label(rules: Rules, team: int, lang: str, you: int | None = None) -> str:
    """Like `team_name`, with the team's members: "pareja A (tú y jugador 2)"."""
    name = team_name(rules, team, lang, you)
    if not rules.is_pairs:
        return name
    return f"{name} ({team_members(rules, team, lang, you)})"


def team_subject(rules: Rules, team: int, lang: str, you: int | None = None) -> str:
    """A team as the subject of a sentence: "la pareja A (tú y jugador 2)", "jugador 3"."""
    if not rules.is_pairs:
        return player_name(team, lang, you)
    subject = t("team_subject", lang, letter=TEAM_LETTERS[team])
    return f"{subject} ({team_members(rules, team, lang, you)})"


def describe_rules(rules: Rules, lang: str) -> str:
    preset = PRESETS[rules.preset_name].title if rules.preset_name in PRESETS else rules.preset_name
    seating = t("seating_pairs" if rules.is_pairs else "seating_individual", lang, players=rules.players)
    target = t("target", lang, target=rules.target)
    if rules.goals_to_win is not None:
        target += t("or_goals", lang, goals=rules.goals_to_win)
    return f"{preset} · {seating} · {target}"


def hand_text(tiles: Sequence[Tile]) -> str:
    ordered = sorted(tiles, key=lambda tile: (tile.high, tile.low), reverse=True)
    return " ".join(str(tile) for tile in ordered) or "—"


def line_text(layout: Sequence[tuple[int, int]], lang: str) -> Text:
    """The line left to right as laid, with the two open ends highlighted."""
    if not layout:
        return Text(t("empty_line", lang))
    text = Text()
    for number, (a, b) in enumerate(layout):
        if number:
            text.append(" ")
        text.append(str(a), END_STYLE if number == 0 else "")
        text.append("|")
        text.append(str(b), END_STYLE if number == len(layout) - 1 else "")
    return text


def ends_text(ends: tuple[int, int] | None, lang: str) -> str:
    if ends is None:
        return t("no_ends", lang)
    return t("ends", lang, left=ends[0], right=ends[1])


def where(side: Side, lang: str, ends: Ends = None) -> str:
    """Which end a tile goes to; with both ends equal there is only one place (R8)."""
    if ends is not None and ends[0] == ends[1]:
        return t("at_equal_ends", lang, end=ends[0])
    return t("at_left" if side is Side.LEFT else "at_right", lang)


def ends_after(ends: Ends, event: Event) -> Ends:
    """The two open ends once `event` is played on a line whose ends were `ends`."""
    if not isinstance(event, PlayEvent):
        return ends
    tile = event.tile
    if event.side is None or ends is None:  # the lead: its high half on the left
        return tile.high, tile.low
    left, right = ends
    if event.side is Side.LEFT:
        return tile.pips - left, right
    return left, tile.pips - right


def action_label(action: Action, lang: str, ends: Ends = None) -> str:
    """An option as the human reads it: "6-4 a la izquierda", "robar del pozo", "pasar"."""
    if isinstance(action, Play):
        if action.side is None:
            return t("option_lead", lang, tile=action.tile)
        return f"{action.tile} {where(action.side, lang, ends)}"
    if isinstance(action, Draw):
        return t("option_draw", lang)
    return t("option_pass", lang)


def describe_event(event: Event, lang: str, you: int | None = None, ends: Ends = None) -> str:
    """One event as a sentence: "Jugador 2 juega 5-3 a la derecha", "Robas 5-2". `ends` are
    the line's ends before the event, so a play on two equal ends names no side."""
    mine = event.seat == you
    who = cap(player_name(event.seat, lang, you))
    if isinstance(event, PlayEvent):
        if event.side is None:
            return t("event_lead_you" if mine else "event_lead", lang, who=who, tile=event.tile)
        key = "event_play_you" if mine else "event_play"
        return t(key, lang, who=who, tile=event.tile, where=where(event.side, lang, ends))
    if isinstance(event, DrawEvent):
        if event.tile is None:
            return t("event_draw", lang, who=who)
        return t("event_draw_you" if mine else "event_draw_tile", lang, who=who, tile=event.tile)
    return t("event_pass_you" if mine else "event_pass", lang, who=who)


def scores_text(
    rules: Rules, scores: Sequence[int], goals: Sequence[int], lang: str, you: int | None = None
) -> str:
    parts = []
    for team, score in enumerate(scores):
        part = f"{cap(team_name(rules, team, lang, you))} {score}/{rules.target}"
        if rules.goals_to_win is not None:
            part += t("goals_suffix", lang, goals=goals[team], target=rules.goals_to_win)
        parts.append(part)
    key = "scoreboard_penalty" if rules.scoring is Scoring.PENALTY else "scoreboard"
    return t(key, lang, scores=" · ".join(parts))


def players_table(view: PlayerView, lang: str, you: int | None) -> Table:
    rules = view.rules
    table = Table(box=None, show_header=True, pad_edge=False)
    table.add_column("")
    table.add_column(t("col_player", lang))
    if rules.is_pairs:
        table.add_column(t("col_team", lang))
    table.add_column(t("col_tiles", lang), justify="right")
    partner = rules.partner_of(you) if you is not None else None
    for seat, count in enumerate(view.hand_counts):
        name = cap(player_name(seat, lang, you))
        if seat == partner:
            name += t("partner_suffix", lang)
        marker = "▶" if seat == view.turn and not view.is_over else ""
        row = [marker, name]
        if rules.is_pairs:
            row.append(TEAM_LETTERS[rules.team_of(seat)])
        row.append(str(count))
        table.add_row(*row)
    return table


def board(view: PlayerView, round_number: int, lang: str) -> Group:
    """The whole table as `view.seat` sees it."""
    rules, you = view.rules, view.seat
    header = Text(f"{t('round_title', lang, number=round_number + 1)} · {describe_rules(rules, lang)}")
    header.stylize("bold")
    if rules.drawing is Drawing.NONE:
        boneyard = t("no_boneyard", lang)
    else:
        boneyard = t("boneyard_count", lang, tiles=plural("tiles", view.boneyard_count, lang))
    parts: list[Text | Table] = [
        header,
        Text(scores_text(rules, view.scores, view.goals, lang, you)),
        players_table(view, lang, you),
        Text.assemble(t("line_label", lang), line_text(view.layout, lang)),
        Text(f"{ends_text(view.ends, lang)} · {boneyard}"),
    ]
    if you is not None:
        parts.append(Text.assemble(t("your_hand", lang), (hand_text(view.hand), "bold")))
    return Group(*parts)
