// The words of a round's and a game's end: who won, who scores what and why, in the terms of
// the table's scoring (points, points against you, goals, palitos).
//
// Every number comes from the server: the round's `result` (the engine's
// RoundResult.to_json(), docs/protocol.md «round_ended») and the game's `scores` and `goals`.
// Nothing here decides a rule; `rules.scoring` only chooses the words. Pure: no DOM, so
// `node --test` checks it over results recorded from the engine (tests/web/js/vectors).
//
// `ctx`: {rules, seat (null for a spectator), nameOf(seat), teamName(team)}.

import { t } from "./i18n.js";

const entries = (perTeam) => Object.entries(perTeam || {}).map(([team, n]) => [Number(team), n]);

function individual(ctx) {
  return ctx.rules.mode !== "pairs";
}

// "you" only when this viewer is that team on its own (in pairs a team is two partners).
function isMe(ctx, team) {
  return individual(ctx) && ctx.seat !== null && ctx.seat !== undefined && team === ctx.seat;
}

function teamOrYou(ctx, s) {
  return isMe(ctx, s) ? t("you") : ctx.teamName(s);
}

/** The first line of a round's end: how it ended and who won it. */
export function roundHeadline(result, ctx) {
  if (!result) return t("res_unfinished");
  if (result.tie) return t("res_tie");
  const seat = result.winner_seat;
  const mine = seat === ctx.seat && ctx.seat !== null && ctx.seat !== undefined;
  if (result.kind === "domino") return mine ? t("res_domino_you") : t("res_domino_by", { name: ctx.nameOf(seat) });
  // A pairs tranque counted by team is won by the team (its name says who is in it).
  if (!individual(ctx) && ctx.rules.tranque_count !== "individual") return t("res_tranque_by", { name: ctx.teamName(result.winner) });
  return mine ? t("res_tranque_you") : t("res_tranque_by", { name: ctx.nameOf(seat) });
}

function othersLines(result, ctx) {
  const lines = [];
  for (const [s, n] of entries(result.points)) {
    if (n > 0) lines.push(isMe(ctx, s) ? t("res_score_you", { n }) : t("res_score", { name: ctx.teamName(s), n }));
  }
  if (result.capicua) {
    const bonus = ctx.rules.capicua_bonus || 0;
    lines.push(bonus > 0 ? t("res_capicua_bonus", { n: bonus }) : t("res_capicua"));
  }
  if (!lines.length) lines.push(t("res_nobody_scores"));
  return lines;
}

function penaltyLines(result, ctx) {
  const lines = [t("res_penalty_rule")];
  for (const [s, n] of entries(result.points)) {
    if (isMe(ctx, s)) lines.push(n > 0 ? t("res_penalty_you", { n }) : t("res_penalty_none_you"));
    else lines.push(n > 0 ? t("res_penalty", { name: ctx.teamName(s), n }) : t("res_penalty_none", { name: ctx.teamName(s) }));
  }
  return lines;
}

function futbolLines(result, ctx) {
  const lines = [];
  const winner = result.winner;
  for (const [scorer, n] of entries(result.goals)) {
    if (!n) continue;
    const left = (result.counts || {})[String(scorer)];
    if (isMe(ctx, scorer)) lines.push(t("res_goal_you", { n: left, winner: teamOrYou(ctx, winner) }));
    else if (isMe(ctx, winner)) lines.push(t("res_goal_against_you", { name: ctx.teamName(scorer), n: left }));
    else lines.push(t("res_goal", { name: ctx.teamName(scorer), n: left, winner: teamOrYou(ctx, winner) }));
  }
  for (const [s, n] of entries(result.points)) {
    if (n <= 0) continue;
    const others = entries(result.counts).filter(([o]) => o !== s).map(([o]) => o);
    if (isMe(ctx, s)) lines.push(t("res_futbol_points_you", { n, from: others.map((o) => ctx.teamName(o)).join(", ") }));
    else if (others.some((o) => isMe(ctx, o))) lines.push(t("res_futbol_points_yours", { name: ctx.teamName(s), n }));
    else lines.push(t("res_futbol_points", { name: ctx.teamName(s), n, from: others.map((o) => ctx.teamName(o)).join(", ") }));
  }
  if (!lines.length) lines.push(t("res_nobody_scores"));
  return lines;
}

