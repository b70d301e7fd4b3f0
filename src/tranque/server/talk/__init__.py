"""Table talk: typed chat at a table (when it is open, what a line may be, the word filter)
and who may watch a private table (docs/protocol.md, «Table talk» and «Mirones»)."""
