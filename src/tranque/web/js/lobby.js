// The lobby as the server sends it (docs/protocol.md, «lobby» and «lobby_update»): the whole
// list once, then diffs of the tables added or changed and the ids of those removed.

// The list after `message`: a `lobby` replaces it, a `lobby_update` is applied to it.
export function applyLobby(tables, message) {
  if (message.type === "lobby") return message.tables.slice();
  const removed = new Set(message.removed || []);
  const changed = new Map((message.tables || []).map((table) => [table.table, table]));
  const next = [];
  for (const table of tables) {
    if (removed.has(table.table)) continue;
    next.push(changed.get(table.table) || table);
    changed.delete(table.table);
  }
  for (const table of changed.values()) if (!removed.has(table.table)) next.push(table);
  return next;
}
