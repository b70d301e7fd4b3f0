// What the pages around fichas say (your profile's fichas, the admin's view of an account's,
// a tournament's entry), Spanish first, complete English. Loaded only with those pages (they
// are lazy), so the home page's first load does not carry them.

import { currentLang } from "./i18n.js";

export const FICHAS_WORDS = {
  fichas_title: { es: "Tus fichas", en: "Your fichas" },
  fichas_balance: { es: "Saldo: {n} fichas", en: "Balance: {n} fichas" },
  fichas_note: { es: "Dinero de juego: no se compran, no se venden, no se regalan ni se cambian por nada. Con menos de {floor}, cada día se recargan hasta {floor}.", en: "Play money: never bought, sold, given away or exchanged for anything. Below {floor}, they are topped up to {floor} once a day." },
  fichas_history: { es: "Movimientos", en: "Movements" },
  fichas_more: { es: "Ver más", en: "Show more" },
  fichas_see_game: { es: "Ver la partida", en: "See the game" },
  fichas_admin_show: { es: "Ver sus fichas", en: "Show their fichas" },
  fichas_entry_field: { es: "Entrada en fichas (0: sin entrada)", en: "Entry in fichas (0: none)" },
  fichas_entry_hint: { es: "Se paga al inscribirse y se devuelve si te retiras antes del inicio o se cancela. El podio se reparte el bote, menos la parte de la banca: 50%, 30% y 20%.", en: "Paid when you register, returned if you withdraw before the start or it is cancelled. The podium shares the pool, less the bank's cut: 50%, 30% and 20%." },
  fichas_entry: { es: "Entrada: {n} fichas", en: "Entry: {n} fichas" },
};

export function say(key, params = {}) {
  const entry = FICHAS_WORDS[key];
  let text = entry ? entry[currentLang() === "en" ? "en" : "es"] : key;
  for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}
