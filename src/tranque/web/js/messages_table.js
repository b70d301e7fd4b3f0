// The table's words for the tools panel, the annul vote, the sorted hand, the score chart's legend.

export const TABLE_MESSAGES = {
  tb_close_tools: { es: "Cerrar frases y ayudas", en: "Close phrases and aids" },
  tb_annul_question: { es: "¿Anular la partida?", en: "Annul the game?" },
  tb_annul_voted: { es: "Votaron que sí: {names}", en: "Voted yes: {names}" },
  tb_annul_yes: { es: "Sí, anular", en: "Yes, annul" },
  tb_annul_no: { es: "No, seguir jugando", en: "No, keep playing" },
  tb_annul_refused: { es: "{name} votó que no: la partida sigue.", en: "{name} voted no: the game goes on." },
  tb_annul_refused_you: { es: "Votaste que no: la partida sigue.", en: "You voted no: the game goes on." },
  tb_you_passed: { es: "Pasaste", en: "You passed" },
  tb_you_lack: { es: "(no llevas {list})", en: "(you have no {list})" },
  tb_or: { es: "ni", en: "or" },
  tb_sort: { es: "Ordenar", en: "Sort" },
  tb_sort_number: { es: "por número", en: "by number" },
  tb_sort_points: { es: "por puntos", en: "by points" },
};
