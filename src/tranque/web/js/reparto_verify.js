// El reparto del día checked by this browser (docs/reparto.md, «Checking a day»): once a day
// is over its master seed is public; this module recomputes, with WebCrypto, the day's
// commitment SHA-256(seed ‖ parameters), each deal's seed and salt (HMAC-SHA256 of the master,
// "seed:<series>:<deal>" and "salt:<series>:<deal>", the salt cut to 16 bytes: the
// duplicado's deals), each deal's commitment SHA-256(seed ‖ salt) against the list published
// at the start of the day, and each seat's hand with the documented shuffle (fairness.js).
//
// Runs in browsers and in Node 20 (globalThis.crypto.subtle), without a DOM.

import { hexToBytes, commitmentOf, dealFromSeed, tileKey } from "./fairness.js";

function toHex(buffer) {
  return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function hmac(key, text) {
  const imported = await globalThis.crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", imported, new TextEncoder().encode(text)));
}

/** SHA-256(seed ‖ UTF-8 of parameters), lowercase hex; null for a malformed seed. */
export async function dayCommitment(seedHex, parameters) {
  const seed = hexToBytes(seedHex);
  if (!seed) return null;
  const text = new TextEncoder().encode(parameters);
  const joined = new Uint8Array(seed.length + text.length);
  joined.set(seed, 0);
  joined.set(text, seed.length);
  return toHex(await globalThis.crypto.subtle.digest("SHA-256", joined));
}

/** Deal `deal` of `series` from the master seed: {seed, salt} in hex. */
export async function dealSecret(masterHex, series, deal) {
  const master = hexToBytes(masterHex);
  if (!master) return null;
  const seed = await hmac(master, `seed:${series}:${deal}`);
  const salt = (await hmac(master, `salt:${series}:${deal}`)).slice(0, 16);
  return { seed: toHex(seed), salt: toHex(salt) };
}

function sameHand(a, b) {
  const left = (a || []).map(tileKey).sort();
  const right = (b || []).map(tileKey).sort();
  return left.length === right.length && left.every((tile, i) => tile === right[i]);
}

/**
 * Check a revealed day as `GET /api/reparto/{day}` gives it (`seed`, `parameters`,
 * `commitment`, `hands`, `modes`: {players, set_max, hand_size, series, commitments, deals}).
 * `kept`: the commitment this browser saw while the day was on, if it kept one.
 * Resolves to {ok, reasons}: each reason {code: "commitment" | "kept" | "deal", mode?, hand?}.
 */
export async function verifyDay(day, kept = null) {
  const reasons = [];
  if (!day || !day.seed) return { ok: false, reasons: [{ code: "commitment" }] };
  if ((await dayCommitment(day.seed, day.parameters)) !== day.commitment) reasons.push({ code: "commitment" });
  if (kept && kept !== day.commitment) reasons.push({ code: "kept" });
  for (const [mode, entry] of Object.entries(day.modes || {})) {
    for (let number = 0; number < day.hands; number++) {
      const secret = await dealSecret(day.seed, entry.series, number);
      const shown = (entry.deals || [])[number];
      const committed = secret && (await commitmentOf(secret.seed, secret.salt));
      let good = Boolean(secret && shown) && committed === entry.commitments[number] && shown.seed === secret.seed;
      if (good) {
        const dealt = await dealFromSeed(secret.seed, entry.set_max, entry.players, entry.hand_size);
        good = dealt.hands.every((hand, seat) => sameHand(hand, shown.hands[seat]));
      }
      if (!good) reasons.push({ code: "deal", mode, hand: number + 1 });
    }
  }
  return { ok: reasons.length === 0, reasons };
}

// The commitments this browser saw, by day: what «Verificar» compares the next day.
const KEPT_KEY = "tranque.reparto.commitments";

export function keptCommitment(storage, day) {
  try {
    return JSON.parse(storage.getItem(KEPT_KEY) || "{}")[day] || null;
  } catch {
    return null;
  }
}

export function keepCommitment(storage, day, commitment) {
  try {
    const kept = JSON.parse(storage.getItem(KEPT_KEY) || "{}");
    if (kept[day]) return;
    kept[day] = commitment;
    const days = Object.keys(kept).sort().slice(-14); // two weeks are plenty
    storage.setItem(KEPT_KEY, JSON.stringify(Object.fromEntries(days.map((d) => [d, kept[d]]))));
  } catch {
    // private browsing: nothing kept, the check still runs against the server's copy
  }
}

/** A signed number as boards print it: +12, 0, −7 (a real minus sign). */
export function signed(value) {
  if (value === null || value === undefined) return "–";
  if (value > 0) return `+${value}`;
  if (value < 0) return `−${-value}`;
  return "0";
}
