// The table as this viewer knows it: a pure fold of the server's `sync`, numbered `event`s
// and private `options` (docs/protocol.md). No DOM, no clock, no rule: every number here
// (ends, counts, scores, legal actions) comes from the server; this module only keeps it.
// Each reducer returns a NEW state object and never changes the one it was given, so views
// can compare the state before and after a message to update only what changed.

const ANNOUNCEMENTS_KEPT = 12;

// "6-4" and "4-6" are the same tile; the server writes the higher half first.
export function tileKey(text) {
  const [a, b] = String(text).split("-").map(Number);
  return `${Math.max(a, b)}-${Math.min(a, b)}`;
}

export function parseTile(text) {
  return String(text).split("-").map(Number);
}

// How many scores a table keeps: one per pair in pairs, one per seat alone.
export function teamCount(rules) {
  if (!rules || !rules.players) return 0;
  return rules.mode === "pairs" ? rules.players / 2 : rules.players;
}

// The team a seat plays for (its pair in pairs, itself alone).
export function teamOf(rules, seat) {
  return rules && rules.mode === "pairs" ? seat % (rules.players / 2) : seat;
}

function zeros(rules) {
  return Array.from({ length: teamCount(rules) }, () => 0);
}

// Scores are lists by team; before the first hand ends a server may send none (or an
// empty list): that is zero for everybody, not "no score bar".
function scoresOr(list, rules) {
  return Array.isArray(list) && list.length ? [...list] : zeros(rules);
}

export function initialState({ you = null } = {}) {
  return {
    seq: 0,
    gap: false, // an event came with a seq that skipped one: ask for a fresh sync
    table: null,
    kind: null,
    tournament: null, // {id, round} at a tournament's table (sync)
    you,
    rules: null,
    botLevel: null,
    phase: "waiting",
    seats: [],
    host: null, // sync.host: the host's panel (invite, fill with bots), null for the others
    round: null,
    starter: null,
    turn: null,
    options: null,
    hand: [],
    handCounts: [],
    boneyard: 0,
    pozoDealt: null, // the pozo this round was dealt with (0: none), from the server's counts
    line: [], // the server's placed boxes (docs/protocol.md, «The line on the table»)
    lineEnds: null, // {left: E, right: E} where the next tile would touch, when sent
    layout: [], // [[a, b], …]: each placed tile's halves as they lie, left to right
    ends: null, // [left, right]: the two open numbers
    played: [], // tiles on the line, as keys
    markers: {}, // by seat: {kind: "passed"} or {kind: "drew", n}
    passedOn: {}, // by seat: the numbers that were open when it passed (sorted list)
    scores: [],
    goals: [],
    results: [],
    commitments: {},
    lastRound: null,
    gameEnd: null,
    game: 1,
    rematch: null,
    rating: null, // sync.rating / a `rating` event: does the game count, and the chances
    votes: [],
    ready: [],
    annulled: null, // the seats that voted, once the game was annulled by vote
    lastPhrase: null, // {seq, seat, phrase}
    chat: [], // {seq, seat, text}: the table's recent chat lines this seat was sent (talk.js)
    hint: null, // {turn_id, action}: the «Pista» the server gave this seat (practice tables)
    hintsLeft: null, // how many more this game, as the sync or the last hint's ack said (null: not known)
    hintsPerGame: null, // how many a game gives, as the sync said (0: none; null: not known)
    deals: null, // the name of the table's shared deals (sync), else null
    announcements: [], // {seq, seat, type, tile, side, by, laid, scores}: what happened, newest last
  };
}

// ---------------------------------------------------------------------------------------
// sync: a whole snapshot

