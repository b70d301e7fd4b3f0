"""Commands between processes: a replica's sockets and requests reach the table's owner.

A replica sends the owner a `wire.TableCall` on the owner's channel; the owner runs it as a
command of its own (another process's socket counted as a `RemoteSocket`) and answers on
the caller's channel with a `wire.TableReply`: the answer and its last event, or its
refusal, which the caller raises as the owner's (`RelayedRefusal`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import TYPE_CHECKING, Any

from tranque.server.cluster import wire
from tranque.server.cluster.base import ClusterBase, LocalSocket
from tranque.server.cluster.steps import Follow, FollowThen, Unfollow
from tranque.server.refusals import REFUSALS, Refusal, code_of
from tranque.server.table import commands
from tranque.server.table.actor import Command, RemoteSocket, Table
from tranque.server.table.state import TableError, Viewer

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


class RelayedRefusal(TableError):
    """An owner's refusal as another process received it: its code and both texts."""

    def __init__(self, refusal: wire.RefusalText) -> None:
        Exception.__init__(self, refusal.message)
        self.key = refusal.key if refusal.key in REFUSALS else "internal"
        self.code = code_of(refusal.key)
        self.params = {}
        self._texts = {"es": refusal.message, "en": refusal.message_en}

    def text(self, lang: str = "es") -> str:
        return self._texts["en" if lang == "en" else "es"]


def refusal_text(error: Refusal) -> wire.RefusalText:
    return wire.RefusalText(key=error.key, message=error.message, message_en=error.message_en)


def _command_of(wired: wire.WireCommand | None) -> Any:
    if wired is None:
        raise TableError("internal")  # of a kind this release does not know
    return wired.command()


