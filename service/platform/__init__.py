"""What every system shares, and nothing system-specific: the request path, randomness, receipts,
problems, odds, and the platform's own endpoints."""
