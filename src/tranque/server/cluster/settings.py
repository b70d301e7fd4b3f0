"""How a cluster's processes renew, read and wait (cluster/node.py); part of `Settings`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class ClusterSettings:
    """How often a cluster's processes renew, read and wait (seconds)."""

    lease_seconds: float = 2.5  # a table or process lease lapses this long after its last renewal
    renew_seconds: float = 0.5  # how often a process renews its leases
    scan_seconds: float = 0.5  # how often a process reads the leases of the tables it does not own
    call_seconds: float = 5.0  # the wait for a forwarded command's answer (then the owner is gone)
    catch_up_seconds: float = 2.0  # the wait for an answer's events (then a replica reads the log)
    prefix: str = "tranque"  # the start of the Redis channels' and keys' names
