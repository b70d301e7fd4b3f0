"""`Settings`: what one server is configured with (its store, clock, timings and limits)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from tranque.server.cluster.settings import ClusterSettings
from tranque.server.lobby.limits import Limits
from tranque.server.moderation.signals import Signal, Thresholds
from tranque.server.players.social_limits import SocialLimits
from tranque.server.table.clock import Clock, RealClock
from tranque.server.ws.limits import SocketLimits

if TYPE_CHECKING:
    from tranque.server.cluster.bus import Bus
    from tranque.server.cluster.leases import Leases


@dataclass
class Settings:
    database_url: str | None = "sqlite+aiosqlite:///./tranque.db"  # SQLite or PostgreSQL ("memory://": none)
    # The schema is migrated to head at start; off: a database behind is refused, and the
    # operator runs `tranque migrate` first (docs/deploy.md «Upgrades»).
    migrate_at_start: bool = True
    clock: Clock = field(default_factory=RealClock)
    bot_processes: int = 1  # worker processes that choose the bots' moves
    between_rounds_seconds: float = 8.0  # the pause between a round's end and the next deal
    auto_move_seconds: float = 1.0  # a forced move (a pass, the only tile) is played after this
    bot_min_seconds: float = 0.6  # a bot waits at least this long before it plays
    deserted_game_seconds: float = 300.0  # a practice or quick game every human left ends then
    idle_waiting_seconds: float = 1800.0  # a table waiting for players that nobody follows ends then
    hints_per_game: int = 20  # «Pista»: the expert's suggestions one seat may ask for in a practice game
    quick_match_wait_seconds: float = 10.0  # quick match: bots fill the empty seats after this
    lobby_update_seconds: float = 1.0  # a lobby follower gets at most one update this often
    default_bot_level: str = "heuristic"  # the bots that fill quick-match seats (`tranque serve --bot-level`)
    secure_cookies: bool = False  # the session cookie is `Secure` (on by itself over https)
    login_failures_per_minute: int = 10  # failed logins a minute from one address on one name
    login_failures_per_address_per_minute: int = 30  # failed logins a minute from one address on any names
    registrations_per_address_per_hour: int = 5  # new accounts from one address in an hour
    limits: Limits = field(default_factory=Limits)  # what one client may send and create
    socket_limits: SocketLimits = field(default_factory=SocketLimits)  # heartbeats, message rate
    verify_in_processes: bool = True  # records are checked in worker processes; false: in threads
    # Where clients come from and what one place may hold (addresses.py, ws/endpoint.py), new
    # passwords' estimates off the loop (accounts/password_checks.py), and the per-account
    # login delays (accounts/throttle.py `AccountDelays`; docs/deploy.md «Logins»).
    ipv6_prefix: int = 64  # an IPv6 address counts as its network of this many bits (one home)
    sockets_per_place: int = 50  # WebSockets open at once from one place; more: closed with 4031
    password_check_seconds: float = 2.0  # an estimate past this: `weak_password` (unchecked)
    password_checks_at_once: int = 4  # estimates under way or waiting; more: `password_check_busy`
    password_check_in_processes: bool = True  # password estimates in a worker process; false: in a thread
    account_failures_free: int = 10  # failed logins on one name, from anywhere, before delays
    account_failures_seconds: float = 3600.0  # the window failed logins on one name are counted in
    account_delay_seconds: float = 2.0  # the first login delay; each further failure doubles it
    account_delay_max_seconds: float = 900.0  # the longest login delay
    # Post-game analyses asked for on the site (analysis/queue.py, http/analysis.py).
    analysis_workers: int = 1  # analysis worker processes (and jobs at a time); 0: requests stay pending
    analysis_queue_size: int = 20  # jobs not over yet on the whole site; more: `analysis_busy`
    analysis_deals: int = 2000  # an analysis's deals per decision (`tranque analyze --budget`)
    analysis_requests_per_day: int = 10  # analyses one account may ask for in 24 hours
    analysis_pending_per_account: int = 1  # an account's analyses not over yet
    analysis_in_processes: bool = True  # analyses in worker processes; false: in threads (tests)
    analysis_poll_seconds: float = 2.0  # an idle analysis worker looks for other processes' jobs this often
    analysis_stale_seconds: float = 60.0  # a running analysis not heard of for this long is taken over
    # Fair shares: friend requests and invitations per account (players/social_limits.py), and
    # the analyses one place (a client address, `addresses.client_address`) may have queued.
    social_limits: SocialLimits = field(default_factory=SocialLimits)
    analysis_pending_per_address: int = 5  # analyses not over yet asked for from one place
    # The recorder (players/recorder.py): game ends into history, ratings and XP, after the table.
    recorder: bool = True  # this process records game ends; false: it records none (tests)
    recorder_retry_seconds: float = 5.0  # the recorder looks for game ends not recorded yet this often
    # Fair-play signals (moderation/): a sample of the rated games analysed in the background,
    # per-account figures kept, signals handed to `fairplay_on_signal` for review, never a sanction.
    fairplay_sampler: bool = True  # this process samples rated games for fair-play signals; false: none
    fairplay_sample_rate: float = 0.25  # share of the rated games analysed (the same in every process)
    fairplay_deals: int = 50  # fair-play analyses' deals per decision
    fairplay_window_days: float = 30.0  # the fair-play signals look at this many days of games
    fairplay_poll_seconds: float = 30.0  # the sampler looks for new rated games this often
    fairplay_check_seconds: float = 3600.0  # fair-play signals are computed at most this often (and at start)
    fairplay_in_processes: bool = True  # fair-play analyses in a worker process; false: in a thread
    fairplay_thresholds: Thresholds = field(default_factory=Thresholds)  # minimum games, margins, z
    fairplay_on_signal: Callable[[Signal], Awaitable[None]] | None = None  # None: the moderators' queue
    # Several processes (cluster/node.py): Redis for the tables' ownership and fan-out. None: one process.
    redis_url: str | None = None  # Redis, for several processes (redis://host:6379/0); none: one process
    cluster: ClusterSettings = field(default_factory=ClusterSettings)
    # Tests: the bus and leases of a cluster of processes simulated in one (instead of Redis).
    cluster_links: Callable[[], tuple[Bus, Leases]] | None = None
    # Tournaments (tournaments/: the service, the director, the schedule; docs/tournaments.md).
    tournament_tick_seconds: float = 1.0  # the director looks at the tournaments with news this often
    tournament_scan_seconds: float = 10.0  # ...and at every live one this often (other processes' changes)
    tournament_in_processes: bool = True  # the director's pairing in a worker process; false: a thread
    tournament_absent_grace_seconds: float = 45.0  # a player not at a tournament game by then: a bot covers
    tournament_bar_days: int = 7  # days a player withdrawn for absence is kept out of attendance events
    # Recurring tournaments (tournaments/schedule.py), one table each: {"format", "entry", "size",
    # "time": "20:00", "zone": "America/Bogota", ...} (TOML [[tournament_schedule]]; a variable: JSON)
    tournament_schedule: list[dict[str, Any]] = field(default_factory=list)
    tournament_director: bool = True  # this process may direct the tournaments; false: never (tests)
    # Moderation (moderation/, http/moderation.py, http/reports.py).
    reports_per_day: int = 10  # reports one account may make in 24 hours
    # El reparto del día (reparto/, docs/reparto.md): one set of deals a day against the expert.
    reparto_hands: int = field(
        default=4,
        metadata={
            "doc": "hands in a reparto del día game (keep it all day: it is in the commitment)",
            "bounds": (1, 16, True),
        },
    )
    reparto_bot_level: str = "expert"  # the bots of the reparto del día, and the level its par is played at
    reparto_in_processes: bool = True  # the reparto's par is played in a worker process; false: in a thread
    # Tests: the clock the reparto's day is read from (None: `clock`), to move to the next day.
    reparto_clock: Clock | None = None
    # Where `tranque serve` listens (uvicorn's settings: the app itself never reads them).
    host: str = "127.0.0.1"  # the address `tranque serve` listens on ("0.0.0.0": all of this machine's)
    port: int = 8000  # the port `tranque serve` listens on
    workers: int = 1  # processes on that one port; more than 1 needs `redis_url` and PostgreSQL
    forwarded_allow_ips: str | None = None  # trusted proxies, by commas (none: $FORWARDED_ALLOW_IPS)
    # The operator's view (http/health.py, metrics.py, logs.py; docs/deploy.md «Watching it»).
    metrics_token: str | None = None  # GET /metrics asks for `Authorization: Bearer <it>`; None: open
    log_format: Literal["text", "json", "logfmt"] = "text"  # the log lines: text (a terminal), json or logfmt
    access_log: bool = False  # `tranque serve` logs a line per HTTP request (uvicorn's access log)
    # the site's address in share pages' links, "https://tranque.example" (docs/sharing.md);
    # none: the address each request came to (behind a proxy, the one it forwards)
    public_url: str | None = None
    # Fichas (fichas/, docs/fichas.md): play money, never sold nor transferable, worth nothing.
    fichas_enabled: bool = True  # fichas at all: stakes, pots, balances and refills; false: none anywhere
    fichas_grant: int = 1000  # the fichas a new account is given, once
    fichas_floor: int = 200  # once a day (in Bogotá) an account below this many fichas is topped up to it
    fichas_stakes: tuple[int, ...] = (
        0,
        10,
        50,
        100,
        500,
    )  # the stakes a competitive table may carry (0: none)
    fichas_bank_cut: float = field(
        default=0.40,
        metadata={
            "doc": "the bank's share of a game's pot, taken before the winners are paid",
            "bounds": (0, 1, True),
        },
    )

    def table_defaults(self) -> dict[str, Any]:
        return {
            "between_rounds_seconds": self.between_rounds_seconds,
            "auto_move_seconds": self.auto_move_seconds,
            "bot_min_seconds": self.bot_min_seconds,
            "deserted_game_seconds": self.deserted_game_seconds,
            "idle_waiting_seconds": self.idle_waiting_seconds,
            "hints_per_game": self.hints_per_game,
        }
