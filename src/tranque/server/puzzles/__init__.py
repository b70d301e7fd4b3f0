"""«¿Qué jugarías?»: the packaged puzzles (book.py), their explanations in Spanish and English
(explain.py) and the HTTP routes that serve them (routes.py). docs/puzzles.md tells how the
file was built; docs/protocol.md, the endpoints."""
