"""`ServerState`: what a running server holds (its store, tables, bots, limiters), and how a
request or a socket finds it."""

from __future__ import annotations

from dataclasses import dataclass, field

from starlette.requests import HTTPConnection

from tranque.server.bot_runner import BotRunner
from tranque.server.collector import Collector
from tranque.server.friends import Friends
from tranque.server.once import Once
from tranque.server.presence import Presence
from tranque.server.quickmatch import QuickMatch
from tranque.server.registry import Registry
from tranque.server.sessions import SessionSockets
from tranque.server.settings import Settings
from tranque.server.store import Store
from tranque.server.throttle import LoginLimiter, SlidingWindow
from tranque.server.verifier import Verifier


@dataclass
class ServerState:
    settings: Settings
    store: Store
    registry: Registry
    quick: QuickMatch
    bots: BotRunner
    verifier: Verifier
    collector: Collector | None = None  # when `tranque serve` collects garbage on the clock
    session_sockets: SessionSockets = field(default_factory=SessionSockets)
    login_limiter: LoginLimiter = field(init=False)
    registrations: SlidingWindow = field(init=False)
    once: Once = field(init=False)  # double clicks on «Empezar» and «Crear mesa» (once.py)
    presence: Presence = field(init=False)  # each account's open sockets (presence.py)
    friends: Friends = field(init=False)

    def __post_init__(self) -> None:
        now = self.settings.clock.now
        self.login_limiter = LoginLimiter(
            self.settings.login_failures_per_minute, self.settings.login_failures_per_address_per_minute, now
        )
        self.registrations = SlidingWindow(self.settings.registrations_per_address_per_hour, 3600, now)
        self.once = Once(self.settings.clock)
        self.presence = Presence(self.settings.clock)
        self.friends = Friends(self.store, self.registry, self.presence)
        self.presence.on_change = self.friends.changed


def server_state(connection: HTTPConnection) -> ServerState:
    """The state of the server a request or a WebSocket came to (set by the app's lifespan)."""
    state: ServerState = connection.app.state.tranque
    return state
