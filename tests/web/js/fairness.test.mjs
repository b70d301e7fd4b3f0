// The browser's own check of fair deals (fairness.js) against deals the Python engine made
// (tests/web/js/vectors/deals.json, from tests/web/fairness_vectors.py; test_fairness_vectors.py
// keeps the file equal to what the engine deals): `node --test tests/web/js/`.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

const fairness = await import(new URL("../../../src/tranque/web/js/fairness.js", import.meta.url));
const { commitmentOf, dealFromSeed, hexToBytes, setTiles, shuffled, verifyRound, DealBook } = fairness;
const VECTORS = JSON.parse(readFileSync(new URL("./vectors/deals.json", import.meta.url), "utf8"));

const sorted = (tiles) => [...tiles].sort();

// What seat 0 saw of the vector's round: its own dealt hand, everybody's plays and draws
// (the tile drawn only for its own draws) and the hands left at the end.
function honest(vector, seat = 0) {
  return {
    commitment: vector.commitment,
    seed: vector.seed,
    salt: vector.salt,
    rules: vector.rules,
    seat,
    hand: seat === null ? null : vector.dealt[seat],
    actions: vector.actions.map((action) =>
      action.type === "draw" && action.seat !== seat ? { seat: action.seat, type: "draw" } : { ...action }),
    hands: vector.left,
  };
}

test("the vectors cover several sets, player counts and hand sizes, with draws", () => {
  const shapes = new Set(VECTORS.map((v) => `${v.rules.set_max}/${v.rules.players}/${v.rules.hand_size}`));
  assert.ok(shapes.size >= 6, [...shapes].join(" "));
  assert.ok(VECTORS.some((v) => v.rules.set_max === 9));
  assert.ok(VECTORS.some((v) => v.actions.some((a) => a.type === "draw")));
});

test("the commitment is SHA-256(seed ‖ salt) over the raw bytes, as the server computes it", async () => {
  for (const vector of VECTORS) assert.equal(await commitmentOf(vector.seed, vector.salt), vector.commitment);
  assert.equal(await commitmentOf("zz", vector0().salt), null);
  assert.equal(hexToBytes("abc"), null);
});

function vector0() {
  return VECTORS[0];
}

test("the shuffle gives the engine's exact order, and the deal its hands and boneyard", async () => {
  for (const vector of VECTORS) {
    const { set_max, players, hand_size } = vector.rules;
    assert.deepEqual(await shuffled(setTiles(set_max), hexToBytes(vector.seed)), vector.order);
    const deal = await dealFromSeed(vector.seed, set_max, players, hand_size);
    assert.deepEqual(deal.hands.map(sorted), vector.hands.map(sorted));
    assert.deepEqual(deal.boneyard, vector.boneyard);
  }
});

test("an honest round checks out for a seat and for a spectator", async () => {
  for (const vector of VECTORS) {
    assert.deepEqual(await verifyRound(honest(vector)), { ok: true, reasons: [] });
    assert.deepEqual(await verifyRound(honest(vector, null)), { ok: true, reasons: [] });
  }
});

test("a wrong seed does not match the commitment kept from round_started", async () => {
  const [a, b] = VECTORS;
  const verdict = await verifyRound({ ...honest(a), seed: b.seed });
  assert.equal(verdict.ok, false);
  assert.ok(verdict.reasons.some((r) => r.code === "commitment_mismatch"), JSON.stringify(verdict));
});

test("a seed and commitment swapped together still fail: the seed does not deal this hand", async () => {
  const [a, b] = VECTORS.filter((v) => v.rules.players === 2);
  const fake = await commitmentOf(b.seed, a.salt);
  const verdict = await verifyRound({ ...honest(a), seed: b.seed, commitment: fake });
  assert.equal(verdict.ok, false);
  assert.ok(verdict.reasons.some((r) => r.code === "hand_mismatch"), JSON.stringify(verdict));
});

test("a drawn tile that is not next in the seed's boneyard is caught", async () => {
  const vector = VECTORS.find((v) => v.actions.some((a) => a.type === "draw" && a.seat === 0));
  const input = honest(vector);
  const draw = input.actions.find((a) => a.type === "draw" && a.seat === 0);
  const other = vector.boneyard.find((tile) => tile !== draw.drawn);
  draw.drawn = other;
  const verdict = await verifyRound(input);
  assert.ok(verdict.reasons.some((r) => r.code === "drawn_mismatch" && r.tile === other), JSON.stringify(verdict));
});

