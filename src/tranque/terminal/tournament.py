"""`tranque tournament simulate`: a whole tournament played by bots, with no server.

The tournament is the server's own machine (tranque.server.tournaments.machine): registered,
started, paired round after round and finished exactly as on the site, but every game is
played here by the engine with the bots, and its end handed to the machine as the table's
`GameOutcome` would be. The bots of `--bots` are given to the entrants in turn (a pair's two
players play the same level), each level rated by its strength for the seeding.

A simulated clock stands in for time: a game lasts `SECONDS_PER_HAND` per hand played, the
games of a round start together and end one by one, so an arena re-pairs whoever finishes
first and stops pairing when its window (simulated) is over.

Deterministic for a seed: one `random.Random(seed)` hands out the pairings' randomness and
every game's and bot's seed in a fixed order; the tables of a duplicado round share their
deal seed, as the site's tables share their deals. Without `--seed` one is drawn and shown.
"""

from __future__ import annotations

import argparse
import heapq
import itertools
import random
import secrets
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from rich.console import Group
from rich.table import Table
from rich.text import Text

from tranque.bots import bot_names, make_bot
from tranque.bots.arena import play_out
from tranque.engine import Game, Rules, RulesError
from tranque.server.table.outcome import GameOutcome, SeatOutcome
from tranque.server.tournaments.config import Entry, Format, TournamentConfig, TournamentError, seating
from tranque.server.tournaments.machine import CreateTable, PlannedGame, Status, Tournament
from tranque.terminal.catalogue import LANGS, t
from tranque.terminal.command import CliError, Command, Context, progress_bar
from tranque.terminal.options import positive_int, whole_number
from tranque.terminal.render import describe_rules

SECONDS_PER_HAND = 150.0  # the simulated length of a hand (the arena's clock)
DEFAULT_BOTS = "expert,heuristic"
DEFAULT_ROUNDS = 5


def configure(parser: argparse.ArgumentParser, lang: str) -> None:
    actions = parser.add_subparsers(dest="action", metavar="ACTION", title=t("opt_tournament_action", lang))
    actions.required = True
    sim: argparse.ArgumentParser = actions.add_parser(
        "simulate",
        help=t("help_tournament_simulate", lang),
        description=t("help_tournament_simulate", lang),
        lang=lang,  # cli.Parser, which speaks the reader's language
        allow_abbrev=False,
        add_help=False,
        formatter_class=parser.formatter_class,
    )
    sim._optionals.title = t("options_title", lang)
    sim.add_argument("-h", "--help", action="help", help=t("opt_help", lang))
    sim.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS, help=t("opt_lang", lang))
    sim.add_argument(
        "--format", choices=[f.value for f in Format], default="suizo", help=t("opt_tournament_format", lang)
    )
    sim.add_argument(
        "--entry", choices=[e.value for e in Entry], default="duel", help=t("opt_tournament_entry", lang)
    )
    sim.add_argument(
        "--entrants",
        type=positive_int(lang),
        default=16,
        metavar="N",
        help=t("opt_tournament_entrants", lang),
    )
    sim.add_argument(
        "--rounds", type=positive_int(lang), metavar="N", help=t("opt_tournament_rounds", lang, default=5)
    )
    sim.add_argument(
        "--bots",
        default=DEFAULT_BOTS,
        metavar="BOT,BOT…",
        help=t("opt_tournament_bots", lang, bots=", ".join(bot_names())),
    )
    sim.add_argument("--preset", default="clasico", help=t("opt_tournament_preset", lang))
    sim.add_argument("--target", type=positive_int(lang), metavar="T", help=t("opt_tournament_target", lang))
    sim.add_argument(
        "--hands", type=positive_int(lang), default=4, metavar="N", help=t("opt_tournament_hands", lang)
    )
    sim.add_argument(
        "--window", type=positive_int(lang), default=60, metavar="MIN", help=t("opt_tournament_window", lang)
    )
    sim.add_argument("--seed", type=whole_number(lang), metavar="S", help=t("opt_seed", lang))
    sim.add_argument("--jobs", type=positive_int(lang), default=1, metavar="J", help=t("opt_jobs", lang))


