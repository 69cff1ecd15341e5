"""The platform's own endpoints and pages: health, keys, verification, catalogue, batch, tickets, /docs and /play."""
