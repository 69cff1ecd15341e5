"""/docs in a real browser: Swagger UI 5 renders the OpenAPI 3.1 spec from local files, lists every
operation id, "Try it out" calls the same server with the bearer key, and axe-core finds no violation
(issue 52: 146 before the stylesheet and plugin of service/web/docs/)."""

from __future__ import annotations

import re

import pytest

from tests.web.accessibility import describe, violations
from tests.web.conftest import API_KEY

METHODS = ("get", "post", "put", "patch", "delete")


def _operation_ids(spec) -> set[str]:
    return {operation["operationId"] for item in spec["paths"].values()
            for method, operation in item.items() if method in METHODS}


def test_the_spec_declares_the_bearer_key_where_the_server_checks_it(client):
    spec = client.get("/openapi.json").get_json()
    assert spec["components"]["securitySchemes"]["bearer"] == {**spec["components"]["securitySchemes"]["bearer"],
                                                               "type": "http", "scheme": "bearer"}
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            guarded = path.startswith("/v1/") and path != "/v1/keys"
            assert (operation.get("security") == [{"bearer": []}, {}]) == guarded, f"{method} {path}"


def test_docs_render_every_operation_from_local_assets(page, live_url, client):
    spec = client.get("/openapi.json").get_json()
    outside = []
    page.on("request", lambda request: request.url.startswith(live_url) or outside.append(request.url))
    page.goto(f"{live_url}/docs")
    page.wait_for_selector(".opblock-summary-operation-id")
    page.wait_for_function(
        f"document.querySelectorAll('.opblock-summary-operation-id').length >= {len(_operation_ids(spec))}")
    shown = set(page.locator(".opblock-summary-operation-id").all_inner_texts())
    assert shown == _operation_ids(spec)
    body = page.inner_text("body")
    assert "Unable to render" not in body
    assert "OAS 3.1" in body
    assert outside == [], "the docs page loaded something from elsewhere"
    assert page.problems == []


@pytest.mark.parametrize("with_key", [True, False])
def test_try_it_out_sends_the_bearer_key(page, keyed_url, with_key):
    page.goto(f"{keyed_url}/docs#/paws/paws.test")
    if with_key:
        page.get_by_role("button", name="Authorize").first.click()
        dialog = page.locator(".dialog-ux")
        dialog.locator("#auth-bearer-value").fill(API_KEY)
        dialog.locator("button.authorize").click()
        dialog.locator("button.btn-done").click()
    operation_id = page.locator(".opblock-summary-operation-id", has_text=re.compile(r"^paws\.test$"))
    operation = page.locator(".opblock", has=operation_id)
    operation.locator(".opblock-summary").first.wait_for()
    if not operation.locator(".try-out__btn").is_visible():
        operation.locator(".opblock-summary").first.click()
    operation.locator(".try-out__btn").click()
    operation.locator("button.execute").click()
    status = operation.locator(".live-responses-table .response .response-col_status").first
    status.wait_for()
    expected = "200" if with_key else "401"
    assert re.match(expected, status.inner_text().strip()), status.inner_text()


def _open_docs(page, url: str, spec) -> None:
    page.goto(f"{url}/docs")
    page.wait_for_function(
        f"document.querySelectorAll('.opblock-summary-operation-id').length >= {len(_operation_ids(spec))}")


def _operation(page, operation_id: str):
    name = page.locator(".opblock-summary-operation-id", has_text=re.compile(f"^{re.escape(operation_id)}$"))
    return page.locator(".opblock", has=name)


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_axe_finds_nothing_on_the_first_view(page, live_url, client, viewport):
    page.set_viewport_size(viewport)
    _open_docs(page, live_url, client.get("/openapi.json").get_json())
    found = violations(page)
    assert found == [], describe(found)
    assert page.problems == []


# A GET with its answers, rolls with bodies, examples and many answers, the batch and a session report
# (nested schemas): every kind of block Swagger UI draws for this spec.
EXPANDED = ("health.ready", "paws.test", "beutelschneider.challenge", "batch.run", "sessions.report")


@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 900}, {"width": 390, "height": 844}],
                         ids=["desktop", "phone"])
def test_axe_finds_nothing_with_operations_open_tried_and_the_authorize_dialog(page, live_url, client, viewport):
    page.set_viewport_size(viewport)
    _open_docs(page, live_url, client.get("/openapi.json").get_json())
    for operation_id in EXPANDED:
        operation = _operation(page, operation_id)
        operation.locator(".opblock-summary-control").click()
        operation.locator(".opblock-body").wait_for()
    found = violations(page)
    assert found == [], describe(found)

    tried = _operation(page, "paws.test")
    tried.locator(".try-out__btn").click()
    tried.locator("button.execute").click()
    tried.locator(".live-responses-table .response .response-col_status").first.wait_for()
    found = violations(page)
    assert found == [], describe(found)

    page.get_by_role("button", name="Authorize").first.click()
    page.locator(".dialog-ux").wait_for()
    found = violations(page)
    assert found == [], describe(found)
    assert page.problems == []


def test_a_deep_link_still_opens_its_operation(page, live_url):
    """The plugin takes the anchors out of the operations' buttons; the address still names and opens one."""
    page.goto(f"{live_url}/docs#/paws/paws.test")
    operation = _operation(page, "paws.test")
    operation.locator(".opblock-body").wait_for()
    assert operation.locator(".opblock-summary-control").get_attribute("aria-expanded") == "true"
    _operation(page, "health.live").locator(".opblock-summary-control").click()
    page.wait_for_function("location.hash === '#/platform/health.live'")
