"""`Settings`: what one server is configured with (its store, clock, timings and limits)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

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
    database_url: str | None = "sqlite+aiosqlite:///./tranque.db"
    clock: Clock = field(default_factory=RealClock)
    bot_processes: int = 1
    between_rounds_seconds: float = 8.0
    auto_move_seconds: float = 1.0
    bot_min_seconds: float = 0.6
    deserted_game_seconds: float = 300.0  # a practice or quick game every human left ends then
    idle_waiting_seconds: float = 1800.0  # a table waiting for players that nobody follows
    hints_per_game: int = 20  # «Pista»: the expert's suggestions one seat may ask for in a practice game
    quick_match_wait_seconds: float = 10.0
    lobby_update_seconds: float = 1.0  # a lobby follower gets at most one update this often
    default_bot_level: str = "heuristic"
    secure_cookies: bool = False  # also on by itself for a request that came over https
    login_failures_per_minute: int = 10  # from one address on one account's name
    login_failures_per_address_per_minute: int = 30  # from one address on any names
    registrations_per_address_per_hour: int = 5
    limits: Limits = field(default_factory=Limits)  # what one client may send and create
    socket_limits: SocketLimits = field(default_factory=SocketLimits)  # heartbeats, message rate
    verify_in_processes: bool = True  # records are checked in worker processes; False: in threads
    # Where clients come from and what one place may hold (addresses.py, ws/endpoint.py), new
    # passwords' estimates off the loop (accounts/password_checks.py), and the per-account
    # login delays (accounts/throttle.py `AccountDelays`; docs/deploy.md «Logins»).
    ipv6_prefix: int = 64  # an IPv6 address counts as its network of this many bits (one home)
    sockets_per_place: int = 50  # WebSockets open at once from one place; more: closed with 4031
    password_check_seconds: float = 2.0  # an estimate past this: `weak_password` (unchecked)
    password_checks_at_once: int = 4  # estimates under way or waiting; more: `password_check_busy`
    password_check_in_processes: bool = True  # False: in a thread of this process (tests)
    account_failures_free: int = 10  # failed logins on one name, from anywhere, before delays
    account_failures_seconds: float = 3600.0  # the window those failures are counted in
    account_delay_seconds: float = 2.0  # the first delay; each further failure doubles it...
    account_delay_max_seconds: float = 900.0  # ...up to this
    # Post-game analyses asked for on the site (analysis/queue.py, http/analysis.py).
    analysis_workers: int = 1  # worker processes (and jobs at a time); 0: keep requests pending
    analysis_queue_size: int = 20  # jobs not over yet on the whole site; more: `analysis_busy`
    analysis_deals: int = 2000  # deals per decision (`tranque analyze --budget`)
    analysis_requests_per_day: int = 10  # per account, in the last 24 hours
    analysis_pending_per_account: int = 1  # an account's analyses not over yet
    analysis_in_processes: bool = True  # False: evaluated in threads of this process (tests)
    analysis_poll_seconds: float = 2.0  # an idle worker looks for other processes' jobs this often
    analysis_stale_seconds: float = 60.0  # a running job not heard of for this long is taken over
    # Fair shares: friend requests and invitations per account (players/social_limits.py), and
    # the analyses one place (a client address, `addresses.client_address`) may have queued.
    social_limits: SocialLimits = field(default_factory=SocialLimits)
    analysis_pending_per_address: int = 5  # analyses not over yet asked for from one place
    # The recorder (players/recorder.py): game ends into history, ratings and XP, after the table.
    recorder: bool = True  # False: this process records none (tests: a crash before the recording)
    recorder_retry_seconds: float = 5.0  # it looks for game ends (a failed one, another process's) this often
    # Fair-play signals (moderation/): a sample of the rated games analysed in the background,
    # per-account figures kept, signals handed to `fairplay_on_signal` for review, never a sanction.
    fairplay_sampler: bool = True  # False: this process samples nothing
    fairplay_sample_rate: float = 0.25  # share of the rated games analysed (the same in every process)
    fairplay_deals: int = 50  # deals per decision (a player's own analysis: `analysis_deals`)
    fairplay_window_days: float = 30.0  # the signals look at this many days of games
    fairplay_poll_seconds: float = 30.0  # it looks for new rated games, or waits for players' analyses
    fairplay_check_seconds: float = 3600.0  # the signals are computed at most this often (and at start)
    fairplay_in_processes: bool = True  # False: evaluated in a thread of this process (tests)
    fairplay_thresholds: Thresholds = field(default_factory=Thresholds)  # minimum games, margins, z
    fairplay_on_signal: Callable[[Signal], Awaitable[None]] | None = None  # None: the moderators' queue
    # Several processes (cluster/node.py): Redis for the tables' ownership and fan-out. None: one process.
    redis_url: str | None = None
    cluster: ClusterSettings = field(default_factory=ClusterSettings)
    # Tests: the bus and leases of a cluster of processes simulated in one (instead of Redis).
    cluster_links: Callable[[], tuple[Bus, Leases]] | None = None
    # Moderation (moderation/, http/moderation.py, http/reports.py).
    reports_per_day: int = 10  # reports one account may make in 24 hours
    # The operator's view (http/health.py, metrics.py, logs.py; docs/deploy.md «Watching it»).
    metrics_token: str | None = None  # GET /metrics asks for `Authorization: Bearer <it>`; None: open
    log_format: str = "text"  # `tranque serve`'s log lines: "text" (a terminal), "json" or "logfmt"
    access_log: bool = False  # `tranque serve` logs a line per HTTP request (uvicorn's access log)

    def table_defaults(self) -> dict[str, Any]:
        return {
            "between_rounds_seconds": self.between_rounds_seconds,
            "auto_move_seconds": self.auto_move_seconds,
            "bot_min_seconds": self.bot_min_seconds,
            "deserted_game_seconds": self.deserted_game_seconds,
            "idle_waiting_seconds": self.idle_waiting_seconds,
            "hints_per_game": self.hints_per_game,
        }
