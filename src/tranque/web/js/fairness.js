// Fair deals checked by this browser (docs/protocol.md, «Fair deals you can check»).
//
// At each deal the server publishes the commitment SHA-256(seed ‖ salt); at the round's end
// it reveals the seed and salt. This module keeps every commitment as it arrives in
// `round_started` (never trusting the copy repeated in `round_ended`), logs what this viewer
// saw of the round (its own dealt hand, every play and draw, its own drawn tiles), and at the
// reveal checks the hash with WebCrypto and deals the set again from the seed, here, with the
// documented shuffle. "Verificado" on the round-end card means this code found no problem;
// the server's own /api/verify is not asked.
//
// Runs in browsers and in Node 20 (globalThis.crypto.subtle), without a DOM.

const TWO_32 = 2 ** 32; // every number below stays an exact integer in a double (< 2^53)

/** The bytes of a hex string, or null when it is not an even-length hex string. */
export function hexToBytes(hex) {
  if (typeof hex !== "string" || hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return null;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

function toHex(buffer) {
  return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function concat(a, b) {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}

async function sha256(bytes) {
  return globalThis.crypto.subtle.digest("SHA-256", bytes);
}

/** SHA-256(seed ‖ salt) over the raw bytes, as lowercase hex (null for malformed hex). */
export async function commitmentOf(seedHex, saltHex) {
  const seed = hexToBytes(seedHex);
  const salt = hexToBytes(saltHex);
  if (!seed || !salt) return null;
  return toHex(await sha256(concat(seed, salt)));
}

/** The 32-bit big-endian words of SHA-256(seed ‖ counter as 8 bytes big-endian), counter
 * 0, 1, 2, … Each block is hashed when the shuffle first needs one of its words. */
class WordStream {
  constructor(seed) {
    this.seed = seed;
    this.counter = 0;
    this.words = [];
    this.next = 0;
  }

  async word() {
    if (this.next === this.words.length) {
      const input = new Uint8Array(this.seed.length + 8);
      input.set(this.seed, 0);
      new DataView(input.buffer).setBigUint64(this.seed.length, BigInt(this.counter), false);
      const block = new DataView(await sha256(input));
      for (let offset = 0; offset < 32; offset += 4) this.words.push(block.getUint32(offset, false));
      this.counter += 1;
    }
    return this.words[this.next++];
  }
}

/** The set's tiles in index order: 0-0, 1-0, 1-1, 2-0, … (tile h-l has index h(h+1)/2 + l). */
export function setTiles(setMax) {
  const tiles = [];
  for (let high = 0; high <= setMax; high++) for (let low = 0; low <= high; low++) tiles.push(`${high}-${low}`);
  return tiles;
}

/** The tiles in the order the seed gives them: Fisher–Yates from the last position down,
 * each j uniform in 0..i by rejection sampling (tranque.engine.deal.shuffled). */
export async function shuffled(tiles, seed) {
  const order = [...tiles];
  const words = new WordStream(seed);
  for (let i = order.length - 1; i > 0; i--) {
    const bound = i + 1;
    const limit = TWO_32 - (TWO_32 % bound);
    let word = await words.word();
    while (word >= limit) word = await words.word();
    const j = word % bound;
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** {hands: by seat, boneyard: in drawing order} for a revealed seed (hex), as
 * tranque.engine.deal.deal_from_seed deals it; null for a malformed seed. */
export async function dealFromSeed(seedHex, setMax, players, handSize) {
  const seed = hexToBytes(seedHex);
  if (!seed) return null;
  const order = await shuffled(setTiles(setMax), seed);
  const hands = [];
  for (let seat = 0; seat < players; seat++) hands.push(order.slice(seat * handSize, (seat + 1) * handSize));
  return { hands, boneyard: order.slice(players * handSize) };
}

/** A tile's name with the high half first, so "4-6" and "6-4" are the same tile. */
export function tileKey(tile) {
  const [a, b] = String(tile).split("-").map(Number);
  return `${Math.max(a, b)}-${Math.min(a, b)}`;
}

function sameTiles(a, b) {
  const left = a.map(tileKey).sort();
  const right = b.map(tileKey).sort();
  return left.length === right.length && left.every((tile, i) => tile === right[i]);
}

/**
 * Check one round as far as this viewer can see it. `input`:
 * - `commitment`: the one kept from `round_started` (null if this page never saw it);
 * - `seed`, `salt`: revealed in `round_ended` (hex); `revealedCommitment`: its copy there;
 * - `rules` (`set_max`, `players`, `hand_size`; `players`/`hand_size` may also be given alone);
 * - `seat` (null for a spectator) and `hand`: the tiles dealt to that seat, if known;
 * - `actions`: the round's plays and draws in order, `{seat, type, tile?, drawn?}` (`drawn`
 *   only for this seat's own draws), or null if the page did not see the whole round;
 * - `hands`: every seat's tiles left at the end (`round_ended.hands`).
 * Resolves to `{ok, reasons}`: `reasons` are `{code, ...params}` (results.js words them).
 */
export async function verifyRound(input) {
  const reasons = [];
  const rules = input.rules || {};
  const players = input.players ?? rules.players;
  const handSize = input.hand_size ?? rules.hand_size;
  const setMax = input.set_max ?? rules.set_max ?? 6;
  if (!input.commitment) return { ok: false, reasons: [{ code: "no_commitment" }] };
  if (!input.seed || !input.salt) return { ok: false, reasons: [{ code: "not_revealed" }] };
  const computed = await commitmentOf(input.seed, input.salt);
  if (computed === null) return { ok: false, reasons: [{ code: "bad_reveal" }] };
  // Each stage is checked only if the one before held: a seed that is not the committed one
  // deals nothing worth comparing, and one wrong hand makes every later step wrong too.
  if (computed !== String(input.commitment).toLowerCase()) {
    reasons.push({ code: "commitment_mismatch" });
    if (input.revealedCommitment && input.revealedCommitment !== input.commitment) reasons.push({ code: "commitment_changed" });
    return { ok: false, reasons };
  }
  const deal = await dealFromSeed(input.seed, setMax, players, handSize);
  const mine = input.seat === null || input.seat === undefined ? null : input.seat;
  if (mine !== null && input.hand && !sameTiles(input.hand, deal.hands[mine] || [])) return { ok: false, reasons: [{ code: "hand_mismatch" }] };
  if (input.actions) replay(deal, input, reasons);
  return { ok: reasons.length === 0, reasons };
}

// Every play must be a tile its seat was dealt or drew; the n-th draw of the round takes
// boneyard[n]; what is left must be each seat's revealed hand. Stops at the first problem.
function replay(deal, input, reasons) {
  const holdings = deal.hands.map((hand) => new Set(hand));
  let drawn = 0;
  for (const action of input.actions) {
    const held = holdings[action.seat];
    if (!held) continue;
    if (action.type === "draw") {
      const tile = deal.boneyard[drawn];
      drawn += 1;
      if (tile === undefined) {
        reasons.push({ code: "draw_beyond", seat: action.seat });
        return;
      }
      if (action.drawn && tileKey(action.drawn) !== tile) {
        reasons.push({ code: "drawn_mismatch", tile: tileKey(action.drawn) });
        return;
      }
      held.add(tile);
    } else if (action.type === "play") {
      const tile = tileKey(action.tile);
      if (!held.has(tile)) {
        reasons.push({ code: "play_not_held", seat: action.seat, tile });
        return;
      }
      held.delete(tile);
    }
  }
  (input.hands || []).forEach((hand, seat) => {
    if (holdings[seat] && !sameTiles(hand, [...holdings[seat]])) reasons.push({ code: "final_mismatch", seat });
  });
}

/**
 * What one page saw of each round, for `verifyRound`: the commitment kept from each
 * `round_started` (`commitments[round]`), this seat's dealt hand and the round's plays and
 * draws. Feed it every `sync` and every `event` in order; `verify(roundEnded, view)` checks a
 * revealed round once and remembers the verdict (`verdicts[round]`).
 */
export class DealBook {
  constructor() {
    this.commitments = {};
    this.rounds = {};
    this.verdicts = {};
    this.current = null;
    this.annulledByVote = false; // an `annulled` event came: the game was voted void
  }

  sync(snapshot) {
    const view = snapshot.view;
    if (snapshot.round === null || snapshot.round === undefined || !view) return;
    const round = snapshot.round;
    this.current = round;
    if (snapshot.commitment && !(round in this.commitments)) this.commitments[round] = snapshot.commitment;
    const actions = [];
    const played = [];
    const drew = [];
    for (const event of view.events || []) {
      if (event.type !== "play" && event.type !== "draw") continue;
      const action = { seat: event.seat, type: event.type };
      if (event.type === "play") action.tile = event.tile;
      if (event.type === "draw" && event.tile) action.drawn = event.tile;
      actions.push(action);
      if (event.seat === snapshot.you && event.type === "play") played.push(tileKey(event.tile));
      if (event.seat === snapshot.you && action.drawn) drew.push(tileKey(action.drawn));
    }
    let hand = null;
    if (snapshot.you !== null && snapshot.you !== undefined && view.hand) {
      // The dealt hand is what the seat holds, plus what it played, minus what it drew.
      const tiles = [...view.hand.map(tileKey), ...played];
      for (const tile of drew) tiles.splice(tiles.indexOf(tile), 1);
      hand = tiles;
    }
    this.rounds[round] = { hand, actions };
  }

  event(message) {
    const d = message.data || {};
    if (message.kind === "game_started") {
      // A new game (a rematch) numbers its rounds from 0 again.
      this.commitments = {};
      this.rounds = {};
      this.verdicts = {};
      this.current = null;
      this.annulledByVote = false;
    } else if (message.kind === "annulled") {
      this.annulledByVote = true;
    } else if (message.kind === "round_started") {
      this.current = d.round;
      this.commitments[d.round] = d.commitment;
      this.rounds[d.round] = { hand: d.hand ? [...d.hand] : null, actions: [] };
    } else if (message.kind === "action" && this.current !== null && this.rounds[this.current]) {
      const action = { seat: d.seat, type: d.action.type };
      if (d.action.type === "play") action.tile = d.action.tile;
      if (d.action.type === "draw" && d.drawn) action.drawn = d.drawn;
      this.rounds[this.current].actions.push(action);
    }
  }

  /** The verdict on a revealed round (`round_ended` data), checked once per round. */
  verify(data, { rules, seat }) {
    if (!this.verdicts[data.round]) {
      const seen = this.rounds[data.round];
      this.verdicts[data.round] = verifyRound({
        commitment: this.commitments[data.round] || null,
        revealedCommitment: data.commitment,
        seed: data.seed,
        salt: data.salt,
        rules,
        seat,
        hand: seen ? seen.hand : null,
        actions: seen ? seen.actions : null,
        hands: data.hands,
      });
    }
    return this.verdicts[data.round];
  }
}