export function reduceSync(state, snapshot) {
  const view = snapshot.view || null;
  const rules = snapshot.rules;
  const next = {
    ...initialState({ you: snapshot.you === undefined ? state.you : snapshot.you }),
    seq: snapshot.seq,
    table: snapshot.table || state.table,
    kind: snapshot.kind,
    rules,
    phase: snapshot.phase,
    seats: (snapshot.seats || []).map((seat) => ({ ...seat })),
    host: snapshot.host || null,
    round: snapshot.round === undefined ? null : snapshot.round,
    turn: snapshot.turn ? { ...snapshot.turn } : null,
    results: [...(snapshot.results || [])],
    votes: [...(snapshot.votes || [])],
    ready: [...(snapshot.ready || [])],
    commitments: { ...state.commitments },
    game: snapshot.game || state.game || 1,
    rematch: snapshot.rematch || null,
    rating: snapshot.rating || null,
    stake: snapshot.stake || 0, // a staked table's fichas (docs/protocol.md «pot»)
    pot: snapshot.pot || 0,
    chat: (snapshot.chat || []).map((line) => ({ ...line })),
    tournament: snapshot.tournament || null, // a tournament's table: {id, round} (its link back)
    announcements: state.table === snapshot.table ? state.announcements : [],
    hint: state.table === snapshot.table ? state.hint : null, // kept only for its own turn (hint.js)
    hintsPerGame: snapshot.hints ? snapshot.hints.per_game : null, // 0: this table gives none
    hintsLeft: snapshot.hints ? snapshot.hints.left
      : state.table === snapshot.table && state.game === snapshot.game ? state.hintsLeft : null,
    deals: snapshot.deals || null, // shared deals' name: `reparto:<day>:<mode>` at el reparto del día
  };
  if (snapshot.commitment && next.round !== null) next.commitments[next.round] = snapshot.commitment;
  if (view) {
    next.hand = (view.hand || []).map(tileKey);
    next.handCounts = [...(view.hand_counts || [])];
    next.boneyard = view.boneyard_count || 0;
    next.pozoDealt = next.boneyard + (view.events || []).filter((event) => event.type === "draw").length;
    next.layout = (view.layout || []).map((pair) => [...pair]);
    next.ends = view.ends ? [...view.ends] : null;
    next.line = boxesOf(view.line);
    next.lineEnds = view.line_ends || null;
    next.starter = view.starter === undefined ? null : view.starter;
    Object.assign(next, foldRoundEvents(view.events || []));
    if (view.legal_actions && view.legal_actions.length && snapshot.turn) {
      next.options = { turn_id: snapshot.turn.turn_id, legal_actions: view.legal_actions };
    }
    if (view.is_over && view.result) {
      next.lastRound = {
        round: snapshot.round,
        result: view.result,
        hands: view.revealed_hands,
        scores: view.scores,
        goals: view.goals,
      };
    }
  }
  next.scores = scoresOr(view && view.scores, rules);
  next.goals = scoresOr(view && view.goals, rules);
  if (snapshot.game_end) next.gameEnd = snapshot.game_end;
  return next;
}

// `view.line`: the boxes the server laid the line out in (docs/protocol.md).
function boxesOf(line) {
  return (line || []).map((box) => ({ ...box }));
}

// Markers, pass numbers and the tiles played, from a round's public events.
function foldRoundEvents(events) {
  let s = { markers: {}, passedOn: {}, played: [] };
  let ends = null;
  for (const event of events) {
    if (event.type === "play") {
      ends = event.laid ? endsAfterLaid(ends, event) : ends;
    }
    s = track(s, event.seat, event, ends);
  }
  return s;
}

// The open ends after a play, from the halves the server says it laid.
function endsAfterLaid(ends, play) {
  const [left, right] = play.laid;
  if (!play.side || !ends) return [left, right];
  return play.side === "left" ? [left, ends[1]] : [ends[0], right];
}

// What a seat's action leaves on its badge: passes (and what was open), draws in a row.
function track(s, seat, action, endsNow) {
  const markers = { ...s.markers };
  const passedOn = { ...s.passedOn };
  let played = s.played;
  if (action.type === "play") {
    played = [...played, tileKey(action.tile)];
    delete markers[seat];
  } else if (action.type === "draw") {
    const marker = markers[seat];
    markers[seat] = { kind: "drew", n: marker && marker.kind === "drew" ? marker.n + 1 : 1 };
  } else if (action.type === "pass") {
    markers[seat] = { kind: "passed" };
    if (endsNow) passedOn[seat] = [...new Set([...(passedOn[seat] || []), ...endsNow])].sort((x, y) => x - y);
  }
  return { markers, passedOn, played };
}

// ---------------------------------------------------------------------------------------
// options: this seat's legal actions for one turn

