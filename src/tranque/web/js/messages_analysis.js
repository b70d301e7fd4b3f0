// What the post-game analysis in the replay viewer (analysis_view.js) says, Spanish first.

export const MESSAGES_ANALYSIS = {
  an_title: { es: "Análisis de la partida", en: "Game analysis" },
  an_request: { es: "Analizar la partida", en: "Analyse the game" },
  an_intro: {
    es: "Cada jugada se juzga con lo que su jugador sabía en ese momento: su mano y lo que estaba en la mesa.",
    en: "Each move is judged from what its player knew then: their hand and what was on the table.",
  },
  an_pending: { es: "En cola: el análisis empieza pronto…", en: "Queued: the analysis starts soon…" },
  an_running: { es: "Analizando: {done} de {total} jugadas", en: "Analysing: {done} of {total} moves" },
  an_progress: { es: "Progreso del análisis", en: "Analysis progress" },
  an_failed: { es: "El análisis no se pudo terminar. Puedes pedirlo otra vez.", en: "The analysis could not be finished. You can ask for it again." },
  an_chart: { es: "Resultado esperado en cada jugada", en: "Expected result at each move" },
  an_chart_hint: {
    es: "Sobre la raya, la jugada dejaba a ese lado por delante; debajo, por detrás.",
    en: "Above the line, the move left that side ahead; below, behind.",
  },
  an_accuracy: { es: "Precisión", en: "Accuracy" },
  an_accuracy_of: { es: "{name}: {accuracy}", en: "{name}: {accuracy}" },
  an_counts: {
    es: "precisas: {accurate} · imprecisiones: {inaccuracies} · errores: {errors}",
    en: "accurate: {accurate} · inaccuracies: {inaccuracies} · errors: {errors}",
  },
  an_flagged: { es: "Jugadas señaladas", en: "Flagged moves" },
  an_none_flagged: { es: "Ninguna jugada perdió mucho: todas fueron precisas.", en: "No move lost much: all were accurate." },
  an_verdict_accurate: { es: "precisa", en: "accurate" },
  an_verdict_inaccuracy: { es: "imprecisión", en: "inaccuracy" },
  an_verdict_error: { es: "error", en: "error" },
  an_verdict_forced: { es: "forzada", en: "forced" },
  an_move: { es: "Mano {round}, jugada {move}: {name} — {played}", en: "Round {round}, move {move}: {name} — {played}" },
  an_lost: { es: "{verdict}, pierde {loss}; mejor: {best}", en: "{verdict}, loses {loss}; better: {best}" },
  an_here: {
    es: "A {name} le convenía más {best} (la ficha clara en la mesa).",
    en: "{name} had better play {best} (the pale tile on the table).",
  },
  an_go: { es: "Ir a la jugada", en: "Go to the move" },
  an_timeline: { es: "Jugadas señaladas en la partida", en: "Flagged moves in the game" },
  an_lead: { es: "salir con el {tile}", en: "lead the {tile}" },
  an_play_left: { es: "el {tile} por la izquierda", en: "the {tile} on the left" },
  an_play_right: { es: "el {tile} por la derecha", en: "the {tile} on the right" },
  an_draw: { es: "robar", en: "draw" },
  an_pass: { es: "pasar", en: "pass" },
};
