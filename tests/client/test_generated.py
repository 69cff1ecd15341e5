"""The SDK's typed layer is what client/generate.py writes from the committed openapi.yaml, and the
generator's rules hold: names from paths, rolling operations from the spec, nothing shadowed."""

from __future__ import annotations

import importlib.util
import inspect
import sys
import types

from service.platform.operations.operations import operations_of
from wurfwerk import AsyncClient, Client
from wurfwerk._operations import OPERATIONS

from .support import ROOT, SPEC_PATH, load_spec

GENERATOR = ROOT / "client" / "generate.py"


def load_generator():
    spec = importlib.util.spec_from_file_location("wurfwerk_generate", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def load_source(name: str, text: str, monkeypatch) -> types.ModuleType:
    module = types.ModuleType(name)
    monkeypatch.setitem(sys.modules, name, module)
    exec(compile(text, f"{name}.py", "exec"), module.__dict__)
    return module


def test_committed_sdk_matches_the_spec():
    generator = load_generator()
    for path, text in generator.render(SPEC_PATH.read_text(encoding="utf-8")).items():
        assert path.read_text(encoding="utf-8") == text, \
            f"{path.relative_to(ROOT)} drifted from openapi.yaml: run `make sdk` (or `make generate`) and commit it"


def test_rolling_operations_are_read_from_the_spec():
    """Rolling: the request has ``seed`` or ``manual``, or the operation takes an Idempotency-Key header
    (a batch, whose items may roll)."""
    spec = load_spec()
    schemas = spec["components"]["schemas"]
    expected = set()
    for item in spec["paths"].values():
        for operation in item.values():
            ref = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            members = schemas[ref["$ref"].rsplit("/", 1)[-1]].get("properties", {}) if ref else {}
            headers = {p["name"].lower() for p in operation.get("parameters", []) if p["in"] == "header"}
            if "seed" in members or "manual" in members or "idempotency-key" in headers:
                expected.add(operation["operationId"])
    assert {op_id for op_id, operation in OPERATIONS.items() if operation.rolling} == expected
    assert "proben.test" in expected and "proben.test.odds" not in expected and "tickets.issue" not in expected


def test_every_operation_id_has_one_method_with_the_documented_name(app):
    """API.md §7: client.<system>.<operation>, hyphens as underscores, `_odds` for the twins."""
    client = Client("http://wurfwerk.test")
    for operation_id in operations_of(app):
        system, _, rest = operation_id.partition(".")
        method = rest.replace(".", "_").replace("-", "_")
        assert callable(getattr(getattr(client, system), method, None)), f"{operation_id} -> {system}.{method}"


def test_async_client_has_the_same_surface():
    sync, asynchronous = Client("http://x.test"), AsyncClient("http://x.test")
    for name, namespace in vars(sync).items():
        if name.startswith("_"):
            continue
        for method_name, method in inspect.getmembers(namespace, inspect.ismethod):
            if method_name.startswith("_"):
                continue
            twin = getattr(getattr(asynchronous, name), method_name)
            assert inspect.iscoroutinefunction(twin), f"{name}.{method_name}"
            assert inspect.signature(twin) == inspect.signature(method), f"{name}.{method_name}"
    for name in ("systems", "keys", "batch", "verify", "livez", "readyz"):
        assert inspect.iscoroutinefunction(getattr(asynchronous, name)), name


def test_methods_have_keyword_parameters_types_defaults_and_the_description():
    method = Client("http://x.test").proben.test
    parameters = inspect.signature(method).parameters
    assert all(parameter.kind is inspect.Parameter.KEYWORD_ONLY for parameter in parameters.values())
    assert parameters["attribute"].default is inspect.Parameter.empty and parameters["attribute"].annotation == "int"
    assert parameters["success_rule"].default == "meet"
    assert parameters["seed"].annotation == "int | None" and parameters["seed"].default is None
    assert "each die\nshowing 5 or 6 is a success" in method.__doc__.replace("        ", "")
    assert "``POST /v1/proben/test``" in method.__doc__


SYNTHETIC = """
openapi: 3.1.0
info: {title: t, version: '1'}
tags: [{name: dice, description: Dice.}]
paths:
  /v1/dice/roll:
    post:
      operationId: dice.roll
      summary: Roll
      description: Rolls.
      tags: [dice]
      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/RollRequest'}}}}
      responses: {'200': {content: {application/json: {schema: {$ref: '#/components/schemas/RollResponse'}}}}}
components:
  schemas:
    RollRequest:
      type: object
      required: [from]
      properties:
        from: {type: integer}
        seed: {type: integer}
        face: {$ref: '#/components/schemas/Face'}
    Face:
      type: object
      properties: {values: {type: array, items: {type: integer}}}
    RollResponse:
      type: object
      required: [request_id, to_dict, values]
      properties:
        request_id: {type: string}
        to_dict: {type: string}
        values: {type: array, items: {type: integer}}
        face: {oneOf: [{$ref: '#/components/schemas/Face'}, {type: 'null'}]}
"""


def test_generator_renames_what_would_shadow_the_model_or_python(monkeypatch):
    generator = load_generator()
    files = {path.name: text for path, text in generator.render(SYNTHETIC).items()}
    models = load_source("synthetic_models", files["models.py"], monkeypatch)
    response = models.RollResponse.from_json(
        {"request_id": "in-body", "to_dict": "member", "values": [1, 2], "face": None})
    assert response.request_id_ == "in-body" and response.to_dict_ == "member" and response.values == [1, 2]
    assert response.to_dict()["request_id"] == "in-body" and response.face is None
    assert response._with_request_id("header").request_id == "header"
    assert "        from_: int," in files["_operations.py"] and '"from": from_' in files["_operations.py"]
    assert "rolling=True" in files["_operations.py"]


def test_generator_and_runtime_agree_on_their_shared_names():
    from wurfwerk._core import DETERMINISTIC_MEMBERS
    from wurfwerk._models import RESERVED_NAMES

    generator = load_generator()
    assert generator.RESERVED == RESERVED_NAMES
    assert generator.FIXING_MEMBERS == DETERMINISTIC_MEMBERS
