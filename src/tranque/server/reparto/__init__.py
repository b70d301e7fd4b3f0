"""El reparto del día: one set of deals a day, committed at midnight in Bogotá and revealed the
next day, played by anyone against the expert and ranked against par (docs/reparto.md)."""
