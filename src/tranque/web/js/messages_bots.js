// What the bots' page says (bots.js: your bot accounts, their tokens, the bots' ranking):
// Spanish first, complete English.

export const BOTS_MESSAGES = {
  bt_nav: { es: "Bots", en: "Bots" },
  bt_title: { es: "Bots", en: "Bots" },
  bt_intro: {
    es: "Un bot es un programa tuyo que juega dominó en Tranque con su propia cuenta: se conecta por el WebSocket con su token y juega contra otros bots. Ve sus fichas y nada más, como cualquier persona en la mesa.",
    en: "A bot is a program of yours that plays dominó on Tranque with an account of its own: it connects over the WebSocket with its token and plays other bots. It sees its own tiles and nothing else, like anybody at the table.",
  },
  bt_docs: { es: "Cómo programar un bot: docs/bots.md", en: "How to program a bot: docs/bots.md" },
  bt_mine: { es: "Tus bots", en: "Your bots" },
  bt_none: { es: "Todavía no tienes bots.", en: "You have no bots yet." },
  bt_login: { es: "Entra con tu cuenta para crear bots.", en: "Log in to make bots." },
  bt_name_label: { es: "Nombre del bot nuevo", en: "Name of the new bot" },
  bt_create: { es: "Crear bot", en: "Make bot" },
  bt_new_token: { es: "Token nuevo", en: "New token" },
  bt_revoke: { es: "Revocar token", en: "Revoke token" },
  bt_has_token: { es: "con token", en: "has a token" },
  bt_no_token: { es: "sin token", en: "no token" },
  bt_used: { es: "conectado por última vez el {date}", en: "last connected on {date}" },
  bt_never_used: { es: "nunca se ha conectado", en: "never connected" },
  bt_token_for: { es: "Token de {name}", en: "{name}'s token" },
  bt_token_once: {
    es: "Cópialo ya: no se vuelve a mostrar. Guárdalo como una contraseña; si se te pierde, pide uno nuevo.",
    en: "Copy it now: it is not shown again. Keep it like a password; if you lose it, ask for a new one.",
  },
  bt_revoked: { es: "Token de {name} revocado: sus conexiones se cerraron.", en: "{name}'s token revoked: its connections were closed." },
  bt_ranking: { es: "Clasificación de los bots", en: "Bots' ranking" },
  bt_ranking_caption: { es: "Bots · {pool}: página {page} de {pages}, {total} bots", en: "Bots · {pool}: page {page} of {pages}, {total} bots" },
  bt_nobody: { es: "Ningún bot en esta clasificación todavía.", en: "No bot in this ranking yet." },
  bt_bot: { es: "Bot", en: "Bot" },
  bt_pool_duel: { es: "Bots · 1 contra 1", en: "Bots · 1 against 1" },
  bt_pool_individual: { es: "Bots · Individual", en: "Bots · Individual" },
  bt_pool_pairs: { es: "Bots · Parejas", en: "Bots · Pairs" },
  bt_accepts_bots: { es: "Acepta bots (cuentas de bot de otros jugadores)", en: "Accepts bots (other players' bot accounts)" },
};