def chosen_bots(text: str, lang: str) -> list[str]:
    """The comma-separated bot levels of `--bots`, each one of the built-in levels."""
    bots = [word.strip() for word in text.split(",") if word.strip()]
    for bot in bots:
        if bot not in bot_names():
            raise CliError(t("bad_arena_bot", lang, bot=bot, bots=", ".join(bot_names())))
    if not bots:
        raise CliError(t("tournament_no_bots", lang, bots=", ".join(bot_names())))
    return bots


def config_from_args(args: argparse.Namespace, lang: str) -> TournamentConfig:
    """The tournament the options describe; a bad one is the machine's refusal, in `lang`."""
    fmt, entry = Format(args.format), Entry(args.entry)
    rounds = None
    if fmt in (Format.SUIZO, Format.DUPLICADO):
        rounds = DEFAULT_ROUNDS if args.rounds is None else args.rounds
    elif args.rounds is not None:
        raise CliError(t("tournament_rounds_unused", lang, format=fmt.value))
    players, mode = seating(entry)
    target = args.target
    if target is None:
        try:
            target = Rules.from_options(args.preset, players=players, mode=mode).target
        except RulesError:
            target = 100  # the preset does not seat this entry: the configuration says so below
    try:
        return TournamentConfig(
            name=t("tournament_simulated_name", lang),
            format=fmt,
            entry=entry,
            preset=args.preset,
            target=target,
            size=args.entrants,
            rounds=rounds,
            hands=args.hands,
            window_seconds=60.0 * args.window if fmt is Format.ARENA else None,
            starts_at=0.0,
            rated=False,
        ).checked()
    except TournamentError as error:
        raise CliError(error.text(lang)) from None


# Playing the games --------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameJob:
    """Everything one game needs, small and picklable (it may go to a worker process)."""

    rules: Rules
    seed: int
    levels: tuple[str, ...]  # each seat's bot
    bot_seeds: tuple[int, ...]


@dataclass(frozen=True)
class Played:
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]  # per hand, the points each team won in it


def play_game(job: GameJob) -> Played:
    """One game played to its end by the engine and the bots."""
    game = Game(job.rules, seed=job.seed)
    bots = [make_bot(level, seed=seed) for level, seed in zip(job.levels, job.bot_seeds, strict=True)]
    play_out(game, bots)
    return Played(
        tuple(game.scores), tuple(game.winners), tuple(tuple(result.points) for result in game.results)
    )


def play_all(jobs: list[GameJob], workers: int) -> list[Played]:
    if workers <= 1 or len(jobs) <= 1:
        return [play_game(job) for job in jobs]
    with ProcessPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
        return list(pool.map(play_game, jobs))


def outcome(game: PlannedGame, rules: Rules, played: Played, now: float) -> GameOutcome:
    """The game's end as the table would report it: nobody absent, nothing annulled."""
    return GameOutcome(
        table_id=game.table_id,
        annulled=False,
        scores=played.scores,
        target=rules.target,
        winners=played.winners,
        reason="hands" if rules.hands is not None else "target",
        seats=tuple(
            SeatOutcome(seat.seat, rules.team_of(seat.seat), seat.account, None, False, False)
            for seat in game.seats
        ),
        hands=played.hands,
        ended_at=now,
    )


def rating_of(level: str) -> int:
    """A level's entrants' rating, for the seeding: the stronger the level, the higher (so a
    Swiss first round or a bracket sets the levels against each other, not against themselves)."""
    return 1500 + 100 * bot_names().index(level)


@dataclass
class Simulation:
    tournament: Tournament
    level_of: dict[int, str]  # entrant number -> its bots' level
    seed: int
    games: int = 0


