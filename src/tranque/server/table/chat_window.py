"""When a seat may type in a table's chat (docs/protocol.md, «Table talk»; the lines: talk/lines.py).

In pairs a private line between partners would be a channel for signals, so chat is never
private: every line goes to every seat. During a hand it is open only where the players
chose each other and nothing is rated: a casual private table or a peña's table. At a table of
friends (every other person seated is the writer's friend) and at a competitive private or
peña table it opens between rounds, before the game and after it; a table of strangers and a
practice game against the machine have none (the quick phrases stay).
"""

from __future__ import annotations

from tranque.server.table.state import Phase, TableError, TableKind, TableOptions


def group_table(options: TableOptions) -> bool:
    """A private table or a peña's: its players chose each other."""
    return options.kind is TableKind.PRIVATE or options.pena_id is not None


def check_chat_open(options: TableOptions, phase: Phase, among_friends: bool) -> None:
    """Refuse (`chat_closed`, saying why) if a seat may not chat now.

    `among_friends`: every other person seated at the table is the writer's friend."""
    if options.kind is TableKind.PRACTICE:
        raise TableError("chat_closed.practice")
    group = group_table(options)
    if not group and not among_friends:
        raise TableError("chat_closed.strangers")
    if phase is Phase.PLAYING and (options.competitive or not group):
        raise TableError("chat_closed.hand")
