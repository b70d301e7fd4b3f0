// What the «Cara a cara» view (head_to_head.js) and the home's friends' results
// (home_friends.js) show, worked out from the server's JSON (docs/protocol.md, «Cara a cara»
// and «Home»): where to ask, what each game's outcome reads as, who won. The server counts
// every figure; this only arranges them.
//
// Pure functions, no DOM: tested by `node --test tests/web/js`.

// GET /api/players/{first}/vs/{second}.
export function versusPath(first, second) {
  return `/api/players/${encodeURIComponent(first)}/vs/${encodeURIComponent(second)}`;
}

// A game of the two, as {key, params}: who of them won it (or that both did, or neither).
export function outcomeText(game, first, second) {
  if (game.together === "partners") {
    return { key: game.outcome === "both" ? "h2h_partners_won" : "h2h_partners_lost", params: {} };
  }
  if (game.outcome === "first") return { key: "h2h_won_by", params: { name: first } };
  if (game.outcome === "second") return { key: "h2h_won_by", params: { name: second } };
  if (game.outcome === "both") return { key: "h2h_draw", params: {} };
  return { key: "h2h_someone_else", params: {} };
}

// The outcome's class, for its colour: the first's win, the second's, or neither's.
export function outcomeClass(game) {
  if (game.together === "partners") return game.outcome === "both" ? "won" : "lost";
  return { first: "first", second: "second" }[game.outcome] || "even";
}

// The record's rows as a table shows them: [label key, params, first's figure, second's].
export function opponentRows(opponents) {
  return [
    ["h2h_wins", opponents.first_wins, opponents.second_wins],
    ["h2h_points", opponents.first_points, opponents.second_points],
  ];
}

// The names in a list, joined as a sentence reads them ("ana y Kike", "ana & Kike").
export function namesText(names, lang) {
  const list = (names || []).filter(Boolean);
  if (list.length <= 1) return list[0] || "";
  const and = lang === "en" ? " & " : " y ";
  return `${list.slice(0, -1).join(", ")}${and}${list[list.length - 1]}`;
}

// Who won a friend's game, as {key, params}: one winner, or a side of two or more.
export function wonByText(game, lang) {
  const names = game.won_by || [];
  return { key: names.length > 1 ? "hf_won_by_many" : "hf_won_by", params: { names: namesText(names, lang) } };
}

// A game's scores as they read: "101 – 64" (sides in the seats' order).
export function scoresText(scores) {
  return (scores || []).join(" – ");
}
