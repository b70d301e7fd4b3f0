"""`ServerState`: what a running server holds (its store, tables, bots, limiters), and how a
request or a socket finds it.

With several processes (`shared`), who is online, the quick match and the limiters span
them all: lobby/presence.py and lobby/quickmatch.py over the cluster's bus and leases, accounts/throttle.py's
windows in Redis. `start_shared` and `close_shared` start and stop them; `node_gone` is
what the cluster calls when another process's lease lapsed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import redis.asyncio
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from starlette.requests import HTTPConnection

from tranque.server.accounts.account_delays import (
    AccountDelay,
    AccountDelays,
    DelayPolicy,
    KnownDevice,
    KnownDevices,
    RedisAccountDelays,
    RedisKnownDevices,
)
from tranque.server.accounts.account_sockets import AccountSockets
from tranque.server.accounts.bot_tokens import BotSockets
from tranque.server.accounts.password_checks import PasswordChecks
from tranque.server.accounts.sessions import SessionSockets
from tranque.server.accounts.throttle import (
    EventLimit,
    LoginLimit,
    LoginLimiter,
    RedisLoginLimiter,
    RedisSlidingWindow,
    SlidingWindow,
)
from tranque.server.analysis.queue import AnalysisQueue
from tranque.server.analysis.verify_pool import Verifier
from tranque.server.cluster.bus import Bus
from tranque.server.cluster.leases import Leases
from tranque.server.cluster.settings import ClusterSettings
from tranque.server.collector import Collector
from tranque.server.fichas.service import Fichas
from tranque.server.lobby.once import Once
from tranque.server.lobby.presence import Presence
from tranque.server.lobby.quickmatch import QuickMatch
from tranque.server.lobby.registry import Registry
from tranque.server.luck import Luck
from tranque.server.moderation.enforce import set_aside
from tranque.server.moderation.sampler import FairPlaySampler
from tranque.server.penas.service import Penas
from tranque.server.players.friends import Friends
from tranque.server.seasons.service import Seasons
from tranque.server.settings import Settings
from tranque.server.share.cards import ShareCards
from tranque.server.store import Store, UserRow
from tranque.server.table.bots import Bots
from tranque.server.tournaments.director import Director
from tranque.server.tournaments.service import Tournaments

REDIS_TIMEOUT = 1.0  # seconds: an unreachable Redis makes the limiters count alone this fast


@dataclass
class Shared:
    """What the processes of a cluster share (cluster/node.py), for the state that spans them."""

    bus: Bus
    leases: Leases
    node: str  # this process's name in the cluster
    settings: ClusterSettings = field(default_factory=ClusterSettings)
    redis_url: str | None = None  # the limiters' windows; None: each process counts alone


@dataclass
class ServerState:
    settings: Settings
    store: Store
    registry: Registry
    quick: QuickMatch
    bots: Bots
    verifier: Verifier
    analyses: AnalysisQueue
    collector: Collector | None = None  # when `tranque serve` collects garbage on the clock
    shared: Shared | None = None  # one of several processes: what they share
    fairplay: FairPlaySampler | None = None  # fair-play signals in the background (moderation/sampler.py)
    director: Director | None = None  # plays the tournaments out (tournaments/director.py), set at start
    session_sockets: SessionSockets = field(default_factory=SessionSockets)
    # Bot accounts' sockets (accounts/bot_tokens.py).
    bot_sockets: BotSockets = field(default_factory=BotSockets)
    # People's sockets by account, closed by a suspension or a ban (moderation/enforce.py).
    account_sockets: AccountSockets = field(default_factory=AccountSockets)
    bot_quick: QuickMatch = field(init=False)  # the bot accounts' own quick match
    login_limiter: LoginLimit = field(init=False)
    registrations: EventLimit = field(init=False)
    account_delays: AccountDelay = field(init=False)  # failed logins per name, from anywhere
    devices: KnownDevice = field(init=False)  # the devices each name logged in from
    passwords: PasswordChecks = field(init=False)  # new passwords' estimates, in a worker
    luck: Luck = field(init=False)  # «la suerte del reparto» of finished rounds, in a worker (luck.py)
    share: ShareCards = field(init=False)  # share cards, drawn in a worker and kept (share/cards.py)
    sockets_by_place: Counter[str] = field(default_factory=Counter)  # open WebSockets (ws/endpoint.py)
    # Told to drain (cluster/balance.py, POST /api/admin/processes/{node}/drain): it hands its
    # tables over and is no longer ready for new clients.
    draining: bool = False
    once: Once = field(init=False)  # double clicks on «Empezar» and «Crear mesa» (once.py)
    presence: Presence = field(init=False)  # each account's open sockets (lobby/presence.py)
    friends: Friends = field(init=False)
    tournaments: Tournaments = field(init=False)  # create, register, withdraw (tournaments/service.py)
    penas: Penas = field(init=False)  # peñas: members, leaders, requests, links (penas/service.py)
    seasons: Seasons = field(init=False)  # a peña's seasons and their tables (seasons/service.py)
    fichas: Fichas = field(init=False)  # play money: balances, stakes, pots (fichas/service.py)
    limiter_redis: redis.asyncio.Redis | None = field(init=False, default=None)  # if `shared`

    async def pena_role(self, pena_id: int, user_id: int) -> str | None:
        """An account's role in a peña, or None (talk/watching.py, the mirones of a peña's table)."""
        return await self.store.pena_role(pena_id, user_id)

    async def are_friends(self, one: int, other: int) -> bool:
        """Whether two accounts are friends (talk/watching.py, the chat's tables of friends)."""
        status, _ = await self.store.relation(one, other)
        return status == "friends"

    def __post_init__(self) -> None:
        settings, shared = self.settings, self.shared
        now = settings.clock.now
        policy = DelayPolicy(
            settings.account_failures_free,
            settings.account_failures_seconds,
            settings.account_delay_seconds,
            settings.account_delay_max_seconds,
        )
        self.passwords = PasswordChecks(
            settings.password_check_seconds,
            settings.password_checks_at_once,
            settings.password_check_in_processes,
        )
        if shared is not None and shared.redis_url is not None:
            self.limiter_redis = redis.asyncio.Redis.from_url(
                shared.redis_url,
                socket_timeout=REDIS_TIMEOUT,
                socket_connect_timeout=REDIS_TIMEOUT,
                retry=Retry(NoBackoff(), 0),
            )
            prefix = f"{shared.settings.prefix}:throttle:"
            self.login_limiter = RedisLoginLimiter(
                self.limiter_redis,
                settings.login_failures_per_minute,
                settings.login_failures_per_address_per_minute,
                now,
                prefix + "login:",
            )
            self.registrations = RedisSlidingWindow(
                self.limiter_redis,
                settings.registrations_per_address_per_hour,
                3600,
                now,
                prefix + "registrations:",
            )
            self.account_delays = RedisAccountDelays(self.limiter_redis, policy, now, prefix + "account:")
            self.devices = RedisKnownDevices(self.limiter_redis, now, prefix + "devices:")
        else:
            self.login_limiter = LoginLimiter(
                settings.login_failures_per_minute, settings.login_failures_per_address_per_minute, now
            )
            self.registrations = SlidingWindow(settings.registrations_per_address_per_hour, 3600, now)
            self.account_delays = AccountDelays(policy, now)
            self.devices = KnownDevices(now)
        self.once = Once(settings.clock)
        self.luck = Luck(settings.analysis_in_processes)
        self.share = ShareCards(settings.analysis_in_processes)
        self.bot_quick = QuickMatch(
            self.registry,
            settings.clock,
            settings.quick_match_wait_seconds,
            settings.default_bot_level,
            settings.limits,
            bots=True,
        )
        if shared is not None:
            channel = f"{shared.settings.prefix}:presence"
            self.presence = Presence(settings.clock, bus=shared.bus, node=shared.node, channel=channel)
            self.quick.share(shared.bus, shared.node, shared.leases, shared.settings)
            self.bot_quick.share(shared.bus, shared.node, shared.leases, shared.settings)
            self.bot_sockets.share(shared.bus, f"{shared.settings.prefix}:bot_tokens")
            self.account_sockets.share(shared.bus, f"{shared.settings.prefix}:accounts")
            self.account_sockets.on_barred = lambda user_id: set_aside(self.registry, user_id)
        else:
            self.presence = Presence(settings.clock)
        self.friends = Friends(self.store, self.registry, self.presence, settings.social_limits)
        self.presence.on_change = self.friends.changed
        self.tournaments = Tournaments(self.store, settings.clock, settings.tournament_bar_days)
        self.penas = Penas(self.store, self.registry, self.presence)
        self.seasons = Seasons(self.store, self.penas)
        self.fichas = Fichas(self.store, settings)
        self.tournaments.fichas = self.fichas  # a tournament's entry in fichas (tournaments/fichas.py)
        self.registry.fichas = self.fichas  # what staked tables stake with (table/stakes.py)

    async def start_shared(self) -> None:
        """With other processes: hear them (once the bus is started). Nothing otherwise."""
        if self.shared is not None:
            await self.presence.start()
            await self.quick.start()
            await self.bot_quick.start()
            await self.bot_sockets.start()
            await self.account_sockets.start()

    async def close_shared(self) -> None:
        """With other processes: say goodbye (before the bus is closed). Nothing otherwise."""
        if self.shared is None:
            return
        await self.quick.close()
        await self.bot_quick.close()
        self.presence.close()
        if self.limiter_redis is not None:
            await self.limiter_redis.aclose()
            self.limiter_redis = None

    def nodes(self) -> set[str]:
        """The other processes that presence and quick match know of: the cluster should
        call `node_gone` for each whose lease lapsed."""
        return self.presence.nodes() | self.quick.nodes() | self.bot_quick.nodes()

    def quick_for(self, user: UserRow) -> QuickMatch:
        """The quick match an account plays in: the bots' for a bot account."""
        return self.bot_quick if user.is_bot else self.quick

    def lease_taken_again(self) -> None:
        """This process's lease had lapsed (it stalled past it, or Redis forgot it) and is its
        own again: the others may have called it gone meanwhile (`node_gone`) and dropped its
        accounts, so presence tells them its whole list again. (Quick match needs nothing:
        a process whose players left the queue sends them again when the queue is announced.)"""
        self.presence.tell_again()

    def node_gone(self, node: str) -> None:
        """Process `node` is gone (its lease lapsed): its accounts and waiting players too."""
        self.presence.drop_node(node)
        self.quick.drop_node(node)
        self.bot_quick.drop_node(node)


def server_state(connection: HTTPConnection) -> ServerState:
    """The state of the server a request or a WebSocket came to (set by the app's lifespan)."""
    state: ServerState = connection.app.state.tranque
    return state
