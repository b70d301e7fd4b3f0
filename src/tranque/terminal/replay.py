"""`tranque replay FILE`: a saved game told round by round, as the referee saw it."""

from __future__ import annotations

import argparse

from rich.text import Text

from tranque.engine import Drawing, Game
from tranque.engine.record import RecordError, load
from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError, Command, Context
from tranque.terminal.render import cap, describe_event, describe_rules, hand_text, player_name, scores_text
from tranque.terminal.results import game_end, round_end


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("file", metavar="FILE", help=t("opt_replay_file", lang))


def load_game(path: str, lang: str) -> Game:
    try:
        return load(path)
    except FileNotFoundError:
        raise CliError(t("no_such_file", lang, file=path)) from None
    except OSError as error:
        raise CliError(t("cannot_read", lang, file=path, reason=error.strerror)) from None
    except RecordError as error:
        raise CliError(t("bad_record", lang, file=path, reason=error)) from None
    except ValueError:
        raise CliError(t("not_a_record", lang, file=path)) from None


def run(args: argparse.Namespace, ctx: Context) -> int:
    lang, out = ctx.lang, ctx.out
    game = load_game(args.file, lang)
    rules = game.rules
    out.print(Text(t("replay_title", lang, rules=describe_rules(rules, lang)), style="bold"))
    scores = [0] * rules.side_count
    goals = [0] * rules.side_count
    for number, round_ in enumerate(game.rounds):
        out.rule(t("round_start", lang, number=number + 1, seat=round_.starter))
        for seat, hand in enumerate(round_.dealt_hands):
            out.print(f"{cap(player_name(seat, lang))}: {hand_text(hand)}")
        key = "boneyard_dealt" if rules.drawing is Drawing.UNTIL_PLAYABLE else "out_of_play_dealt"
        out.print(t(key, lang, tiles=hand_text(round_.dealt_boneyard)))
        for event in round_.full_events:
            out.print("  " + describe_event(event, lang))
        result = round_.result
        if result is None:
            out.print(t("round_unfinished", lang))
            continue
        for side, points in result.points.items():
            scores[side] += points
        for side, scored in result.goals.items():
            goals[side] += scored
        out.print(round_end(rules, number, result, round_.hands, lang))
        out.print(scores_text(rules, scores, goals, lang))
    if not game.round.is_over:  # an abandoned game, or ponce reaching 20 mid-round
        out.print(scores_text(rules, game.scores, game.goals, lang))
    out.print(game_end(game, lang) if game.is_over else t("game_unfinished", lang))
    return 0


COMMAND = Command("help_replay", configure, run)
