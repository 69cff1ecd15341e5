"""Oracles that tests and benchmarks share: the same question written out once more, independently
of the service (mostly for icepool), and the largest inputs the limits allow. Neither tests/ nor
bench/ owns them; both import them from here."""
