"""Share cards: a finished game's result, a table (a peña's season) and a tournament's podium
drawn server-side as 1200x630 PNG images (Pillow), for the Open Graph tags of their public
pages (http/share.py) so that a link pasted into a chat shows the card. docs/sharing.md.

- canvas.py: the card's size, colours, fonts and text fitting; tiles.py: dominó tiles drawn;
- game_card.py, table_card.py, podium_card.py: one card each (its data, then its drawing);
- cards.py: the worker that draws them off the event loop, and the bytes kept;
- texts.py: the cards' words in Spanish and English.
"""

from tranque.server.share.table_card import render_table_card

__all__ = ["render_table_card"]
