"""Where dice come from and how they are proven: random sources, derived streams, roll tickets, Ed25519 receipts."""
