"""`tranque play`: a human in the terminal against bots.

The human picks an option by its number, or types a tile ("6-4", then i/d when it fits
both ends; "6-4 d" in one go also works); "q" quits. Input comes from `Context.read_line`,
so tests script a whole game. `--record` is checked before the first deal and written
however the game ends: played out, q, the end of the input or Ctrl-C.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from rich.text import Text

from tranque.bots import Bot, bot_names, make_bot
from tranque.engine import Action, Game, IllegalAction, PassEvent, Play, PlayerView, Side, Tile
from tranque.engine.events import public
from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError, Command, Context
from tranque.terminal.options import add_table_options, rules_from_args, whole_number
from tranque.terminal.record_file import check_writable, write_record
from tranque.terminal.render import (
    action_label,
    board,
    describe_event,
    describe_rules,
    hand_text,
    scores_text,
    where,
)
from tranque.terminal.results import ended_mid_round, game_end, pass_points_text, round_end

QUIT_WORDS = {"q", "quit", "salir"}
BACK_WORDS = {"v", "volver", "b", "back"}
LEFT_WORDS = {"i", "izq", "izquierda", "l", "left"}
RIGHT_WORDS = {"d", "der", "derecha", "r", "right"}


class Quit(Exception):
    """The human asked to leave (q, or the end of the input)."""


class BadInput(Exception):
    """Input that is not a legal choice; the message says why, and the human is asked again."""


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    add_table_options(parser, lang)
    parser.add_argument("--bot", default="greedy", help=t("opt_bot", lang, bots=", ".join(bot_names())))
    parser.add_argument("--seat", type=whole_number(lang), default=0, metavar="K", help=t("opt_seat", lang))
    parser.add_argument("--seed", type=whole_number(lang), metavar="S", help=t("opt_seed_play", lang))
    parser.add_argument("--record", metavar="FILE", help=t("opt_record_play", lang))


def run(args: argparse.Namespace, ctx: Context) -> int:
    rules = rules_from_args(args, ctx.lang)
    if not 0 <= args.seat < rules.players:
        raise CliError(t("bad_seat", ctx.lang, seat=args.seat, last=rules.players - 1))
    seeds = random.Random(args.seed)
    try:
        bots = {
            seat: make_bot(args.bot, seed=None if args.seed is None else seeds.getrandbits(64))
            for seat in range(rules.players)
            if seat != args.seat
        }
    except ValueError:
        raise CliError(t("bad_bot", ctx.lang, bot=args.bot, bots=", ".join(bot_names()))) from None
    if args.record:
        check_writable(args.record, ctx.lang)
    game = Game(rules, seed=args.seed)
    ctx.out.print(t("welcome", ctx.lang, rules=describe_rules(rules, ctx.lang), seat=args.seat))
    try:
        Match(game, args.seat, bots, ctx).play()
    finally:  # Ctrl-C too: main says "Interrumpido." once the game is safe
        if args.record:
            write_record(game, args.record, ctx.lang)
            ctx.out.print(t("record_saved", ctx.lang, file=Path(args.record)), soft_wrap=True)
    return 0


def parse_side(text: str) -> Side | None:
    word = text.strip().lower()
    if word in LEFT_WORDS:
        return Side.LEFT
    if word in RIGHT_WORDS:
        return Side.RIGHT
    return None


def notation_of(word: str) -> Action | None:
    """The action `word` writes in the library's notation, or None if it is not that."""
    try:
        return Action.parse(word)
    except IllegalAction:
        return None


