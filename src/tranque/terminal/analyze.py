"""`tranque analyze RECORD.json`: every decision of a saved game judged from what its player
knew then (tranque.bots.analysis): the move played, the best, the expected worth of each
alternative, the loss and its class; then each player's accuracy.

Exit codes: 0 done, 2 a bad option or a file that is not a game record (as `replay`).
"""

from __future__ import annotations

import argparse
import json

from rich.table import Table
from rich.text import Text

from tranque.bots.analysis import DEALS, Decision, GameAnalysis, Verdict, analysis_budget, analyze
from tranque.bots.uniform import rules_unit
from tranque.engine import Rules
from tranque.terminal.catalogue import t
from tranque.terminal.command import CliError, Command, Context, progress_bar
from tranque.terminal.options import positive_int, whole_number
from tranque.terminal.render import TEAM_LETTERS, action_label, cap, describe_rules, player_name
from tranque.terminal.replay import load_game

VERDICT_KEYS = {
    Verdict.ACCURATE: "verdict_accurate",
    Verdict.INACCURACY: "verdict_inaccuracy",
    Verdict.ERROR: "verdict_error",
    Verdict.FORCED: "verdict_forced",
}
VERDICT_STYLES = {Verdict.ACCURATE: "green", Verdict.INACCURACY: "yellow", Verdict.ERROR: "bold red"}


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    parser.add_argument("file", metavar="RECORD.json", help=t("opt_analyze_file", lang))
    parser.add_argument("--seat", type=whole_number(lang), metavar="K", help=t("opt_analyze_seat", lang))
    parser.add_argument(
        "--budget", type=positive_int(lang), default=DEALS, metavar="N", help=t("opt_analyze_budget", lang)
    )
    parser.add_argument(
        "--seed", type=whole_number(lang), default=0, metavar="S", help=t("opt_analyze_seed", lang)
    )
    parser.add_argument("--jobs", type=positive_int(lang), default=1, metavar="J", help=t("opt_jobs", lang))
    parser.add_argument("--json", action="store_true", help=t("opt_analyze_json", lang))


def run(args: argparse.Namespace, ctx: Context) -> int:
    lang = ctx.lang
    game = load_game(args.file, lang)
    rules = game.rules
    if args.seat is not None and not 0 <= args.seat < rules.players:
        raise CliError(t("bad_seat", lang, last=rules.players - 1, seat=args.seat))
    seats = None if args.seat is None else [args.seat]
    progress = progress_bar(ctx, t("analyzing", lang))
    with progress:
        task = progress.add_task("", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        report = analyze(
            game, deals=args.budget, seed=args.seed, seats=seats, jobs=args.jobs, progress=advance
        )
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False), file=ctx.out.file)
        return 0
    show(report, ctx)
    return 0


def show(report: GameAnalysis, ctx: Context) -> None:
    lang, out = ctx.lang, ctx.out
    rules = report.rules
    inaccuracy, error = report.thresholds.points(rules)
    out.print(Text(t("analysis_title", lang, rules=describe_rules(rules, lang)), style="bold"))
    out.print(t("analysis_how", lang, deals=report.deals, seed=report.seed))
    bonus = analysis_budget(report.deals).round_bonus * rules.target
    out.print(t("analysis_worth", lang, bonus=f"{bonus:g}", target=rules.target))
    out.print(t("analysis_classes", lang, inaccuracy=f"{inaccuracy:g}", error=f"{error:g}"))
    out.print(t("analysis_units", lang, unit=unit_name(rules, lang)))
    evaluated = [d for d in report.decisions if d.evaluation is not None]
    if not evaluated:
        out.print(t("analysis_nothing", lang))
    shown_round = -1
    for decision in evaluated:
        if decision.round != shown_round:
            shown_round = decision.round
            out.rule(t("round_title", lang, number=decision.round + 1))
        out.print(decision_text(decision, lang, rules))
        for line in alternatives(decision, lang):
            out.print(line)
        for line in explained(decision, rules, lang):
            out.print(line)
    out.print(accuracy_table(report, lang))