function palitos(n) {
  return n === 1 ? t("res_palito_one") : t("res_palitos", { n });
}

function ponceLines(result, ctx) {
  const lines = [];
  for (const [s, n] of entries(result.points)) {
    if (n <= 0) continue;
    const passes = (result.pass_points || {})[String(s)] || 0;
    const blocked = (result.blocker_points || {})[String(s)] || 0;
    const pips = n - passes - blocked; // the part the server did not itemise: the rounded pips
    const parts = [];
    if (passes) parts.push(t("res_palitos_passes", { n: passes }));
    if (blocked) parts.push(t("res_palitos_blocker", { n: blocked }));
    if (pips) parts.push(t("res_palitos_pips", { n: pips }));
    lines.push(t("res_ponce_score", { name: ctx.teamName(s), what: palitos(n), parts: parts.join(", ") }));
  }
  if (!lines.length) lines.push(t("res_nobody_palitos"));
  return lines;
}

/** What each team gets from the round, as sentences (never "nobody scores" next to a score). */
export function roundLines(result, ctx) {
  if (!result) return [];
  const scoring = ctx.rules.scoring;
  if (scoring === "penalty") return penaltyLines(result, ctx);
  if (scoring === "futbol") return futbolLines(result, ctx);
  if (scoring === "ponce") return ponceLines(result, ctx);
  return othersLines(result, ctx);
}

/** The game's score after the round, in the table's units: "Marcador: Tú 12 · Bot 1 30". */
export function scoreLine(scores, goals, ctx) {
  const scoring = ctx.rules.scoring;
  const parts = (scores || []).map((n, s) => {
    if (scoring !== "futbol" || !goals) return `${teamOrYou(ctx, s)} ${n}`;
    const scored = goals[s] || 0;
    return t("res_futbol_team", { name: teamOrYou(ctx, s), n, goals: scored === 1 ? t("res_goal_one") : t("res_goals", { n: scored }) });
  });
  const key = { penalty: "res_total_penalty", ponce: "res_total_palitos" }[scoring] || "res_total";
  return t(key, { list: parts.join(" · ") });
}

/** {headline, lines, total} for a `round_ended` event's data. */
export function roundSummary(data, ctx) {
  return {
    headline: roundHeadline(data.result, ctx),
    lines: roundLines(data.result, ctx),
    total: scoreLine(data.scores, data.goals, ctx),
  };
}

/** {headline, lines} for a `game_ended` event's data; `annulledByVote` from an `annulled`
 * event before it (else the server annulled a table left or never filled). */
export function gameSummary(data, ctx, { annulledByVote = false } = {}) {
  if (data.reason === "annulled" && data.operator_reason) {
    return { headline: t("res_annulled"), lines: [t("res_annulled_operator"), t("res_operator_reason", { reason: data.operator_reason })] };
  }
  if (data.reason === "annulled") {
    return { headline: t("res_annulled"), lines: [t(annulledByVote ? "res_annulled_vote" : "res_annulled_server")] };
  }
  const winners = data.winners || [];
  let headline;
  if (winners.length === 1 && isMe(ctx, winners[0])) headline = t("you_win");
  else if (winners.length > 1) headline = t("winners_are", { name: winners.map((s) => teamOrYou(ctx, s)).join(", ") });
  else headline = t("winner_is", { name: teamOrYou(ctx, winners[0]) });
  const lines = [];
  if (ctx.rules.scoring === "penalty") lines.push(t("res_penalty_game"));
  lines.push(scoreLine(data.scores, data.goals, ctx));
  return { headline, lines };
}
