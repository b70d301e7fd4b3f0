"""The pieces of table talk without a server: what a line may be and the word filter
(talk/lines.py), when chat is open (table/chat_window.py), who may watch (talk/watching.py),
and the `chat` event in the table's log (table/events.py)."""

from __future__ import annotations

import pytest

from tranque.engine import Rules
from tranque.server.table.chat_window import check_chat_open
from tranque.server.table.events import ChatSaid
from tranque.server.table.log import from_stored, to_stored
from tranque.server.table.state import CHAT_KEPT, Phase, TableError, TableKind, TableOptions, TableState
from tranque.server.talk.lines import CHAT_MAX, MASK, chat_line
from tranque.server.talk.watching import may_watch

pytestmark = pytest.mark.anyio


def refusal(error: pytest.ExceptionInfo[TableError]) -> str:
    return error.value.key


def test_a_line_is_trimmed_checked_and_masked_not_refused() -> None:
    assert chat_line("  ¡Capicúa, compadre!  ") == "¡Capicúa, compadre!"
    long = ("¡Buena! " * 30)[:CHAT_MAX]
    assert chat_line(long) == long.strip()
    assert chat_line("qué gonorrea de mano, hpta") == f"qué {MASK} de mano, {MASK}"  # words the library lacks
    assert chat_line("pásame el martillo") == "pásame el martillo"  # an ordinary word let through
    assert chat_line("👨‍👩‍👧 ¡Agua!") == "👨‍👩‍👧 ¡Agua!"  # joiners inside an emoji are not control characters
    for text, key in (
        ("", "chat_empty"),
        ("\t ", "chat_empty"),
        ("a\u2028b", "chat_control"),
        ("a\x07", "chat_control"),
    ):
        with pytest.raises(TableError) as error:
            chat_line(text)
        assert refusal(error) == key
    with pytest.raises(TableError) as error:
        chat_line("ñ" * (CHAT_MAX + 1))
    assert refusal(error) == "chat_too_long"


@pytest.mark.parametrize(
    ("options", "phase", "friends", "key"),
    [
        (TableOptions(kind=TableKind.PRIVATE), Phase.PLAYING, False, None),
        (TableOptions(kind=TableKind.PUBLIC, pena_id=3), Phase.PLAYING, False, None),
        (TableOptions(kind=TableKind.PRIVATE, competitive=True), Phase.PLAYING, False, "chat_closed.hand"),
        (TableOptions(kind=TableKind.PRIVATE, competitive=True), Phase.BETWEEN_ROUNDS, False, None),
        (TableOptions(kind=TableKind.PRIVATE, competitive=True), Phase.FINISHED, False, None),
        (TableOptions(kind=TableKind.PUBLIC), Phase.PLAYING, True, "chat_closed.hand"),
        (TableOptions(kind=TableKind.QUICK), Phase.BETWEEN_ROUNDS, True, None),
        (TableOptions(kind=TableKind.PUBLIC), Phase.BETWEEN_ROUNDS, False, "chat_closed.strangers"),
        (TableOptions(kind=TableKind.PRACTICE), Phase.WAITING, True, "chat_closed.practice"),
    ],
)
def test_when_chat_is_open(options: TableOptions, phase: Phase, friends: bool, key: str | None) -> None:
    if key is None:
        check_chat_open(options, phase, friends)
        return
    with pytest.raises(TableError) as error:
        check_chat_open(options, phase, friends)
    assert refusal(error) == key


async def test_may_watch_is_the_one_decision() -> None:
    async def friends(one: int, other: int) -> bool:
        return {one, other} == {1, 2}

    async def members(pena_id: int, user_id: int) -> str | None:
        return "member" if (pena_id, user_id) == (9, 3) else None

    def private(**changes: object) -> TableOptions:
        return TableOptions(kind=TableKind.PRIVATE, host_user_id=1, **changes)  # type: ignore[arg-type]

    async def key(options: TableOptions, user: int | None, watch: str | None = None) -> str | None:
        found = await may_watch(options, user, watch, friends, members)
        return None if found is None else found.key

    assert await key(TableOptions(kind=TableKind.PUBLIC), None) is None
    assert await key(TableOptions(kind=TableKind.QUICK), 2) == "private"
    assert await key(private(), 2) == "no_spectators"
    assert await key(private(spectators="friends"), 2) is None
    assert await key(private(spectators="friends"), 3) == "no_spectators.friends"
    assert await key(private(spectators="pena", pena_id=9), 3) is None
    assert await key(private(spectators="pena", pena_id=9), 2) == "no_spectators.pena"
    assert await key(private(spectators="link", watch_token="abc"), None, "abc") is None
    assert await key(private(spectators="link", watch_token="abc"), 2, "abd") == "no_spectators.link"
    # Without the peñas wired, nobody is a member.
    assert await may_watch(private(spectators="pena", pena_id=9), 3, None, friends) is not None


def test_a_chat_line_in_the_log_restores_and_keeps_the_last_lines_only() -> None:
    state = TableState(Rules.preset("clasico", players=2))
    event = ChatSaid(1, "¡Dale!")
    stored = to_stored(event, 1, 10.0)
    assert (stored.kind, stored.data) == ("chat", {"seat": 1, "text": "¡Dale!"})
    assert from_stored(stored) == event
    assert event.project(None) == {} and event.project(0) == {"seat": 1, "text": "¡Dale!"}
    for seq in range(1, CHAT_KEPT + 6):
        state.apply(ChatSaid(seq % 2, f"línea {seq}"), seq)
    assert len(state.chat) == CHAT_KEPT and state.chat[-1] == (CHAT_KEPT + 5, 1, f"línea {CHAT_KEPT + 5}")
    assert state.phase is Phase.WAITING and state.game is None  # nothing of the game changed