test("a play of a tile the seed did not give that seat is caught, and so are changed final hands", async () => {
  const vector = VECTORS[0];
  const input = honest(vector);
  const play = input.actions.find((a) => a.type === "play" && a.seat === 1);
  play.tile = vector.dealt[0][0];
  const verdict = await verifyRound(input);
  assert.ok(verdict.reasons.some((r) => r.code === "play_not_held" && r.seat === 1), JSON.stringify(verdict));
  const swapped = honest(vector);
  swapped.hands = [vector.left[1], vector.left[0], ...vector.left.slice(2)];
  const second = await verifyRound(swapped);
  assert.ok(second.reasons.some((r) => r.code === "final_mismatch"), JSON.stringify(second));
});

test("without a kept commitment or a revealed seed nothing is verified, and the verdict says why", async () => {
  assert.deepEqual(await verifyRound({ ...honest(VECTORS[0]), commitment: null }), { ok: false, reasons: [{ code: "no_commitment" }] });
  assert.deepEqual(await verifyRound({ ...honest(VECTORS[0]), seed: null }), { ok: false, reasons: [{ code: "not_revealed" }] });
});

// The events a seat receives for the vector's round, as docs/protocol.md shows them.
function events(vector, seat = 0) {
  const list = [{ kind: "round_started", data: { round: 0, commitment: vector.commitment, hand: vector.dealt[seat] } }];
  for (const action of vector.actions) {
    const data = { seat: action.seat, action: action.type === "play" ? { type: "play", tile: action.tile, side: null } : { type: "draw" } };
    if (action.type === "draw" && action.seat === seat) data.drawn = action.drawn;
    list.push({ kind: "action", data });
  }
  return list;
}

test("the deal book keeps the commitment from round_started, not the copy in round_ended", async () => {
  const vector = VECTORS[0];
  const ended = { round: 0, seed: vector.seed, salt: vector.salt, commitment: vector.commitment, hands: vector.left };
  const book = new DealBook();
  for (const message of events(vector)) book.event(message);
  assert.equal(book.commitments[0], vector.commitment);
  assert.deepEqual(await book.verify(ended, { rules: vector.rules, seat: 0 }), { ok: true, reasons: [] });

  const other = VECTORS[1];
  const liar = new DealBook();
  for (const message of events(vector)) liar.event(message);
  const tampered = { ...ended, seed: other.seed, commitment: await commitmentOf(other.seed, vector.salt) };
  const verdict = await liar.verify(tampered, { rules: vector.rules, seat: 0 });
  assert.equal(verdict.ok, false);
  assert.deepEqual(verdict.reasons.map((r) => r.code).slice(0, 2), ["commitment_mismatch", "commitment_changed"]);
});

test("after a reload mid-round the deal book rebuilds the dealt hand from the sync", async () => {
  const vector = VECTORS.find((v) => v.rules.players === 2 && v.actions.some((a) => a.type === "draw" && a.seat === 0));
  const half = vector.actions.slice(0, Math.ceil(vector.actions.length / 2));
  const hand = new Set(vector.dealt[0]);
  for (const a of half.filter((a) => a.seat === 0)) {
    if (a.type === "draw") hand.add(a.drawn);
    else hand.delete(a.tile);
  }
  const viewEvents = half.map((a) => a.type === "play" ? { type: "play", seat: a.seat, tile: a.tile }
    : a.seat === 0 ? { type: "draw", seat: 0, tile: a.drawn } : { type: "draw", seat: a.seat });
  const book = new DealBook();
  book.sync({ round: 0, you: 0, commitment: vector.commitment, view: { hand: [...hand], events: viewEvents } });
  assert.deepEqual(sorted(book.rounds[0].hand), sorted(vector.dealt[0]));
  for (const a of vector.actions.slice(half.length)) {
    const data = { seat: a.seat, action: a.type === "play" ? { type: "play", tile: a.tile } : { type: "draw" } };
    if (a.type === "draw" && a.seat === 0) data.drawn = a.drawn;
    book.event({ kind: "action", data });
  }
  const ended = { round: 0, seed: vector.seed, salt: vector.salt, commitment: vector.commitment, hands: vector.left };
  assert.deepEqual(await book.verify(ended, { rules: vector.rules, seat: 0 }), { ok: true, reasons: [] });
});

test("a new game (rematch) starts the book again; an annulled event is remembered", () => {
  const book = new DealBook();
  for (const message of events(VECTORS[0])) book.event(message);
  book.event({ kind: "annulled", data: { votes: [0] } });
  assert.equal(book.annulledByVote, true);
  book.event({ kind: "game_started", data: { game: 2 } });
  assert.deepEqual(book.commitments, {});
  assert.equal(book.annulledByVote, false);
});