def simulate_event(
    config: TournamentConfig,
    bots: Sequence[str],
    seed: int,
    workers: int = 1,
    advance: Callable[[int], None] = lambda games: None,
) -> Simulation:
    """Register `config.size` entrants (bots in turn), then run the tournament to its end."""
    rng = random.Random(seed)
    tournament = Tournament.new("simulacion", config, creator=0, now=0.0)
    per_entrant = config.players_per_entrant
    level_of_account: dict[int, str] = {}
    for index in range(config.size):
        level = bots[index % len(bots)]
        for player in range(per_entrant):
            account = index * per_entrant + player + 1
            level_of_account[account] = level
            suffix = "abcd"[player] if per_entrant > 1 else ""
            tournament.register(account, f"{level}-{index + 1}{suffix}", rating_of(level), float(index))
    pair_rng = random.Random(rng.getrandbits(64))
    deal_seeds: dict[int, int] = {}  # duplicado: one deal seed per round, shared by its tables
    numbers = itertools.count(1)
    order = itertools.count()
    running: list[tuple[float, int, str, Played]] = []
    clock = 0.0
    sim = Simulation(tournament, {}, seed)
    while tournament.status not in (Status.FINISHED, Status.CANCELLED):
        effects = tournament.step(clock, pair_rng, lambda: f"mesa-{next(numbers)}")
        creates = [effect for effect in effects if isinstance(effect, CreateTable)]
        jobs = []
        for create in creates:
            game = create.game
            if config.format is Format.DUPLICADO:
                game_seed = deal_seeds.setdefault(game.round, rng.getrandbits(64))
            else:
                game_seed = rng.getrandbits(64)
            levels = tuple(
                level_of_account[seat.account] if seat.account is not None else seat.bot_level or "random"
                for seat in game.seats
            )
            jobs.append(GameJob(create.rules, game_seed, levels, tuple(rng.getrandbits(32) for _ in levels)))
        for create, played in zip(creates, play_all(jobs, workers), strict=True):
            tournament.mark_playing(create.game.key, clock)
            length = SECONDS_PER_HAND * max(1, len(played.hands))
            heapq.heappush(running, (clock + length, next(order), create.game.key, played))
        if tournament.status is not Status.RUNNING:
            break
        if not running:
            wake = tournament.wake_at()
            if wake is None or wake <= clock:
                raise RuntimeError("the simulated tournament has nothing to wait for")
            clock = wake
            continue
        clock, _, key, played = heapq.heappop(running)
        game = tournament.game(key)
        tournament.record(key, outcome(game, config.game_rules(), played, clock), clock)
        sim.games += 1
        advance(sim.games)
    sim.level_of = {
        e.no: level_of_account[e.accounts[0]] if e.accounts else e.bot_level or ""
        for e in tournament.entrants
    }
    return sim


