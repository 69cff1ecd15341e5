"""What the service says: the message catalogs, ``say()`` and the phrases chat lines share."""
