"""How a cluster's processes renew, read and wait (cluster/node.py); part of `Settings`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ClusterSettings:
    """How often a cluster's processes renew, read and wait (seconds)."""

    lease_seconds: float = 2.5  # a table or process lease lapses this long after its last renewal
    renew_seconds: float = 0.5  # how often a process renews its leases
    scan_seconds: float = 0.5  # how often a process reads the leases of the tables it does not own
    call_seconds: float = 5.0  # a forwarded command's answer, before the owner is taken for gone
    catch_up_seconds: float = 2.0  # an answer's events, before the replica reads them from the log
    prefix: str = "tranque"  # of the bus's channels and the leases' names
    # Spreading the tables (cluster/balance.py): every `status_seconds` a process says what it
    # owns; one that owns more than its share, and more than `rebalance_tolerance` tables more
    # than the process that owns fewest, hands one table over every `rebalance_seconds` at most.
    status_seconds: float = 1.0  # how often a process says what it owns (and whether it drains)
    rebalance_seconds: float = 5.0  # a process over its share hands one table over this often at most
    rebalance_tolerance: int = 1  # at least 1: moving one table then never moves it back
    drain_tables_per_step: int = 4  # a draining process hands over this many every status_seconds
