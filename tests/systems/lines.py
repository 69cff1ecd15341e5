"""What the chat line tests of every system ask: one summary, through the API."""

from __future__ import annotations


def summary(post, path, body, lang):
    """The chat line of ``body`` posted to ``path`` in ``lang`` (which must answer 200)."""
    status, response = post(f"{path}?lang={lang}", body)
    assert status == 200, response
    return response["summary"]
