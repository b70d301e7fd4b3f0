// A bot's face and level, as its seat says (docs/protocol.md, «seat»: `face`, `bot_level`):
// the drawing beside its name and the level's title (Novato, Bota gorda, Jugador de patio,
// Maestro). Nothing here chooses a name or a face: the server did, once, in the seat's event.

import { t } from "./i18n.js";

const LEVELS = new Set(["random", "greedy", "heuristic", "expert"]);

// The level's title in the reader's language, "" for a level this page does not know.
export function levelTitle(level) {
  return level && LEVELS.has(level) ? t(`lvl_${level}`) : "";
}

// The drawing's address, or null for a seat with no face (a person, or a bot of old tables).
export function faceUrl(seat) {
  return seat && seat.kind === "bot" && typeof seat.face === "string" && /^[a-z]+$/.test(seat.face) ? `/avatars/${seat.face}.svg` : null;
}

// "Toño (Bota gorda)": a name with its level, for lists (the lobby, summaries, the replay).
export function withLevel(name, level) {
  const title = levelTitle(level);
  return title ? `${name} (${title})` : name;
}
