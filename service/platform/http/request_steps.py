"""The platform's work around every view, in two Flask hooks: one before the view, one after it.

Each concern (request id, checks, CORS, revalidation, metrics, language, OPTIONS) is a step, a
plain function of the request (and, after the view, the response), and ``create_app`` lists the
steps in the order they run. Flask calls an after-request function with the response alone, so
each of seven such functions looked the request up again through ``flask.request``, a proxy whose
every attribute costs as much as a few dozen dictionary lookups; here the request is taken once per
hook and handed to every step (bench/history/2026-12-01-to-03.md, "The platform's own cost", has the figures).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from flask import Flask, Request, Response, request

BeforeStep = Callable[[Request], None]
AfterStep = Callable[[Request, Response], Response]
STEPS = "wurfwerk.request_steps"  # the app's extension holding the lists of steps (bench/profile.py counts each)


def current_request() -> Request:
    """The request behind ``flask.request``, looked up once: read through the proxy, every attribute
    repeats the lookup. (Werkzeug documents ``_get_current_object`` for this; Flask types the proxy
    as the Request itself.)"""
    return request._get_current_object()  # type: ignore[attr-defined]


def install_request_steps(app: Flask, before: Sequence[BeforeStep], after: Sequence[AfterStep]) -> None:
    """``before`` run in order before the view (an exception stops the request there, as in any
    before-request function); ``after`` run in order on its response, and on every problem's."""
    before_steps, after_steps = list(before), list(after)
    app.extensions[STEPS] = {"before": before_steps, "after": after_steps}

    def before_view() -> None:
        current = current_request()
        for step in before_steps:
            step(current)

    def after_view(response: Response) -> Response:
        current = current_request()
        for step in after_steps:
            response = step(current, response)
        return response

    app.before_request(before_view)
    app.after_request(after_view)
