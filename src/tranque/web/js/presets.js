// What the table options form may offer, read from GET /api/presets and nothing else: the
// server says which player counts a preset seats, which modes and targets each count allows,
// the turn times and whether a capicúa bonus can be set (docs/protocol.md, «presets»). The
// client copies no rule table, so a choice the form offers is a choice the server accepts.
//
// Pure functions over the server's list, no DOM: tested by `node --test tests/web/js`.

const pick = (...values) => values.find((value) => value !== undefined && value !== null);

// Per player count `n`: a value keyed by the count ({"4": ...}) or one value for every count.
function perCount(value, n) {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "object" && !Array.isArray(value)) return value[String(n)];
  return value;
}

// The player counts `preset` seats, as strings, in the server's order.
export function playerCounts(preset) {
  const seatings = preset.seatings || {};
  return Array.isArray(seatings) ? seatings.map(String) : Object.keys(seatings);
}

// Everything the form offers for `preset` with `players` at the table (a count it seats, or
// none: the preset's default count). Values are as the server spells them.
export function formChoices(preset, players = undefined) {
  const defaults = preset.defaults || {};
  const counts = playerCounts(preset);
  const wanted = players === undefined || players === null ? undefined : String(players);
  const fallbackCount = counts.includes("4") ? "4" : counts[0];
  const defaultCount = String(pick(preset.default_players, defaults.players, fallbackCount));
  const n = wanted !== undefined && counts.includes(wanted) ? wanted : counts.includes(defaultCount) ? defaultCount : fallbackCount;
  const seatings = Array.isArray(preset.seatings) ? {} : preset.seatings || {};
  const modes = pick(perCount(preset.modes, n), seatings[n], []);
  const targets = pick(perCount(preset.target_choices, n), []);
  const target = pick(perCount(preset.default_target, n), perCount(defaults.target, n), perCount(preset.targets, n));
  const turns = pick(perCount(preset.turn_seconds_choices, n), []);
  const turn = pick(perCount(preset.default_turn_seconds, n), perCount(defaults.turn_seconds, n));
  const mode = pick(perCount(preset.default_mode, n), perCount(defaults.mode, n));
  const capicua = perCount(preset.capicua, n);
  return {
    counts,
    players: n,
    modes,
    mode: modes.includes(mode) ? mode : modes[0],
    targets,
    target: targets.includes(target) ? target : targets[0],
    turnSeconds: turns,
    turn: turns.includes(turn) ? turn : turns[Math.floor((turns.length - 1) / 2)],
    // Unknown (a server without the field) is not "allowed": the form then leaves it out.
    capicua: capicua === true || (typeof capicua === "number" && capicua > 0),
    capicuaBonus: pick(perCount(preset.capicua_bonus, n), typeof capicua === "number" ? capicua : undefined, 20),
  };
}

// The preset's summary in `lang`; the Spanish one when the server has no English one.
export function presetSummary(preset, lang) {
  return (lang === "en" && preset.summary_en) || preset.summary || "";
}

export function presetTitle(preset, lang) {
  return (lang === "en" && preset.title_en) || preset.title || preset.name;
}
