"""`tranque replay FILE`: a saved game told round by round, as the referee saw it."""

from __future__ import annotations

import argparse

from rich.text import Text

from tranque.engine import Drawing, Game
from tranque.engine.record import RecordError, replay
from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError, Command, Context
from tranque.terminal.record_file import read_record
from tranque.terminal.render import (
    Ends,
    cap,
    describe_event,
    describe_rules,
    ends_after,
    hand_text,
    player_name,
    scores_text,
)
from tranque.terminal.results import game_end, round_end


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("file", metavar="FILE", help=t("opt_replay_file", lang))


def load_game(path: str, lang: str) -> Game:
    data = read_record(path, lang)
    try:
        return replay(data)
    except RecordError as error:
        raise CliError(t("bad_record", lang, file=path, reason=error.text(lang))) from None


def run(args: argparse.Namespace, ctx: Context) -> int:
    lang, out = ctx.lang, ctx.out
    game = load_game(args.file, lang)
    rules = game.rules
    out.print(Text(t("replay_title", lang, rules=describe_rules(rules, lang)), style="bold"))
    scores = [0] * rules.team_count
    goals = [0] * rules.team_count
    for number, round_ in enumerate(game.rounds):
        out.rule(t("round_start", lang, number=number + 1, seat=round_.starter))
        for seat, hand in enumerate(round_.dealt_hands):
            out.print(f"{cap(player_name(seat, lang))}: {hand_text(hand)}")
        key = "boneyard_dealt" if rules.drawing is Drawing.UNTIL_PLAYABLE else "out_of_play_dealt"
        out.print(t(key, lang, tiles=hand_text(round_.dealt_boneyard)))
        ends: Ends = None
        for event in round_.full_events:
            out.print("  " + describe_event(event, lang, ends=ends))
            ends = ends_after(ends, event)
        result = round_.result
        if result is None:
            out.print(t("round_unfinished", lang))
            continue
        for team in range(rules.team_count):
            scores[team] += result.points[team]
            goals[team] += result.goals[team]
        out.print(round_end(rules, number, result, round_.hands, lang))
        out.print(scores_text(rules, scores, goals, lang))
    if not game.round.is_over:  # an abandoned game, or ponce reaching 20 mid-round
        out.print(scores_text(rules, game.scores, game.goals, lang))
    out.print(game_end(game, lang) if game.is_over else t("game_unfinished", lang))
    return 0


COMMAND = Command("help_replay", configure, run)
