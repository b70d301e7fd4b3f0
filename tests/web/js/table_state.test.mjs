// The table-state reducer (src/tranque/web/js/table_state.js) over event streams recorded
// from real games against a real server (tests/web/record_streams.py wrote
// tests/web/js/streams/*.json): `node --test tests/web/js/`.
//
// The strongest check: folding a stream's events must give, at every checkpoint, the same
// table as the server's own `sync` snapshot of that moment.

import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import {
  initialState, reduceEvent, reduceOptions, reduceSync, canDo, isMyTurn, playsOf, tileKey, teamCount,
} from "../../../src/tranque/web/js/table_state.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const STREAMS = join(HERE, "streams");
const streams = readdirSync(STREAMS)
  .filter((name) => name.endsWith(".json"))
  .map((name) => JSON.parse(readFileSync(join(STREAMS, name), "utf8")));

function deepFreeze(value) {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function reduce(state, frame) {
  if (frame.type === "sync") return reduceSync(state, frame);
  if (frame.type === "event") return reduceEvent(state, frame);
  if (frame.type === "options") return reduceOptions(state, frame);
  return state;
}

// Every state the stream goes through, each after its frame; the states are frozen, so a
// reducer that changed the state it was given would throw here.
function fold(stream) {
  const states = [];
  let state = deepFreeze(initialState({ you: stream.you }));
  for (const frame of stream.frames) {
    state = deepFreeze(reduce(state, frame));
    states.push({ frame, state });
  }
  return states;
}

// What must agree between the fold of the events and the server's snapshot.
function picture(state) {
  return {
    phase: state.phase,
    round: state.round,
    seats: state.seats,
    scores: state.scores,
    goals: state.goals,
    handCounts: state.handCounts,
    boneyard: state.boneyard,
    hand: [...state.hand].sort(),
    layout: state.layout,
    ends: state.ends,
    played: [...state.played].sort(),
    markers: state.markers,
    passedOn: state.passedOn,
    turn: state.turn && { seat: state.turn.seat, turn_id: state.turn.turn_id, deadline: state.turn.deadline },
    results: state.results,
    votes: state.votes,
    ready: state.ready,
    commitment: state.round === null ? null : state.commitments[state.round],
    lastResult: state.phase === "between_rounds" && state.lastRound ? state.lastRound.result : null,
  };
}

test("the recorded streams are there", () => {
  assert.ok(streams.length >= 5, `only ${streams.length} streams in ${STREAMS}`);
});

for (const stream of streams) {
  test(`${stream.name}: the fold of the events matches every snapshot the server sent`, () => {
    const states = fold(stream);
    let compared = 0;
    for (const check of stream.checks) {
      const at = states.filter(({ state, frame }) => frame.type === "event" && state.seq === check.seq).pop();
      assert.ok(at, `the stream never reached seq ${check.seq}`);
      const expected = picture(reduceSync(initialState(), check));
      assert.deepEqual(picture(at.state), expected, `at seq ${check.seq}`);
      compared += 1;
    }
    assert.ok(compared >= 1, "no checkpoint compared");
  });

  test(`${stream.name}: starting from a snapshot, as the browser does, the later events agree too`, () => {
    const [first, ...later] = stream.checks;
    let state = deepFreeze(reduceSync(initialState(), first));
    let compared = 0;
    for (const frame of stream.frames) {
      if (frame.type === "event" && frame.seq <= first.seq) continue;
      if (frame.type !== "event" && state.seq <= first.seq) continue;
      state = deepFreeze(reduce(state, frame));
      for (const check of later.filter((c) => c.seq === state.seq && frame.type === "event")) {
        assert.deepEqual(picture(state), picture(reduceSync(initialState(), check)), `at seq ${check.seq}`);
        compared += 1;
      }
    }
    assert.ok(compared >= 1 || !later.length, "no later checkpoint compared");
  });

  test(`${stream.name}: events come in order, none is skipped, a repeated one changes nothing`, () => {
    const states = fold(stream);
    let seq = 0;
    for (const { frame, state } of states) {
      assert.equal(state.gap, false, `a gap at ${frame.seq}`);
      if (frame.type === "event") {
        assert.equal(state.seq, seq + 1);
        seq = state.seq;
        assert.equal(reduceEvent(state, frame), state, "a repeated event must leave the state alone");
      }
    }
    const last = states[states.length - 1].state;
    const skipped = reduceEvent(last, { type: "event", seq: last.seq + 2, kind: "phrase", at: 0, data: { seat: 0, phrase: "uy" } });
    assert.equal(skipped.gap, true);
    assert.equal(skipped.seq, last.seq);
    assert.equal(skipped.lastPhrase, last.lastPhrase);
    // A phrase hidden from this viewer (it blocked the speaker): numbered, nothing shown.
    const said = reduceEvent(last, { type: "event", seq: last.seq + 1, kind: "phrase", at: 0, data: { seat: 0, phrase: "uy" } });
    const hidden = reduceEvent(said, { type: "event", seq: said.seq + 1, kind: "phrase", at: 0, data: { seat: 1, phrase: null } });
    assert.equal(hidden.seq, said.seq + 1);
    assert.equal(hidden.gap, false);
    assert.deepEqual(hidden.lastPhrase, { seq: said.seq, seat: 0, phrase: "uy" });
  });

  test(`${stream.name}: the hand, options and scores a viewer is shown`, () => {
    for (const { frame, state } of fold(stream)) {
      assert.equal(state.scores.length, teamCount(state.rules), `scores at seq ${state.seq}: ${state.scores}`);
      if (stream.viewer === "spectator") {
        assert.deepEqual(state.hand, []);
        assert.equal(state.options, null);
      }
      if (frame.type === "options" && state.turn && state.turn.seat === stream.you) {
        assert.ok(isMyTurn(state) || !frame.legal_actions.length);
        for (const action of frame.legal_actions) {
          if (action.type === "play") {
            assert.ok(state.hand.includes(tileKey(action.tile)), `${action.tile} is not in the hand`);
            assert.ok(playsOf(state, tileKey(action.tile)).length >= 1);
          } else {
            assert.ok(canDo(state, action.type));
          }
        }
      }
      if (frame.type === "event" && frame.kind === "action") {
        const said = state.announcements[state.announcements.length - 1];
        assert.equal(said.seq, frame.seq);
        assert.equal(said.seat, frame.data.seat);
        assert.equal(said.type, frame.data.action.type);
        assert.equal(state.options, null, "an action ends the turn's options");
      }
    }
  });
}

test("ponce: the palitos a pass earns count on that very pass", () => {
  const ponce = streams.find((stream) => stream.name === "practice-ponce-4");
  let scoring = 0;
  let previous = null;
  for (const { frame, state } of fold(ponce)) {
    if (frame.type === "event" && frame.kind === "action" && frame.data.scores) {
      assert.equal(frame.data.action.type, "pass");
      assert.deepEqual(state.scores, frame.data.scores);
      if (previous && JSON.stringify(previous.scores) !== JSON.stringify(state.scores)) scoring += 1;
      assert.deepEqual(state.announcements[state.announcements.length - 1].scores, frame.data.scores);
    }
    previous = state;
  }
  assert.ok(scoring >= 1, "no pass changed the score");
});

test("a created table shows zeros before its first hand ends", () => {
  const host = streams.find((stream) => stream.name === "public-host-4");
  const states = fold(host);
  const firstDeal = states.find(({ frame }) => frame.kind === "round_started");
  assert.deepEqual(firstDeal.state.scores, [0, 0]);
  // And a snapshot without scores (no view yet) gives zeros too.
  const waiting = host.checks.find((check) => check.phase === "waiting");
  assert.ok(waiting, "no snapshot of the waiting table");
  assert.deepEqual(reduceSync(initialState(), waiting).scores, [0, 0]);
});

test("rounds end by dominó and by tranque; games end at the target and by vote", () => {
  const ended = new Set();
  const reasons = new Set();
  for (const stream of streams) {
    for (const { frame, state } of fold(stream)) {
      if (frame.kind === "round_ended") {
        if (frame.data.result) ended.add(frame.data.result.kind);
        assert.equal(state.phase, "between_rounds");
        assert.equal(state.lastRound, frame.data);
        assert.equal(state.turn, null);
      }
      if (frame.kind === "round_started") {
        assert.equal(state.commitments[frame.data.round], frame.data.commitment);
        assert.deepEqual(state.layout, []);
      }
      if (frame.kind === "game_ended") {
        reasons.add(frame.data.reason);
        assert.equal(state.gameEnd, frame.data);
        assert.equal(state.phase, frame.data.reason === "annulled" ? "annulled" : "finished");
      }
      if (frame.kind === "annulled") assert.deepEqual(state.annulled, frame.data.votes);
      if (frame.kind === "vote") assert.equal(state.votes.includes(frame.data.seat), frame.data.agree);
      if (frame.kind === "phrase") assert.deepEqual(state.lastPhrase, { seq: frame.seq, ...frame.data });
      if (frame.kind === "ready") assert.ok(state.ready.includes(frame.data.seat));
    }
  }
  assert.deepEqual([...ended].sort(), ["domino", "tranque"]);
  assert.deepEqual([...reasons].sort(), ["annulled", "target"]);
});

test("a rematch's game_started starts again from zero; rematch votes are kept", () => {
  const ponce = streams.find((stream) => stream.name === "practice-ponce-4");
  const states = fold(ponce);
  let state = states[states.length - 1].state;
  assert.ok(state.results.length >= 1 && state.gameEnd);
  const vote = { seat: 0, agreed: [0], needed: [0] };
  state = reduceEvent(state, { type: "event", seq: state.seq + 1, kind: "rematch_vote", at: 0, data: vote });
  assert.deepEqual(state.rematch, vote);
  state = reduceEvent(state, { type: "event", seq: state.seq + 1, kind: "game_started", at: 0, data: { game: 2, first_starter: null } });
  assert.deepEqual(state.scores, [0, 0]);
  assert.deepEqual(state.results, []);
  assert.equal(state.gameEnd, null);
  assert.equal(state.rematch, null);
  assert.equal(state.phase, "playing");
});

test("a sync's boxes, line ends and host panel are kept as the server sent them", () => {
  const host = streams.find((stream) => stream.name === "public-host-4");
  const check = host.checks.find((c) => c.view && c.view.line.length >= 2);
  const state = reduceSync(initialState(), check);
  assert.deepEqual(state.line, check.view.line);
  assert.deepEqual(state.lineEnds, check.view.line_ends);
  assert.ok(check.host && "invite_url" in check.host, "the host's sync carries the host panel");
  assert.deepEqual(state.host, check.host);
  const spectator = streams.find((stream) => stream.name === "public-spectator-4");
  assert.equal(reduceSync(initialState(), spectator.checks[0]).host, null);
});

test("a rating event (a competitive table) moves the numbering on and changes the rating only", () => {
  const stream = streams.find((s) => s.name === "public-host-4") || streams[0];
  const states = fold(stream);
  const last = states[states.length - 1].state;
  const data = {
    competitive: true, rated: false, reason: "same_address", chances: null,
    seats: [{ seat: 0, rating: 450, provisional: true }, null, null, null],
  };
  const next = reduceEvent(last, { type: "event", seq: last.seq + 1, kind: "rating", at: 0, data });
  assert.equal(next.seq, last.seq + 1);
  assert.equal(next.gap, false);
  assert.deepEqual(next.rating, data);
  assert.deepEqual({ ...next, seq: last.seq, rating: last.rating }, { ...last, seq: last.seq });
});

test("a rated game's game_ended keeps its rating changes with the rest of the end", () => {
  const states = fold(streams.find((s) => s.name === "public-host-4") || streams[0]);
  const last = states[states.length - 1].state;
  const changes = [{ seat: 0, before: 450, after: 656, xp: 20 }, { seat: 1, before: 450, after: 340, xp: 5 }];
  const data = { scores: [104, 58], goals: [0, 0], winners: [0], reason: "target", rating_changes: changes };
  const ended = reduceEvent(last, { type: "event", seq: last.seq + 1, kind: "game_ended", at: 0, data });
  assert.equal(ended.phase, "finished");
  assert.deepEqual(ended.gameEnd.rating_changes, changes);
});