export function reduceOptions(state, message) {
  if (!state.turn || message.turn_id !== state.turn.turn_id) return state;
  return { ...state, options: { turn_id: message.turn_id, legal_actions: message.legal_actions } };
}

// ---------------------------------------------------------------------------------------
// event: one numbered table event

export function reduceEvent(state, message) {
  if (message.seq <= state.seq) return state; // already processed (a resume may repeat)
  if (state.seq && message.seq !== state.seq + 1) return { ...state, gap: true };
  const handler = HANDLERS[message.kind];
  const next = handler ? handler({ ...state }, message.data || {}, message) : { ...state };
  next.seq = message.seq;
  next.gap = false;
  return next;
}

const CHAT_KEPT = 50; // chat lines a table keeps on screen

const HANDLERS = {
  table_created(s, d) {
    s.rules = d.rules;
    s.kind = d.kind;
    s.botLevel = d.bot_level || null;
    s.phase = "waiting";
    s.scores = zeros(d.rules);
    s.goals = zeros(d.rules);
    return s;
  },

  seat(s, d) {
    s.seats = [...s.seats];
    s.seats[d.seat] = { ...d };
    return s;
  },

  game_started(s, d) {
    s.phase = "playing";
    if (d.game && d.game !== s.game) {
      // A rematch: the same table plays a new game from zero.
      s.game = d.game;
      s.results = [];
      s.lastRound = null;
      s.gameEnd = null;
      s.rematch = null;
      s.votes = [];
      s.annulled = null;
      s.scores = zeros(s.rules);
      s.goals = zeros(s.rules);
      s.hint = null;
      s.hintsLeft = null; // a new game, its own hints
    }
    return s;
  },

  round_started(s, d) {
    Object.assign(s, {
      phase: "playing",
      round: d.round,
      starter: d.starter === undefined ? null : d.starter,
      hand: d.hand ? d.hand.map(tileKey) : [],
      handCounts: [...(d.hand_counts || [])],
      boneyard: d.boneyard_count || 0,
      pozoDealt: d.boneyard_count || 0,
      line: [],
      lineEnds: null,
      layout: [],
      ends: null,
      played: [],
      markers: {},
      passedOn: {},
      options: null,
      turn: null,
      hint: null,
      ready: [],
      commitments: { ...s.commitments, [d.round]: d.commitment },
    });
    if (d.scores) s.scores = scoresOr(d.scores, s.rules);
    else if (!s.scores.length) s.scores = zeros(s.rules);
    if (d.goals) s.goals = scoresOr(d.goals, s.rules);
    else if (!s.goals.length) s.goals = zeros(s.rules);
    return s;
  },

  turn(s, d, message) {
    s.turn = { ...d, at: message.at };
    if (s.options && s.options.turn_id !== d.turn_id) s.options = null;
    return s;
  },

  action(s, d, message) {
    const action = d.action;
    const numbers = d.ends ? [...d.ends] : null;
    const counts = [...s.handCounts];
    let laid = null;
    if (action.type === "play") {
      const [a, b] = parseTile(action.tile);
      const before = s.ends;
      if (!action.side || !before) laid = numbers ? [...numbers] : [Math.max(a, b), Math.min(a, b)];
      else if (action.side === "left") laid = [numbers ? numbers[0] : a + b - before[0], before[0]];
      else laid = [before[1], numbers ? numbers[1] : a + b - before[1]];
      s.layout = action.side === "left" ? [laid, ...s.layout] : [...s.layout, laid];
      if (d.place) s.line = action.side === "left" ? [{ ...d.place }, ...s.line] : [...s.line, { ...d.place }];
      counts[d.seat] -= 1;
      if (d.seat === s.you) s.hand = s.hand.filter((key) => key !== tileKey(action.tile));
    } else if (action.type === "draw") {
      counts[d.seat] += 1;
      s.boneyard = Math.max(0, s.boneyard - 1);
      if (d.drawn && d.seat === s.you) s.hand = [...s.hand, tileKey(d.drawn)];
    }
    s.handCounts = counts;
    if (numbers) s.ends = numbers;
    if (d.line_ends) s.lineEnds = d.line_ends;
    Object.assign(s, track(s, d.seat, action, s.ends));
    if (d.scores) s.scores = scoresOr(d.scores, s.rules); // ponce: a pass that scores counts at once
    s.options = null;
    s.announcements = [
      ...s.announcements,
      {
        seq: message.seq,
        seat: d.seat,
        type: action.type,
        tile: action.tile || null,
        side: action.side || null,
        by: d.by || null,
        laid,
        scores: d.scores || null,
      },
    ].slice(-ANNOUNCEMENTS_KEPT);
    return s;
  },

  round_ended(s, d) {
    s.phase = "between_rounds";
    s.scores = scoresOr(d.scores, s.rules);
    s.goals = scoresOr(d.goals, s.rules);
    s.turn = null;
    s.options = null;
    s.ready = [];
    if (d.result) s.results = [...s.results, d.result];
    s.lastRound = d;
    return s;
  },

  ready(s, d) {
    s.ready = [...new Set([...s.ready, d.seat])];
    return s;
  },

  game_ended(s, d) {
    s.phase = d.reason === "annulled" ? "annulled" : "finished";
    s.scores = scoresOr(d.scores, s.rules);
    s.goals = scoresOr(d.goals, s.rules);
    s.turn = null;
    s.options = null;
    s.gameEnd = d;
    return s;
  },

  phrase(s, d, message) {
    // null: a player you blocked spoke (docs/protocol.md, «Friends and blocks»): nothing to show.
    if (d.phrase !== null) s.lastPhrase = { seq: message.seq, seat: d.seat, phrase: d.phrase };
    return s;
  },

  chat(s, d, message) {
    // No text: a spectator's frame, or a line of a player you muted or blocked: nothing to show.
    if (typeof d.text === "string") s.chat = [...s.chat, { seq: message.seq, seat: d.seat, text: d.text }].slice(-CHAT_KEPT);
    return s;
  },

  vote(s, d) {
    s.votes = d.agree ? [...new Set([...s.votes, d.seat])] : [];
    return s;
  },

  annulled(s, d) {
    s.annulled = [...(d.votes || s.votes)];
    return s;
  },

  rematch_vote(s, d) {
    s.rematch = { ...d };
    return s;
  },

  rating(s, d) {
    return reduceRating(s, d);
  },

  hint(s, d) {
    return reduceHint(s, d);
  },
};

