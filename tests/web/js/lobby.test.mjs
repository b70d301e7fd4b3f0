// The browser's lobby list from the server's `lobby` and `lobby_update` messages
// (docs/protocol.md): `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { test } from "node:test";

const { applyLobby } = await import(new URL("../../../src/tranque/web/js/lobby.js", import.meta.url));

const table = (id, seats = [null, null, null, null]) => ({
  table: id, preset: "clasico", players: 4, mode: "pairs", target: 100, turn_seconds: 30, seats,
});

test("a lobby message is the whole list", () => {
  const list = applyLobby([table("old")], { type: "lobby", tables: [table("a"), table("b")] });
  assert.deepEqual(list.map((t) => t.table), ["a", "b"]);
});

test("an update replaces changed tables in place, adds new ones at the end, drops removed ones", () => {
  let list = applyLobby([], { type: "lobby", tables: [table("a"), table("b"), table("c")] });
  list = applyLobby(list, {
    type: "lobby_update",
    tables: [table("d"), table("b", ["ana", null, null, null])],
    removed: ["a"],
  });
  assert.deepEqual(list, [table("b", ["ana", null, null, null]), table("c"), table("d")]);
  list = applyLobby(list, { type: "lobby_update", tables: [], removed: ["c", "d", "unknown"] });
  assert.deepEqual(list, [table("b", ["ana", null, null, null])]);
});

test("an update does not change the list it was given", () => {
  const first = [table("a")];
  const next = applyLobby(first, { type: "lobby_update", tables: [table("b")], removed: ["a"] });
  assert.deepEqual(first, [table("a")]);
  assert.deepEqual(next, [table("b")]);
});
