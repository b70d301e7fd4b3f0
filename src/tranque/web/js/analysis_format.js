// Pure helpers of the post-game analysis view (analysis_view.js): the progress, the chart's
// geometry, the accuracy and how a move is written. Every figure comes from the server
// (GET /api/games/{id}/analysis, docs/protocol.md «Post-game analysis»): the worths, the
// best move, the classes and the frames; nothing here judges a move or decides a rule. No
// DOM: `node --test` checks it (tests/web/js/analysis_format.test.mjs).

import { t, currentLang } from "./i18n.js";

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

/** What the chart draws: each point's expected `points` of the hand (the game's unit) when
 * every point has them (analyses since loss_points), else its combined `worth`. */
export function chartMeasure(result) {
  const points = result.chart.flat();
  return points.length && points.every((point) => typeof point.points === "number") ? "points" : "worth";
}

/** The chart of the expected result: per team, its polyline ("x,y …") through its moves'
 * expected results by frame (`chartMeasure`); the zero line's height; the value axis's
 * ticks; and a mark per flagged move. The scale is symmetric around zero and reaches the
 * largest value. */
export function analysisChart(result, { width = 320, height = 160, pad = 16, left = 40 } = {}) {
  const measure = chartMeasure(result);
  const frames = Math.max(2, result.steps);
  const values = result.chart.flat().map((point) => Math.abs(point[measure]));
  const top = Math.max(1, ...values);
  const x = (step) => round2(left + (step * (width - left - pad)) / (frames - 1));
  const y = (value) => round2(height / 2 - (value * (height / 2 - pad)) / top);
  const valueOf = new Map(result.decisions.map((d) => [d.step, d[measure]]));
  return {
    measure,
    lines: result.chart.map((points) => points.map((point) => `${x(point.step)},${y(point[measure])}`).join(" ")),
    zeroY: y(0),
    top,
    ticks: chartTicks(top, { height, pad }),
    left,
    marks: flaggedMoves(result).map((decision) => ({
      x: x(decision.step),
      y: y(valueOf.get(decision.step) || 0),
      verdict: decision.verdict,
      step: decision.step,
    })),
  };
}

function round2(value) {
  return Math.round(value * 100) / 100;
}

// The flagged moves in words ------------------------------------------------------------------
// One plain sentence per flagged move, from the server's fields alone (docs/analysis.md «On
// the site»): what it cost (`loss_points`, in the game's `unit`), the better move, and why
// (`reasons`, each with its lesson); the expert's weighted reading (`model_note`) apart. An
// analysis stored before those fields says its old figure, with its unit.

export const UNITS = ["points", "palitos", "goals"];

/** What the game's losses count: the result's `unit`, or for an older analysis its rules'. */
export function unitOf(result) {
  if (UNITS.includes(result.unit)) return result.unit;
  const scoring = result.rules && result.rules.scoring;
  return scoring === "ponce" ? "palitos" : scoring === "futbol" ? "goals" : "points";
}

/** A number as the reader writes it: "12", "2,5" (Spanish) or "2.5", at most one decimal. */
export function numberText(value) {
  return new Intl.NumberFormat(currentLang() === "en" ? "en-GB" : "es-CO", { maximumFractionDigits: 1 }).format(value);
}

/** An amount lost, in words: "unos 12 puntos", "cerca de un palito", "menos de un gol".
 * Whole numbers from 10 up, one decimal below (goals keep their decimal). */
export function amountText(value, unit) {
  const shown = unit !== "goals" && value >= 10 ? Math.round(value) : Math.round(value * 10) / 10;
  if (shown < 1) return t(`an_amount_under_${unit}`);
  if (shown === 1) return t(`an_amount_one_${unit}`);
  return t(`an_amount_${unit}`, { n: numberText(shown) });
}

/** What a player did, in the past: "jugó el 5-2 por la izquierda", "salió con el 6-6", "pasó". */
export function didWords(action) {
  if (action.type === "play") {
    if (action.side === null || action.side === undefined) return t("an_did_lead", { tile: action.tile });
    return t(action.side === "left" ? "an_did_left" : "an_did_right", { tile: action.tile });
  }
  return t(action.type === "draw" ? "an_did_draw" : "an_did_pass");
}

/** An action in words: "el 5-2 por la derecha", "salir con el 6-6", "pasar". */
export function actionText(action) {
  const { key, params } = actionWords(action);
  return t(key, params);
}

