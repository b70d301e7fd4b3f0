"""What a player's friendship rows with another say, from the first player's side.

A row is (from me?, status): (True, "pending") is my request to them, (False, "pending")
theirs to me, and an accepted friendship has a row each way.

>>> friendship(set()), friendship({(True, "pending")}), friendship({(False, "pending")})
('none', 'outgoing', 'incoming')
>>> friendship({(True, "accepted"), (False, "accepted")})
'friends'
"""

from __future__ import annotations


def friendship(rows: set[tuple[bool, str]]) -> str:
    if (True, "accepted") in rows:
        return "friends"
    if (True, "pending") in rows:
        return "outgoing"
    if (False, "pending") in rows:
        return "incoming"
    return "none"
