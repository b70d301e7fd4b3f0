"""Per-client limits, counted on the app's clock: failed logins and registrations.

Each limit is a sliding window of event times per key. In memory: a restart forgets, which
is acceptable for limits measured in minutes and hours. Keys are client addresses as
`addresses.client_address` gives them, so behind a trusted proxy they are the real clients'.

The login limit follows OWASP's Authentication Cheat Sheet on lock-out: only failures count,
a success clears its own count, and nothing is ever limited per account alone, so nobody can
lock an owner out by failing on the owner's name from somewhere else.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

SWEEP_ABOVE = 10_000  # keys are pruned when used; past this many, sweep the idle ones too


@dataclass
class SlidingWindow:
    """At most `limit` events per key within any `seconds`.

    >>> now = [0.0]
    >>> window = SlidingWindow(2, 60, lambda: now[0])
    >>> window.add("a"); window.add("a"); window.full("a"), window.full("b")
    (True, False)
    >>> now[0] = 60.0
    >>> window.full("a")
    False
    """

    limit: int
    seconds: float
    now: Callable[[], float]
    times: dict[str, deque[float]] = field(default_factory=dict)

    def full(self, key: str) -> bool:
        """Whether one more event for `key` would be over the limit."""
        times = self._current(key)
        return times is not None and len(times) >= self.limit

    def add(self, key: str) -> None:
        if len(self.times) > SWEEP_ABOVE:
            for idle in [k for k in self.times if self._current(k) is None]:
                del self.times[idle]
        self.times.setdefault(key, deque()).append(self.now())

    def clear(self, key: str) -> None:
        self.times.pop(key, None)

    def take_back(self, key: str) -> None:
        """Forget the key's latest event."""
        times = self.times.get(key)
        if times:
            times.pop()

    def _current(self, key: str) -> deque[float] | None:
        """The key's times still in the window, forgetting the key when none are."""
        times = self.times.get(key)
        if times is None:
            return None
        start = self.now() - self.seconds
        while times and times[0] <= start:
            times.popleft()
        if not times:
            del self.times[key]
            return None
        return times


@dataclass
class LoginLimiter:
    """Failed logins within any minute: at most `per_account` from one address on one name,
    and `per_address` from one address on all names together.

    An attempt counts as failed from its start, so that many at once cannot all slip under
    the limit while their passwords are being checked; a success takes its count back.

    >>> limiter = LoginLimiter(2, 3, lambda: 0.0)
    >>> [limiter.attempt("10.0.0.1", "ana") for _ in range(3)]
    [True, True, False]
    >>> limiter.attempt("10.0.0.2", "ana"), limiter.attempt("10.0.0.1", "luis")
    (True, True)
    >>> limiter.attempt("10.0.0.1", "pedro")  # the address's third failure on any name
    False
    """

    per_account: int
    per_address: int
    now: Callable[[], float]
    pairs: SlidingWindow = field(init=False)
    addresses: SlidingWindow = field(init=False)

    def __post_init__(self) -> None:
        self.pairs = SlidingWindow(self.per_account, 60, self.now)
        self.addresses = SlidingWindow(self.per_address, 60, self.now)

    def attempt(self, address: str, name_key: str) -> bool:
        """Whether a login may be tried now; if so it is counted as failed until `succeeded`."""
        pair = _pair(address, name_key)
        if self.pairs.full(pair) or self.addresses.full(address):
            return False
        self.pairs.add(pair)
        self.addresses.add(address)
        return True

    def succeeded(self, address: str, name_key: str) -> None:
        self.pairs.clear(_pair(address, name_key))
        self.addresses.take_back(address)


def _pair(address: str, name_key: str) -> str:
    return f"{address} {name_key}"  # a space is in neither an address nor a name
