"""Views stay thin (issue 54): no view function of service/ is over 60 lines.

A view is found in the source (ast over service/): a function under a Flask route decorator
(``@blueprint.get``, ``.post``, ``.route``), one given to ``add_url_rule``, or the view an operation
or a platform endpoint declares (``Operation.rolling(path, view, ..., odds=odds_view)``,
``Endpoint.post(path, view, ...)``).
The app then proves the search misses none: every function it routes, and every declared view and
odds view, is among those found.
"""

from __future__ import annotations

import ast
import functools
import inspect
from pathlib import Path

from service.platform.operations.operations import operations_of

ROOT = Path(__file__).resolve().parents[1]
SERVICE = ROOT / "service"
MAX_LINES = 60
ROUTE_DECORATORS = {"get", "post", "route"}
DECLARING = {"rolling", "resolving", "lookup", "get", "post"}  # Operation.<kind>(path, view), Endpoint.<method>
DECLARERS = {"Operation", "Endpoint"}


def _declared_views(tree: ast.Module) -> set[str]:
    """The names a module declares as views: the second argument of a declaring call and the names
    its keywords give (``odds=``; a constant such as ``example=`` names no function), the third
    argument of Flask's ``add_url_rule``."""
    names = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr == "add_url_rule":
            candidates = node.args[2:3] + [keyword.value for keyword in node.keywords if keyword.arg == "view_func"]
        elif node.func.attr in DECLARING and isinstance(node.func.value, ast.Name) and node.func.value.id in DECLARERS:
            # the view, and any twin's view given by keyword (odds=, advice=): names of functions
            candidates = node.args[1:2] + [keyword.value for keyword in node.keywords]
        else:
            continue
        names |= {candidate.id for candidate in candidates if isinstance(candidate, ast.Name)}
    return names


def _routed(function: ast.FunctionDef) -> bool:
    return any(isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
               and decorator.func.attr in ROUTE_DECORATORS for decorator in function.decorator_list)


def _views() -> dict[tuple[str, str], int]:
    """Every view of service/ by (module, function name): its length in lines, decorators aside."""
    views = {}
    for path in sorted(SERVICE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        declared = _declared_views(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and (node.name in declared or _routed(node)):
                assert node.end_lineno is not None
                views[(module, node.name)] = node.end_lineno - node.lineno + 1
    return views


VIEWS = _views()


def _key(function: object) -> tuple[str, str]:
    function = inspect.unwrap(function)  # flask-smorest's decorators wrap the platform's views
    return function.__module__, function.__name__


def test_no_view_is_over_60_lines():
    long = {f"{module}.{name}": lines for (module, name), lines in VIEWS.items() if lines > MAX_LINES}
    assert long == {}, f"split these views (at most {MAX_LINES} lines; the work belongs in rules or helpers)"


def test_the_search_finds_every_view_the_app_routes(app):
    routed = set()
    for view in app.view_functions.values():
        if isinstance(view, functools.partial):  # an operation's path: serve(operation)
            view = view.func
        if inspect.unwrap(view).__module__.startswith("service."):
            routed.add(_key(view))
    for operation in operations_of(app).values():
        routed.add(_key(operation.view))
    missed = sorted(routed - set(VIEWS) - {("service.platform.operations.operations", "serve")})
    assert missed == [], "views the source search does not find: teach _declared_views their declaration"
    assert len(routed) > 60  # the systems' views and odds views, the platform's endpoints, the pages


def test_a_declared_view_is_found_and_measured():
    source = "def view(body):\n" + "    x = 1\n" * MAX_LINES + "\nSYSTEM = Operation.rolling('/x', view, odds=twin)\n"
    tree = ast.parse(source)
    assert _declared_views(tree) == {"view", "twin"}
    function = tree.body[0]
    assert isinstance(function, ast.FunctionDef) and function.end_lineno is not None
    assert function.end_lineno - function.lineno + 1 == MAX_LINES + 1
