// What the clock's warnings, the browser notifications and the installable app say
// (alerts.js, alerts_format.js, pwa.js).

export const ALERTS_MESSAGES = {
  al_sound: { es: "Sonido", en: "Sound" },
  al_vibration: { es: "Vibración", en: "Vibration" },
  al_notifications: { es: "Avisos del navegador", en: "Browser notifications" },
  al_notifications_blocked: {
    es: "El navegador tiene bloqueados los avisos de Tranque: permítelos en la configuración del sitio.",
    en: "Your browser blocks Tranque's notifications: allow them in the site settings.",
  },
  al_notifications_unsupported: { es: "Este navegador no muestra avisos.", en: "This browser does not show notifications." },
  al_seconds_left: { es: "Te quedan {n} segundos", en: "{n} seconds left" },
  al_timeout_play: { es: "Se te acabó el tiempo: la máquina jugó el {tile} por ti", en: "You ran out of time: the machine played the {tile} for you" },
  al_timeout_draw: { es: "Se te acabó el tiempo: la máquina robó del pozo por ti", en: "You ran out of time: the machine drew from the boneyard for you" },
  al_timeout_pass: { es: "Se te acabó el tiempo: la máquina pasó por ti", en: "You ran out of time: the machine passed for you" },
  al_close: { es: "Cerrar", en: "Close" },
  al_offer: { es: "¿Te avisamos cuando sea tu turno y no estés mirando esta pestaña?", en: "Shall we tell you when it is your turn and you are not looking at this tab?" },
  al_offer_yes: { es: "Activar avisos", en: "Turn on notifications" },
  al_offer_no: { es: "Ahora no", en: "Not now" },
  al_notify_turn_title: { es: "¡Te toca!", en: "Your turn!" },
  al_notify_turn_body: { es: "Es tu turno en la mesa. Tienes {n} segundos.", en: "It is your turn at the table. You have {n} seconds." },
  al_notify_invite_title: { es: "Invitación a una mesa", en: "Invitation to a table" },
  al_notify_tournament_title: { es: "Tu torneo empieza", en: "Your tournament is starting" },
  al_notify_tournament_round_title: { es: "Tu mesa del torneo está lista", en: "Your tournament table is ready" },
  pwa_install: { es: "Instalar Tranque", en: "Install Tranque" },
  pwa_install_hint: { es: "Tenlo en tu pantalla de inicio, como una aplicación.", en: "Keep it on your home screen, like an app." },
  pwa_install_dismiss: { es: "No, gracias", en: "No, thanks" },
};
