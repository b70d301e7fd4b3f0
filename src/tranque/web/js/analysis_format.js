// Pure helpers of the post-game analysis view (analysis_view.js): the progress, the chart's
// geometry, the accuracy and how a move is written. Every figure comes from the server
// (GET /api/games/{id}/analysis, docs/protocol.md «Post-game analysis»): the worths, the
// best move, the classes and the frames; nothing here judges a move or decides a rule. No
// DOM: `node --test` checks it (tests/web/js/analysis_format.test.mjs).

export const FLAGGED = ["inaccuracy", "error"];

/** The share of the analysis done, a whole percent from 0 to 100. */
export function progressPercent(progress) {
  if (!progress || !progress.total) return 0;
  return Math.max(0, Math.min(100, Math.floor((100 * progress.done) / progress.total)));
}

/** A player's accuracy as shown: "87 %", or "—" without a judged move. */
export function accuracyText(accuracy) {
  return accuracy === null || accuracy === undefined ? "—" : `${Math.round(accuracy)} %`;
}

/** A worth or a loss with one decimal: "12.3", "0.0". */
export function lossText(loss) {
  return (Math.round(loss * 10) / 10).toFixed(1);
}

/** The decisions marked "imprecisión" or "error", in the order played. */
export function flaggedMoves(result) {
  return result.decisions.filter((decision) => FLAGGED.includes(decision.verdict));
}

/** The replay frame where a decision is taken: the one before its move (its `step`). */
export function decisionFrame(decision) {
  return decision.step - 1;
}

/** The flagged decision taken at replay frame `index`, or null. */
export function flaggedAt(result, index) {
  return flaggedMoves(result).find((decision) => decisionFrame(decision) === index) || null;
}

/** How an action is written: a message key and its parameters. */
export function actionWords(action) {
  if (action.type === "play") {
    if (action.side === null || action.side === undefined) return { key: "an_lead", params: { tile: action.tile } };
    return { key: action.side === "left" ? "an_play_left" : "an_play_right", params: { tile: action.tile } };
  }
  return { key: action.type === "draw" ? "an_draw" : "an_pass", params: {} };
}

/** Where a frame lies along a bar of `frames` frames, in percent (the timeline's marks). */
export function framePercent(index, frames) {
  return frames > 1 ? Math.round((10000 * index) / (frames - 1)) / 100 : 0;
}

/** The chart of the expected result: per team, its polyline ("x,y …") through its moves'
 * worths by frame; the zero line's height; and a mark per flagged move. The scale is
 * symmetric around zero and reaches the largest worth. */
export function analysisChart(result, { width = 320, height = 160, pad = 16 } = {}) {
  const frames = Math.max(2, result.steps);
  const worths = result.chart.flat().map((point) => Math.abs(point.worth));
  const top = Math.max(1, ...worths);
  const x = (step) => round2(pad + (step * (width - 2 * pad)) / (frames - 1));
  const y = (worth) => round2(height / 2 - (worth * (height / 2 - pad)) / top);
  const worthOf = new Map(result.decisions.map((d) => [d.step, d.worth]));
  return {
    lines: result.chart.map((points) => points.map((point) => `${x(point.step)},${y(point.worth)}`).join(" ")),
    zeroY: y(0),
    marks: flaggedMoves(result).map((decision) => ({
      x: x(decision.step),
      y: y(worthOf.get(decision.step) || 0),
      verdict: decision.verdict,
      step: decision.step,
    })),
  };
}

function round2(value) {
  return Math.round(value * 100) / 100;
}