export const REASONS = [
  "missed_domino",
  "missed_winning_tranque",
  "closed_partner_number",
  "ignored_pass",
  "left_number_alone",
  "kept_heavy_into_tranque",
];

/** Why the better move was better, as a clause after "porque", or null for a kind this
 * client does not know (the rest of the sentence stands without it). */
export function reasonText(reason, nameOf) {
  if (!reason || !REASONS.includes(reason.kind)) return null;
  const params = { ...(reason.params || {}) };
  if (params.seat !== undefined && params.seat !== null) params.name = nameOf(params.seat);
  return t(`an_reason_${reason.kind}`, params);
}

/** Each lesson the reasons point to, once: its route and the link's words. */
export function lessonLinks(reasons) {
  const seen = new Set();
  const links = [];
  for (const reason of reasons || []) {
    const lesson = reason && reason.lesson;
    if (!lesson || seen.has(lesson) || !/^[a-z0-9-]+$/.test(lesson)) continue;
    seen.add(lesson);
    const title = t(`an_lesson_${lesson}`);
    links.push({ lesson, href: `#/aprender/${lesson}`, text: t("an_learn", { title: title === `an_lesson_${lesson}` ? lesson : title }) });
  }
  return links;
}

function sameAction(a, b) {
  return !!a && !!b && a.type === b.type && (a.tile || null) === (b.tile || null) && (a.side || null) === (b.side || null);
}

/** The expert's weighted reading, when the server sent one: a sentence of its own, or null. */
export function modelNoteText(decision, unit) {
  const note = decision.model_note;
  if (!note || typeof note.loss_points !== "number" || !note.best) return null;
  if (sameAction(note.best, decision.played)) return t("an_model_fine");
  return t("an_model_note", { best: actionText(note.best), amount: amountText(note.loss_points, unit) });
}

/** Which move, by whom, and what it was: "Mano 1, jugada 18 · Mari jugó el 5-2 por la izquierda". */
export function moveHead(decision, nameOf) {
  return t("an_said_head", { round: decision.round, move: decision.move, name: nameOf(decision.seat), did: didWords(decision.played) });
}

/** A flagged move in one plain sentence: who did what, what it cost, what was better and why. */
export function moveSentence(decision, { unit, nameOf }) {
  const head = moveHead(decision, nameOf);
  const cost =
    typeof decision.loss_points === "number"
      ? t("an_said_cost", { amount: amountText(decision.loss_points, unit) })
      : t("an_said_cost_old", { verdict: t(`an_verdict_${decision.verdict}`), loss: numberText(Math.round(decision.loss * 10) / 10), unit: t(`an_unit_${unit}`) });
  const why = (decision.reasons || []).map((reason) => reasonText(reason, nameOf)).filter(Boolean);
  const best = actionText(decision.best);
  const better = why.length ? t("an_said_best_because", { best, why: why.join(t("an_and")) }) : t("an_said_best", { best });
  return `${head}: ${cost} ${better}`;
}

/** What the board says at a flagged move's position (before it), and a step later. */
export function beforeText(decision, nameOf) {
  return t("an_before", { move: decision.move, name: nameOf(decision.seat) });
}

export function afterText(decision, nameOf) {
  return t("an_after", { name: nameOf(decision.seat), did: didWords(decision.played), verdict: t(`an_verdict_${decision.verdict}`), best: actionText(decision.best) });
}

/** The decisions not flagged where the expert's weighted reading (`model_note`) would have
 * played otherwise: shown apart, never as a verdict. */
export function notedMoves(result) {
  return result.decisions.filter((d) => !FLAGGED.includes(d.verdict) && d.model_note && d.model_note.best && !sameAction(d.model_note.best, d.played));
}

/** The noted (not flagged) decision taken at replay frame `index`, or null. */
export function notedAt(result, index) {
  return notedMoves(result).find((decision) => decisionFrame(decision) === index) || null;
}

/** The flagged decision whose move was just played at replay frame `index`, or null. */
export function flaggedJustBefore(result, index) {
  return flaggedMoves(result).find((decision) => decision.step === index) || null;
}

/** The chart's value axis: the top, zero and bottom values with their heights and labels. */
export function chartTicks(top, { height = 160, pad = 16 } = {}) {
  const y = (worth) => round2(height / 2 - (worth * (height / 2 - pad)) / top);
  const whole = Math.round(top);
  return [
    { value: whole, y: y(top), label: `+${numberText(whole)}` },
    { value: 0, y: y(0), label: "0" },
    { value: -whole, y: y(-top), label: `−${numberText(whole)}` },
  ];
}