def expected_games(config: TournamentConfig) -> int | None:
    """How many games the event will have, for the progress bar (None: an arena, timed)."""
    if config.format is Format.MINITORNEO:
        return config.size  # n - 2 knock-out games, the final and the game for third place
    if config.rounds is None:
        return None
    return config.rounds * (config.size // (4 if config.entry is Entry.ROTATING else 2))


# What is printed ----------------------------------------------------------------------------------


def side_text(tournament: Tournament, side: Sequence[int]) -> str:
    return " / ".join(name for no in side for name in tournament.entrant(no).names)


def round_tables(sim: Simulation, lang: str) -> Iterator[Table]:
    """Each round's games: the table, each side, its points (a duplicado: its matchpoints)."""
    tournament = sim.tournament
    duplicate = tournament.config.format is Format.DUPLICADO
    for plan in tournament.rounds:
        title = (
            t("tournament_arena_games", lang)
            if tournament.config.format is Format.ARENA
            else t("tournament_round", lang, number=plan.number)
        )
        table = Table(title=title)
        table.add_column(t("col_board", lang), justify="right")
        table.add_column(t("col_side_a", lang))
        table.add_column(t("col_result", lang), justify="center")
        table.add_column(t("col_side_b", lang))
        for game in plan.games:
            result = game.result
            if result is None:
                score = "—"
            else:
                marks = ["✓" if won else "" for won in result.won]
                score = f"{marks[0]}{result.points[0]} – {result.points[1]}{marks[1]}"
                if duplicate and result.matchpoints is not None:
                    score += f"\n({result.matchpoints[0]:g} – {result.matchpoints[1]:g} {t('mp', lang)})"
            table.add_row(
                str(game.board),
                side_text(tournament, game.sides[0]),
                score,
                side_text(tournament, game.sides[1]),
            )
        if plan.byes:
            table.caption = t(
                "tournament_byes", lang, names=", ".join(side_text(tournament, (no,)) for no in plan.byes)
            )
        yield table


def standings_table(sim: Simulation, lang: str) -> Table:
    """The final standings: place, entrant, bot, games won and lost, efectividad, points for,
    and the tie-break of the format (rotating partners; a duplicado's matchpoints first)."""
    tournament = sim.tournament
    rotating = tournament.config.entry is Entry.ROTATING
    duplicate = tournament.config.format is Format.DUPLICADO
    table = Table(title=t("tournament_standings", lang))
    table.add_column(t("col_place", lang), justify="right")
    table.add_column(t("col_entrant", lang))
    table.add_column(t("col_bot", lang))
    if duplicate:
        table.add_column(t("col_matchpoints", lang), justify="right")
    for key in ("col_played", "col_wins", "col_losses", "col_efectividad", "col_points_for"):
        table.add_column(t(key, lang), justify="right")
    if rotating:
        table.add_column(t("col_partners_tiebreak", lang), justify="right")
    places = tournament.places() if tournament.config.format is Format.MINITORNEO else None
    rows = tournament.standings()
    if places is not None:
        rows = sorted(rows, key=lambda s: (places.get(s.entrant, len(rows)), s.entrant))
    for s in rows:
        place = places.get(s.entrant, s.place) if places is not None else s.place
        cells = [str(place), side_text(tournament, (s.entrant,)), sim.level_of.get(s.entrant, "")]
        if duplicate:
            cells.append(f"{s.matchpoints or 0:g}")
        cells += [str(s.played), str(s.wins), str(s.losses), f"{s.efectividad:+d}", str(s.points_for)]
        if rotating:
            cells.append(f"{s.partners_tiebreak or 0:+d}")
        table.add_row(*cells)
    podium = tournament.podium()
    if podium:
        names = [side_text(tournament, (no,)) for no in podium]
        table.caption = t("tournament_podium", lang, first=names[0], second=names[1], third=names[2])
    return table


def heading(sim: Simulation, bots: Sequence[str], lang: str) -> Text:
    config = sim.tournament.config
    words = t(
        "tournament_heading",
        lang,
        format=config.format.value,
        entry=t(f"tournament_entry_{config.entry.value}", lang),
        entrants=config.size,
        rules=describe_rules(config.game_rules(), lang),
        bots=", ".join(bots),
        seed=sim.seed,
    )
    text = Text(words)
    text.stylize("bold", 0, words.find("\n") if "\n" in words else len(words))
    return text


def run(args: argparse.Namespace, ctx: Context) -> int:
    lang = ctx.lang
    bots = chosen_bots(args.bots, lang)
    config = config_from_args(args, lang)
    seed = secrets.randbits(32) if args.seed is None else args.seed
    progress = progress_bar(ctx, t("tournament_playing", lang))
    with progress:
        task = progress.add_task("", total=expected_games(config))
        sim = simulate_event(
            config, bots, seed, args.jobs, lambda games: progress.update(task, completed=games)
        )
    ctx.out.print(heading(sim, bots, lang))
    if sim.tournament.status is Status.CANCELLED:
        ctx.out.print(t("tournament_cancelled", lang))
        return 1
    ctx.out.print(Group(*round_tables(sim, lang)))
    ctx.out.print(standings_table(sim, lang))
    return 0


COMMAND = Command("help_tournament", configure, run)
