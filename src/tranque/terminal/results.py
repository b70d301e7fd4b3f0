"""How a finished round and a finished game are told: who won, how, who scores what, and why."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tranque.engine import Game, RoundEnd, RoundResult, Rules, Scoring, Tile, TranqueCount
from tranque.terminal.catalogue import number_word, plural, t
from tranque.terminal.render import (
    TEAM_LETTERS,
    cap,
    hand_text,
    join_names,
    player_name,
    team_name,
    team_subject,
)


def headline(rules: Rules, result: RoundResult, lang: str, you: int | None) -> str:
    """Dominó, tranque or empate, and who won it."""
    if result.tie:
        if rules.scoring is Scoring.PENALTY:
            return t("tranque_draw", lang)
        if rules.scoring is Scoring.PONCE:
            return t("tranque_tie_ponce", lang)
        return t("tranque_tie", lang)
    assert result.winner is not None and result.winner_seat is not None
    if result.kind is RoundEnd.DOMINO:
        if result.winner_seat == you:
            return t("domino_you", lang)
        return t("domino", lang, who=cap(player_name(result.winner_seat, lang, you)))
    counted_by_team = rules.is_pairs and rules.tranque_count is TranqueCount.TEAM
    if counted_by_team:
        who, count = team_subject(rules, result.winner, lang, you), result.counts[result.winner]
        tied = any(c == count for team, c in enumerate(result.counts) if team != result.winner)
    else:
        who, count = player_name(result.winner_seat, lang, you), result.seat_counts[result.winner_seat]
        tied = any(
            c == count and rules.team_of(seat) != result.winner for seat, c in enumerate(result.seat_counts)
        )
        if rules.is_pairs:
            who += f" ({team_name(rules, result.winner, lang, you)})"
    pips = plural("pips", count, lang)
    if tied:  # salon, maracucho: the tie goes to the starter or the nearest after them
        return t("tranque_tie_broken", lang, who=who, pips=pips)
    if result.winner_seat == you and not counted_by_team:
        return t("tranque_won_you", lang, pips=pips)
    return t("tranque_won", lang, who=who, pips=pips)


def reason(rules: Rules, result: RoundResult, lang: str, you: int | None) -> str | None:
    """Why the points are what they are; None on a tie that scores nothing."""
    if rules.scoring is Scoring.PONCE:
        return t("why", lang, why=ponce_breakdown(rules, result, lang, you))
    if result.tie and rules.scoring is not Scoring.PENALTY:
        return None
    if rules.scoring is Scoring.PENALTY:
        why = t("why_penalty", lang)
    elif rules.scoring is Scoring.FUTBOL:
        scorers = [team for team, goals in enumerate(result.goals) if goals]
        if scorers and scorers[0] == you:
            why = t("why_futbol_goal_you", lang)
        elif scorers:
            why = t("why_futbol_goal", lang, who=player_name(scorers[0], lang, you))
        else:
            why = t("why_futbol", lang)
    elif rules.scoring is Scoring.OPPONENTS_ONLY:
        why = t("why_opponents", lang)
    elif rules.is_pairs and result.kind is RoundEnd.TRANQUE:
        why = t("why_all_hands", lang)
    elif rules.is_pairs:
        why = t("why_others_partner", lang, hands=number_word(rules.players - 1, lang))
    else:
        why = t("why_others", lang)
    if result.capicua:
        why += t("why_capicua", lang, bonus=rules.capicua_bonus)
    return t("why", lang, why=why)


def ponce_breakdown(rules: Rules, result: RoundResult, lang: str, you: int | None) -> str:
    """Each team's palitos as passes + the blocker's 2 + the pips rounded to tens (V6)."""
    domino = result.kind is RoundEnd.DOMINO
    parts = []
    for team in range(rules.team_count):
        passes, blocker = result.pass_points[team], result.blocker_points[team]
        rounded = result.points[team] - passes - blocker
        terms = []
        if passes:
            terms.append(t("ponce_passes", lang, palitos=plural("palitos", passes, lang)))
        if blocker:
            terms.append(t("ponce_blocker", lang, palitos=plural("palitos", blocker, lang)))
        if team == result.winner and result.winner_seat is not None:
            taken = sum(result.seat_counts) - (result.seat_counts[result.winner_seat] if domino else 0)
            key = "ponce_pips_domino" if domino else "ponce_pips_tranque"
            terms.append(
                t(key, lang, palitos=plural("palitos", rounded, lang), pips=plural("pips", taken, lang))
            )
        if terms:
            parts.append(f"{cap(team_name(rules, team, lang, you))}: {' + '.join(terms)}")
    return " · ".join(parts) if parts else t("ponce_nothing", lang)


def points_text(rules: Rules, result: RoundResult, lang: str, you: int | None) -> str:
    parts = [
        f"{cap(team_name(rules, team, lang, you))} +{result.points[team]}" for team in range(rules.team_count)
    ]
    return t("points_line", lang, points=" · ".join(parts))


def pass_points_text(team: int, gained: int, lang: str) -> str:
    """A ponce pass that scores, told when it happens: "+1 palito para la pareja B"."""
    key = "pass_points_first" if gained > 1 else "pass_points"
    who = t("team_subject", lang, letter=TEAM_LETTERS[team])
    return t(key, lang, palitos=plural("palitos", gained, lang), who=who)


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
            row.append(TEAM_LETTERS[rules.team_of(seat)])
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


def ended_mid_round(game: Game, lang: str, you: int | None = None) -> str:
    """Ponce (C6): a pass took a team to the target, which ends the game there and then."""
    (team,) = game.winners
    return t("game_over_mid_round", lang, who=cap(team_subject(game.rules, team, lang, you)))


def game_end(game: Game, lang: str, you: int | None = None) -> Text:
    """The winner (or winners, on an en-contra tie) of a finished game."""
    rules = game.rules
    if you is not None and rules.team_of(you) in game.winners and len(game.winners) == 1:
        message = t("you_won_team" if rules.is_pairs else "you_won", lang)
    else:
        names = [team_subject(rules, team, lang, you) for team in game.winners]
        key = "game_won" if len(names) == 1 else "game_shared"
        message = t(key, lang, who=join_names(names, lang))
    text = Text(message)
    text.stylize("bold")
    return text
