"""The JavaScript client (client-js/): its own `node --test` suite against a live server, its
generated files against openapi.yaml, and its receipt verifier against Python's."""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.conftest import require_tool
from tests.web.conftest import API_KEY

ROOT = Path(__file__).resolve().parents[2]
CLIENT_JS = ROOT / "client-js"
GENERATOR = CLIENT_JS / "scripts" / "generate_operations.py"
VENDORED = {
    "src/vendor/canonicalize.js": "node_modules/canonicalize/lib/canonicalize.js",
    "src/vendor/noble-ed25519.js": "node_modules/@noble/ed25519/index.js",
    **{f"src/vendor/noble-hashes/{name}": f"node_modules/@noble/hashes/{name}"
       for name in ("sha2.js", "_md.js", "_u64.js", "utils.js", "hmac.js", "hkdf.js")},
    **{f"src/vendor/noble-ciphers/{name}": f"node_modules/@noble/ciphers/{name}"
       for name in ("chacha.js", "_arx.js", "_poly1305.js", "utils.js")},
}


def _load_generator():
    spec = importlib.util.spec_from_file_location("generate_operations", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generator = _load_generator()


@pytest.fixture(scope="module", autouse=True)
def node_packages():
    require_tool("node", "npm", why="the JavaScript client's tests")
    if not (CLIENT_JS / "node_modules" / ".package-lock.json").exists():
        pytest.fail("client-js/node_modules is missing: `make test` runs npm ci (or run `make js-client`)")


def _node(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(["node", *args], cwd=CLIENT_JS, capture_output=True, text=True, timeout=300, **kwargs)


def test_node_suite_against_a_live_server(live_url, keyed_url):
    env = {**os.environ, "WURFWERK_URL": live_url, "WURFWERK_KEYED_URL": keyed_url, "WURFWERK_API_KEY": API_KEY}
    result = _node("--test", "--test-reporter=spec", "test/", env=env)
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    assert "# fail 0" in result.stdout or "ℹ fail 0" in result.stdout, result.stdout[-3000:]
    assert "skipped 0" in result.stdout or "skip 0" in result.stdout, result.stdout[-3000:]


def test_generated_files_match_openapi_yaml(tmp_path):
    generator.main(tmp_path)
    for name in ("operations.js", "operations.d.ts"):
        assert (tmp_path / name).read_text() == (CLIENT_JS / "src" / name).read_text(), \
            f"client-js/src/{name} drifted from openapi.yaml: run `make js-client`"
    result = subprocess.run(
        ["npx", "--no-install", "openapi-typescript", "../openapi.yaml", "--default-non-nullable", "false",
         "--output", str(tmp_path / "openapi.d.ts"), "--silent"],
        cwd=CLIENT_JS, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "openapi.d.ts").read_text() == (CLIENT_JS / "src" / "openapi.d.ts").read_text(), \
        "client-js/src/openapi.d.ts drifted from openapi.yaml: run `make js-client`"


def test_vendored_packages_are_the_locked_npm_packages():
    for vendored, package_file in VENDORED.items():
        assert (CLIENT_JS / vendored).read_bytes() == (CLIENT_JS / package_file).read_bytes(), \
            f"client-js/{vendored} differs from {package_file}: run `make js-client`"


def test_method_names_follow_the_issue():
    assert generator.method_name("paws.test") == "test"
    assert generator.method_name("paws.test.odds") == "testOdds"
    assert generator.method_name("beutelschneider.healing-apply") == "healingApply"
    assert generator.method_name("beutelschneider.first-aid.odds") == "firstAidOdds"
    ids = {operation["id"] for operation in generator.operations(_spec())}
    assert {"paws.test", "malmsturm.ladder", "batch.run"} <= ids


TYPE_CHECKS = CLIENT_JS / "test" / "types"


@pytest.mark.parametrize("resolution", ["nodenext", "node16", "bundler"])
def test_a_typescript_program_finds_the_methods_under_each_module_resolution(resolution):
    """Issue 52: with `moduleResolution: nodenext` an import without its extension in index.d.ts left
    the client without its methods. test/types/consumer.ts imports the package by its name, as an
    installed one, and its @ts-expect-error lines fail when the types fall back to `any`."""
    config = TYPE_CHECKS / f"tsconfig.{resolution}.json"
    assert json.loads(config.read_text())["compilerOptions"]["moduleResolution"] == resolution
    result = subprocess.run(["npx", "--no-install", "tsc", "--project", str(config)], cwd=CLIENT_JS,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def _spec():
    import yaml

    return yaml.safe_load((ROOT / "openapi.yaml").read_text())


# -- JavaScript and Python verifiers agree -------------------------------------------------------

SIGNED_CALLS = [
    ("/v1/paws/test", {"rank": 3, "name": "Mira", "advantages": {"equipment": "active"}, "seed": 11}),
    ("/v1/beutelschneider/challenge", {"bag": {"red": 4, "white": 2}, "ability": "combat", "difficulty": "easy"}),
    ("/v1/weltenbuch/resurrection", {"gods": ["A", "B", "C", "D", "E", "F", "G", "Ä ü 🎲"]}),
    ("/v1/proben/test", {"attribute": 3, "skill": 2, "difficulty": 2, "manual": [5, 6, 1, 2, 3]}),
    ("/v1/malmsturm/action", {"skill": 2, "difficulty": 1, "modifier": -1}),
    ("/v1/paws/validate-character", {"potential": 3, "power": 5,
                                     "traits": [{"name": "Flink", "rank": 2, "bad": False}]}),
]


def _leaf_paths(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaf_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _leaf_paths(item, (*path, index))
    else:
        yield path


def _changed(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value / 2
    if isinstance(value, str):
        return value + "·"
    return 0  # null


def _with_leaf_changed(document, path):
    changed = copy.deepcopy(document)
    container = changed
    for key in path[:-1]:
        container = container[key]
    container[path[-1]] = _changed(container[path[-1]])
    return changed


def test_javascript_and_python_verifiers_agree(app, client):
    documents = []
    for path, body in SIGNED_CALLS:
        response = client.post(path, json=body)
        assert response.status_code == 200, response.get_json()
        signed = response.get_json()
        documents.append(signed)
        documents.extend(_with_leaf_changed(signed, leaf) for leaf in _leaf_paths(signed))
    documents.append({"operation": "paws.test"})
    keys = app.extensions["wurfwerk"].keys
    python = [keys.verify(document).as_dict() for document in documents]
    result = subprocess.run(["node", str(Path(__file__).with_name("verify_documents.mjs"))], cwd=CLIENT_JS,
                            input=json.dumps({"jwks": keys.jwks(), "documents": documents}),
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    javascript = json.loads(result.stdout)
    assert len(documents) > 150
    assert sum(verdict["valid"] for verdict in python) == len(SIGNED_CALLS)
    for document, py_verdict, js_verdict in zip(documents, python, javascript):
        assert js_verdict == py_verdict, json.dumps(document)[:400]