class Forwarding(ClusterBase):
    """The cluster's part that carries commands between a replica and the table's owner."""

    async def forward(self, table: Table, command: Command) -> Any:
        """Run a command for this process: here if it owns the table, else at the owner's.
        Either way this process keeps a name for each of its sockets that follows the table
        (and its token), so they can follow whichever process owns it next."""
        table_id = table.table_id
        if isinstance(command, commands.Subscribe):
            key = (table_id, command.subscriber)
            local = self._locals.get(key)
            ref = local.ref if local is not None else secrets.token_hex(8)
            viewer = await self._subscribe(table, command, ref)
            self._locals[key] = LocalSocket(ref, command.token, command.address, command.admitted)
            return viewer
        if isinstance(command, commands.Unsubscribe):
            local = self._locals.pop((table_id, command.subscriber), None)
            if table.owned:
                return await table.call_here(command)
            await table.call_here(Unfollow(command.subscriber), local=True)
            if local is not None:
                with contextlib.suppress(TableError):
                    await self._call(table, wire.UnsubscribeRequest(ref=local.ref))
            return None
        if table.owned:
            return await table.call_here(command)
        self.counters.forwarded += 1
        if isinstance(command, commands.FromSocket):
            local = self._locals.get((table_id, command.subscriber))
            seat = command.command.seat
            if local is None or (seat is not None and table.subscribers.get(command.subscriber) != seat):
                raise TableError("not_your_seat")
            inner = wire.wire_command(command.command)
            request = wire.SocketRequest(
                ref=local.ref, token=local.token, command=inner, address=local.address
            )
            return await self._call(table, request)
        if not wire.is_forwarded(command):
            raise TableError("table_moved")  # a timer's or bot's command, for the owner alone
        return await self._call(table, wire.RunRequest(command=wire.wire_command(command)))

    async def _subscribe(self, table: Table, command: commands.Subscribe, ref: str) -> Viewer:
        """A socket of this process follows `table`: at its owner, wherever that is. Following
        twice changes nothing, so while the table changes hands it is asked again (this
        process may be the one taking it over)."""
        deadline = asyncio.get_running_loop().time() + 2 * self.settings.call_seconds
        while True:
            if table.owned:
                viewer: Viewer = await table.call_here(command)
                return viewer
            try:
                self.counters.forwarded += 1
                request = wire.SubscribeRequest(
                    ref=ref, token=command.token, address=command.address, admitted=command.admitted
                )
                viewer = await self._call(table, request)
                await table.call_here(Follow(command.subscriber, viewer, command.last_seq), local=True)
                return viewer
            except TableError as error:
                if error.code != "table_moved" or asyncio.get_running_loop().time() > deadline:
                    raise
            await asyncio.sleep(self.settings.scan_seconds)

    async def _call(self, table: Table, request: wire.Request) -> Any:
        owner = await self._owner_of(table)
        call_id = next(self._call_ids)
        future: asyncio.Future[wire.TableReply] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = (owner, future)
        call = wire.TableCall(call_id=call_id, sender=self.node, table_id=table.table_id, request=request)
        self.bus.publish(self._channel_of(owner), wire.encode(call))
        try:
            reply = await asyncio.wait_for(future, self.settings.call_seconds)
        except TimeoutError:
            raise TableError("table_moved") from None
        finally:
            self._calls.pop(call_id, None)
        if reply.refusal is not None:
            log.debug(
                "cluster: %s's call %s on table %s refused: %s",
                owner,
                request.kind,
                table.table_id,
                reply.refusal.key,
            )
            raise RelayedRefusal(reply.refusal)
        await self._until_reached(table, reply.seq)
        return reply.answer

    def _on_node_message(self, data: bytes) -> None:
        message = wire.decode(data)
        if isinstance(message, wire.TableCall):
            self._calls_served += 1
            self._heard[message.sender] = self._calls_served
            self._spawn(self._serve(message))
        elif isinstance(message, wire.TableReply):
            call = self._calls.get(message.call_id)
            if call is not None and not call[1].done():
                call[1].set_result(message)
        else:
            self._on_balance_message(message)  # a hand-over or a drain (balance.py)

    async def _serve(self, call: wire.TableCall) -> None:
        table_id, sender = call.table_id, call.sender
        try:
            table = self.registry.tables.get(table_id) if self.registry is not None else None
            if table is not None and not table.owned and table_id in self._held:
                await self._until_owned(table)  # a takeover under way here
            if table is None or not table.owned:
                raise TableError("table_moved")
            answer = await table.call_here(self._command_for(table_id, sender, call.request))
            reply = wire.TableReply(call_id=call.call_id, answer=answer, seq=table.sent_seq)
        except Refusal as error:
            reply = wire.TableReply(call_id=call.call_id, refusal=refusal_text(error))
        except Exception:
            log.exception("cluster: a call from %s to table %s failed", sender, table_id)
            reply = wire.TableReply(call_id=call.call_id, refusal=refusal_text(TableError("internal")))
        self.bus.publish(self._channel_of(sender), wire.encode(reply))

    async def _until_owned(self, table: Table) -> None:
        deadline = asyncio.get_running_loop().time() + self.settings.call_seconds
        while not table.owned and table.table_id in self._held:
            if asyncio.get_running_loop().time() > deadline:
                return
            await asyncio.sleep(self.settings.scan_seconds / 4)

    def _command_for(self, table_id: str, node: str, request: wire.Request | None) -> Command:
        if request is None:
            raise TableError("internal")  # of a kind this release does not know
        if isinstance(request, wire.RunRequest):
            command: Command = _command_of(request.command)
            return command
        key = (table_id, node, request.ref)
        stub = self._stubs.get(key)
        if isinstance(request, wire.UnsubscribeRequest):
            self._stubs.pop(key, None)
            return commands.Unsubscribe(stub if stub is not None else RemoteSocket(node, request.ref))
        if stub is None:
            stub = self._stubs[key] = RemoteSocket(node, request.ref)
        if isinstance(request, wire.SubscribeRequest):
            return commands.Subscribe(stub, request.token, None, request.address, request.admitted)
        from_socket = commands.FromSocket(stub, _command_of(request.command))
        table = self.registry.tables.get(table_id) if self.registry is not None else None
        if table is not None and not table.follows(stub):
            # A new owner that has not heard from this socket yet (its process is telling
            # it right now): it follows first, as its process would have it.
            return FollowThen(commands.Subscribe(stub, request.token, None, request.address), from_socket)
        return from_socket
