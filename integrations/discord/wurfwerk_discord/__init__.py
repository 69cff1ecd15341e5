"""wurfwerk for Discord (docstring below is replaced)."""
