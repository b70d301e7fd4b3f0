// «Pista»: the move the server suggested for this seat's turn at a practice table
// (docs/protocol.md, «Hints at practice tables»), and how the table shows it: the tile to
// light, the end to light for a tile that fits both, the words to say. The suggestion is
// the server's (the expert bot, from this seat's own view); nothing here decides a rule:
// whether a tile fits both ends is read from the server's `options`. Pure: no DOM, so
// `node --test` checks it (tests/web/js/hint.test.mjs).

import { t } from "./i18n.js";
import { isMyTurn, playsOf, tileKey } from "./table_state.js";

// Whether the table offers hints at all: a seat (not a spectator) at a practice table that
// gives some (el reparto del día gives none: its sync says `hints.per_game` 0).
export function offersHints(state) {
  return state.kind === "practice" && state.you !== null && state.you !== undefined && state.hintsPerGame !== 0;
}

// The hint for the turn being played, if the server gave this seat one for it.
export function currentHint(state) {
  const hint = state.hint;
  const turn = state.turn;
  if (!hint || !turn || turn.seat !== state.you || turn.turn_id !== hint.turn_id) return null;
  return hint;
}

// Whether «Pista» may be pressed now: this seat's turn (its options are in), no hint shown
// yet, and the server has not said this game's hints are used up.
export function canAskHint(state) {
  return offersHints(state) && isMyTurn(state) && !currentHint(state) && state.hintsLeft !== 0;
}

// What to light for the current hint: `tile` (a hand key) for a play, and `side` when that
// tile fits both ends (the server's options list it on both); null without a hint.
export function hintTarget(state) {
  const hint = currentHint(state);
  if (!hint) return null;
  const action = hint.action;
  if (action.type !== "play") return { type: action.type, tile: null, side: null };
  const tile = tileKey(action.tile);
  const both = playsOf(state, tile).length > 1;
  return { type: "play", tile, side: both && action.side ? action.side : null };
}

// The hint in words: "Pista: juega el 6-4 a la derecha", "Hint: play the 6-4 on the right".
export function hintText(action) {
  if (!action) return "";
  if (action.type === "draw") return t("hint_draw");
  if (action.type === "pass") return t("hint_pass");
  const tile = tileKey(action.tile);
  if (!action.side) return t("hint_lead", { tile });
  const where = t(action.side === "left" ? "table_where_left" : "table_where_right");
  return t("hint_play", { tile, where });
}
