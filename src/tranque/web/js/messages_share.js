// What «Compartir» says (share.js), Spanish first.

export const SHARE_MESSAGES = {
  share: { es: "Compartir", en: "Share" },
  share_hint: { es: "Comparte el enlace: en el chat se ve su tarjeta", en: "Share the link: chats show its card" },
  share_copied: { es: "Enlace copiado: pégalo en el chat que quieras", en: "Link copied: paste it into any chat" },
  share_copy_this: { es: "Copia este enlace: {url}", en: "Copy this link: {url}" },
  share_game_title: { es: "Partida de dominó en Tranque", en: "A dominó game on Tranque" },
  share_game_text: { es: "¡Mira cómo quedó esta partida de dominó!", en: "See how this dominó game ended!" },
  share_tournament_title: { es: "Torneo de dominó en Tranque", en: "A dominó tournament on Tranque" },
  share_tournament_text: { es: "¡Mira este torneo de dominó: {name}!", en: "Have a look at this dominó tournament: {name}!" },
};