// A «Pista» (docs/protocol.md, «Hints at practice tables»): a `hint` event, whose `action`
// only the seat that asked receives, or the ack of this seat's own `hint` message. Kept for
// the turn it is for; every other seat's hint (no action) changes nothing here.
export function reduceHint(state, data) {
  if (!data || !data.action || !Number.isInteger(data.turn_id)) return state;
  if (data.seat !== undefined && data.seat !== state.you) return state;
  const next = { ...state, hint: { turn_id: data.turn_id, action: { ...data.action } } };
  if (Number.isInteger(data.left)) next.hintsLeft = data.left; // only the ack says it
  return next;
}

// The table's rating line changed (a player sat or left): the same data as sync's `rating`.
export function reduceRating(state, data) {
  return { ...state, rating: data ? { ...data } : null };
}

// ---------------------------------------------------------------------------------------
// Questions the views ask of a state (answers read from the server's options, never a rule)

export function isMyTurn(state) {
  return Boolean(state.turn && state.you !== null && state.turn.seat === state.you && state.options);
}

export function playsOf(state, key) {
  if (!state.options) return [];
  return state.options.legal_actions.filter((action) => action.type === "play" && tileKey(action.tile) === key);
}

export function canDo(state, type) {
  return Boolean(state.options && state.options.legal_actions.some((action) => action.type === type));
}

// Whether this table has a pozo to show: its rules let players draw and the round was dealt
// with one (four with double-six leave none; fútbol and sin-pozo never draw).
export function hasPozo(state) {
  return Boolean(state.rules && state.rules.drawing !== "none" && state.pozoDealt);
}

export function humanCount(state) {
  return state.seats.filter((seat) => seat && seat.kind === "human").length;
}

export function partnerOf(state, seat) {
  const rules = state.rules;
  if (!rules || rules.mode !== "pairs" || seat === null) return null;
  return (seat + rules.players / 2) % rules.players;
}