class Match:
    """One game between the human at seat `you` and the bots in every other seat."""

    def __init__(self, game: Game, you: int, bots: dict[int, Bot], ctx: Context) -> None:
        self.game, self.you, self.bots, self.ctx = game, you, bots, ctx
        self.lang = ctx.lang

    def play(self) -> None:
        """Play to the end, or until the human quits."""
        try:
            self._play()
        except Quit:
            self.ctx.out.print(t("quit", self.lang))

    def _play(self) -> None:
        game = self.game
        self.announce_round()
        while not game.is_over:
            if game.round.is_over:
                self.show_round_end()
                self.pause()
                game.start_next_round()
                self.announce_round()
            seat = game.round.turn
            if seat == self.you:
                action = self.ask(game.view(seat))
            else:
                action = self.bots[seat].choose(game.view(seat))
            self.apply(action)
        if game.round.is_over:
            self.show_round_end()
        else:  # ponce (C6): a pass took a team to the target mid-round
            self.ctx.out.print(ended_mid_round(game, self.lang, self.you))
            self.ctx.out.print(scores_text(game.rules, game.scores, game.goals, self.lang, self.you))
        self.ctx.out.print(game_end(game, self.lang, self.you))

    def apply(self, action: Action) -> None:
        """Apply `action` and tell it, with the palitos a ponce pass scores (V6)."""
        game, out = self.game, self.ctx.out
        ends, scores = game.round.ends, list(game.scores)
        game.apply(action)
        event = public(game.round.full_events[-1], self.you)
        out.print(describe_event(event, self.lang, self.you, ends))
        if isinstance(event, PassEvent):
            for team, (before, after) in enumerate(zip(scores, game.scores, strict=True)):
                if after > before:
                    out.print(pass_points_text(team, after - before, self.lang))

    def read(self, prompt: str) -> str:
        self.ctx.out.print(prompt, end="")
        try:
            text = self.ctx.read_line()
        except EOFError:
            raise Quit from None
        if text.strip().lower() in QUIT_WORDS:
            raise Quit
        return text

    def announce_round(self) -> None:
        game, lang = self.game, self.lang
        starter = game.round.starter
        key = "round_start_you" if starter == self.you else "round_start"
        self.ctx.out.rule(t(key, lang, number=game.round_number + 1, seat=starter))
        self.ctx.out.print(t("your_hand", lang) + hand_text(game.view(self.you).hand))

    def show_round_end(self) -> None:
        game = self.game
        result = game.round.result
        assert result is not None
        out = self.ctx.out
        out.print(round_end(game.rules, game.round_number, result, game.round.hands, self.lang, self.you))
        out.print(scores_text(game.rules, game.scores, game.goals, self.lang, self.you))

    def pause(self) -> None:
        self.read(t("press_enter", self.lang))

    def ask(self, view: PlayerView) -> Action:
        out, lang = self.ctx.out, self.lang
        out.print(board(view, self.game.round_number, lang))
        options = list(view.legal_actions)
        for number, action in enumerate(options, start=1):
            out.print(f"  {number}) {action_label(action, lang, view.ends)}")
        choices = "1" if len(options) == 1 else f"1-{len(options)}"
        while True:
            try:
                return self.interpret(self.read(t("prompt", lang, choices=choices)), options, view)
            except BadInput as problem:
                self.complain(str(problem))

    def interpret(self, text: str, options: list[Action], view: PlayerView) -> Action:
        """The option `text` names: its number, a tile with an optional end ("6-4", "6-4 d"),
        or the library's notation (`Action.parse`: "6-4d", "6-4r", "robar", "pass")."""
        lang, words = self.lang, text.split()
        if not words:
            raise BadInput(t("input_help", lang))
        if words[0].isdigit():
            number = int(words[0])
            if len(words) > 1:
                raise BadInput(t("one_number", lang, text=text.strip()))
            if not 1 <= number <= len(options):
                raise BadInput(t("no_such_option", lang, text=text.strip(), count=len(options)))
            return options[number - 1]
        notation = notation_of(words[0]) if len(words) == 1 else None
        if notation is not None and not isinstance(notation, Play):
            if notation not in options:
                raise BadInput(t("action_not_offered", lang, action=notation.describe(lang)))
            return notation
        try:
            tile = notation.tile if isinstance(notation, Play) else Tile.parse(words[0])
        except ValueError:
            raise BadInput(t("not_understood", lang, text=text.strip())) from None
        if len(words) > 2:
            raise BadInput(t("not_understood", lang, text=text.strip()))
        plays = [a for a in options if isinstance(a, Play) and a.tile == tile]
        if not plays:
            key = "tile_does_not_fit" if tile in view.hand else "not_your_tile"
            raise BadInput(t(key, lang, tile=tile))
        if isinstance(notation, Play) and notation.side is not None:
            return self.placed(tile, plays, notation.side, view)
        if len(words) > 1:
            side = parse_side(words[1])
            if side is None:
                raise BadInput(t("bad_end", lang))
            return self.placed(tile, plays, side, view)
        if len(plays) == 1:
            return plays[0]
        assert view.ends is not None
        while True:
            answer = self.read(t("which_end", lang, tile=tile, left=view.ends[0], right=view.ends[1]))
            if answer.strip().lower() in BACK_WORDS:
                raise BadInput(t("choose_again", lang))
            side = parse_side(answer)
            if side is not None:
                return Play(tile, side)
            self.complain(t("bad_end", lang))

    def placed(self, tile: Tile, plays: list[Play], side: Side, view: PlayerView) -> Play:
        """The play of `tile` at the end `side`."""
        for play in plays:
            # A lead has no end, and with equal ends the engine lists only the left play.
            if play.side in (side, None) or (len(plays) == 1 and view.ends and view.ends[0] == view.ends[1]):
                return play
        assert view.ends is not None
        end = view.ends[0] if side is Side.LEFT else view.ends[1]
        raise BadInput(t("wrong_end", self.lang, tile=tile, where=where(side, self.lang), end=end))

    def complain(self, message: str) -> None:
        self.ctx.out.print(Text(message, style="bold red"))


COMMAND = Command("help_play", configure, run)
