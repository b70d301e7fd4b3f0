"""How a finished round and a finished game are told: who won, how, who scores what, and why."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tranque.engine import Game, RoundEnd, RoundResult, Rules, Scoring, Tile, TranqueCount
from tranque.terminal.catalogue import t
from tranque.terminal.render import (
    TEAM_LETTERS,
    cap,
    hand_text,
    join_names,
    player_name,
    side_name,
    side_subject,
)


def headline(rules: Rules, result: RoundResult, lang: str, you: int | None) -> str:
    """Dominó, tranque or empate, and who won it."""
    if result.tie:
        return t("tranque_draw" if rules.scoring is Scoring.PENALTY else "tranque_tie", lang)
    assert result.winner is not None and result.winner_seat is not None
    if result.kind is RoundEnd.DOMINO:
        if result.winner_seat == you:
            return t("domino_you", lang)
        return t("domino", lang, who=cap(player_name(result.winner_seat, lang, you)))
    if result.winner_seat == you and not (rules.is_pairs and rules.tranque_count is TranqueCount.TEAM):
        return t("tranque_won_you", lang, pips=result.seat_counts[result.winner_seat])
    if rules.is_pairs and rules.tranque_count is TranqueCount.TEAM:
        who, pips = side_subject(rules, result.winner, lang, you), result.counts[result.winner]
    else:
        who, pips = player_name(result.winner_seat, lang, you), result.seat_counts[result.winner_seat]
        if rules.is_pairs:
            who += f" ({side_name(rules, result.winner, lang, you)})"
    return t("tranque_won", lang, who=who, pips=pips)


def reason(rules: Rules, result: RoundResult, lang: str, you: int | None) -> str | None:
    """Why the points are what they are; None on a tie that scores nothing."""
    if result.tie and rules.scoring is not Scoring.PENALTY:
        return None
    if rules.scoring is Scoring.PENALTY:
        why = t("why_penalty", lang)
    elif rules.scoring is Scoring.FUTBOL:
        scorers = list(result.goals)
        if scorers and scorers[0] == you:
            why = t("why_futbol_goal_you", lang)
        elif scorers:
            why = t("why_futbol_goal", lang, who=player_name(scorers[0], lang, you))
        else:
            why = t("why_futbol", lang)
    elif rules.scoring is Scoring.PONCE:
        why = t("why_ponce", lang)
    elif rules.scoring is Scoring.OPPONENTS_ONLY:
        why = t("why_opponents", lang)
    elif rules.is_pairs and result.kind is RoundEnd.TRANQUE:
        why = t("why_all_hands", lang)
    elif rules.is_pairs:
        why = t("why_others_partner", lang)
    else:
        why = t("why_others", lang)
    if result.capicua:
        why += t("why_capicua", lang, bonus=rules.capicua_bonus)
    return t("why", lang, why=why)


def points_text(rules: Rules, result: RoundResult, lang: str, you: int | None) -> str:
    parts = [
        f"{cap(side_name(rules, side, lang, you))} +{points}"
        for side, points in sorted(result.points.items())
    ]
    return t("points_line", lang, points=" · ".join(parts))


def hands_table(rules: Rules, hands: Sequence[Sequence[Tile]], lang: str, you: int | None) -> Table:
    table = Table(box=None, pad_edge=False)
    table.add_column(t("col_player", lang))
    if rules.is_pairs:
        table.add_column(t("col_team", lang))
    table.add_column(t("col_hand", lang))
    table.add_column(t("col_pips", lang), justify="right")
    for seat, hand in enumerate(hands):
        row = [cap(player_name(seat, lang, you))]
        if rules.is_pairs:
            row.append(TEAM_LETTERS[rules.side_of(seat)])
        row += [hand_text(hand), str(sum(tile.pips for tile in hand))]
        table.add_row(*row)
    return table


def round_end(
    rules: Rules,
    number: int,
    result: RoundResult,
    hands: Sequence[Sequence[Tile]],
    lang: str,
    you: int | None = None,
) -> Group:
    """The end of round `number` (0-based): the result, every hand, the points and why."""
    title = Text(t("round_over", lang, number=number + 1, headline=headline(rules, result, lang, you)))
    title.stylize("bold")
    parts: list[Text | Table] = [title, hands_table(rules, hands, lang, you)]
    why = reason(rules, result, lang, you)
    if why is not None:
        parts.append(Text(why))
    parts.append(Text(points_text(rules, result, lang, you)))
    return Group(*parts)


def game_end(game: Game, lang: str, you: int | None = None) -> Text:
    """The winner (or winners, on an en-contra tie) of a finished game."""
    rules = game.rules
    if you is not None and rules.side_of(you) in game.winners and len(game.winners) == 1:
        message = t("you_won_team" if rules.is_pairs else "you_won", lang)
    else:
        names = [side_subject(rules, side, lang, you) for side in game.winners]
        key = "game_won" if len(names) == 1 else "game_shared"
        message = t(key, lang, who=join_names(names, lang))
    text = Text(message)
    text.stylize("bold")
    return text