def number_text(value: float) -> str:
    """A worth with its sign and one decimal: "+12.3", "-2.0", "0.0"."""
    text = f"{value:+.1f}"
    return "0.0" if text in ("+0.0", "-0.0") else text


def decision_text(decision: Decision, lang: str, rules: Rules | None = None) -> Text:
    """ "5. Jugador 1: 6-4 a la izquierda · imprecisión, pierde 5.2 (mejor: 5-5 a la derecha)"."""
    who = cap(player_name(decision.seat, lang))
    move = action_label(decision.played, lang, decision.ends)
    verdict = t(VERDICT_KEYS[decision.verdict], lang)
    text = Text(f"{decision.number + 1}. {who}: {move} · ")
    text.append(verdict, VERDICT_STYLES.get(decision.verdict, ""))
    if decision.played == decision.best:
        text.append(t("analysis_was_best", lang))
    elif decision.loss == 0:
        text.append(t("analysis_as_good", lang, best=action_label(decision.best, lang, decision.ends)))
    else:
        best = action_label(decision.best, lang, decision.ends)
        unit = t("analysis_unit_points", lang) if rules is None else unit_name(rules, lang)
        points = f"{decision.loss_points:.1f}"
        text.append(
            t("analysis_lost", lang, loss=f"{decision.loss:.1f}", points=points, unit=unit, best=best)
        )
    return text


def unit_name(rules: Rules, lang: str) -> str:
    """The name of what `loss_points` counts under `rules` ("puntos", "palitos")."""
    return t(f"analysis_unit_{rules_unit(rules)}", lang)


def explained(decision: Decision, rules: Rules, lang: str) -> list[str]:
    """The reasons a flagged move lost, then the expert's note where it reads it otherwise."""
    lines = [t(f"reason_{reason.kind}", lang, **reason.params) for reason in decision.reasons]
    note = decision.model_note
    if note is not None:
        lines.append(
            t(
                "analysis_model_note",
                lang,
                verdict=t(VERDICT_KEYS[note.verdict], lang),
                points=f"{note.loss_points:.1f}",
                unit=unit_name(rules, lang),
                best=action_label(note.best, lang, decision.ends),
            )
        )
    return lines


def alternatives(decision: Decision, lang: str) -> list[str]:
    """One line per legal action, most worth first, the best and the move played marked."""
    assert decision.evaluation is not None
    lines = []
    for action, worth in decision.evaluation.ranked():
        marks = []
        if action == decision.best:
            marks.append(t("mark_best", lang))
        if action == decision.played:
            marks.append(t("mark_played", lang))
        suffix = f" ({', '.join(marks)})" if marks else ""
        lines.append(f"    {number_text(worth):>7}  {action_label(action, lang, decision.ends)}{suffix}")
    return lines


def accuracy_table(report: GameAnalysis, lang: str) -> Table:
    """Each player's accuracy, mean loss and moves by class (80 columns wide at most)."""
    rules: Rules = report.rules
    table = Table(title=t("accuracy_title", lang), box=None, pad_edge=False, header_style="bold underline")
    table.add_column(t("col_player", lang), no_wrap=True)
    for key in (
        "col_accuracy",
        "col_mean_loss",
        "col_accurate",
        "col_inaccuracies",
        "col_errors",
        "col_forced",
    ):
        table.add_column(t(key, lang), justify="right")
    for player in report.players:
        name = cap(player_name(player.seat, lang))
        if rules.is_pairs:
            name += f" ({TEAM_LETTERS[rules.team_of(player.seat)]})"
        table.add_row(
            name,
            "—" if player.accuracy is None else f"{player.accuracy:.0f} %",
            "—" if player.mean_loss is None else f"{player.mean_loss:.1f}",
            str(player.accurate),
            str(player.inaccuracies),
            str(player.errors),
            str(player.forced),
        )
    table.caption = t("accuracy_note", lang)
    return table


COMMAND = Command("help_analyze", configure, run)
