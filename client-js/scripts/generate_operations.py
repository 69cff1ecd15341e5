"""Write client-js/src/operations.js (the operation table the client builds its methods from) and
client-js/src/operations.d.ts (the per-system method types) from the committed openapi.yaml.

Run by `make js-client` (part of `make generate`); tests/client_js/test_generated.py fails when the
committed files differ from what this writes. A new operation reaches the JavaScript client by
regenerating: the client derives its method names from this table at run time.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import yaml

CLIENT_JS = Path(__file__).resolve().parents[1]
SPEC = CLIENT_JS.parent / "openapi.yaml"
METHODS = ("get", "post", "put", "patch", "delete")
# Operations of the platform blueprint get hand-written client methods (systems(), keys(), batch()).
PLATFORM_TAG = "platform"
HEADER = "// Generated from openapi.yaml by `make js-client` (client-js/scripts/generate_operations.py). Do not edit.\n"


def operations(spec: dict) -> list[dict]:
    found = []
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            tag = (operation.get("tags") or [PLATFORM_TAG])[0]
            found.append({
                "id": operation["operationId"],
                "method": method.upper(),
                "path": path,
                "system": None if tag == PLATFORM_TAG else tag,
                "body": "requestBody" in operation,
                "summary": operation.get("summary", ""),
            })
    return sorted(found, key=lambda operation: operation["id"])


def method_name(operation_id: str) -> str:
    """The same rule as methodName() in src/client.js: the words after the system, camelCased
    (`beutelschneider.healing-apply` -> healingApply, `paws.test.odds` -> testOdds)."""
    words = re.split(r"[.\-]", operation_id.split(".", 1)[1])
    return words[0] + "".join(word[:1].upper() + word[1:] for word in words[1:])


def table_js(found: list[dict]) -> str:
    rows = ",\n".join(
        "  " + json.dumps({key: operation[key] for key in ("id", "method", "path", "system", "body")})
        for operation in found
    )
    return HEADER + f"export const OPERATIONS = Object.freeze([\n{rows},\n].map(Object.freeze));\n"


def methods_dts(found: list[dict]) -> str:
    systems: dict[str, list[str]] = {}
    for operation in found:
        if operation["system"] is None:
            continue
        operation_id = json.dumps(operation["id"])
        body = f"body: RequestBody<{operation_id}>, " if operation["body"] else ""
        doc = f"{operation['method']} {operation['path']}: {operation['summary']}".replace("*/", "*\\/")
        systems.setdefault(operation["system"], []).append(
            f"    /** {doc} */\n"
            f"    {method_name(operation['id'])}({body}options?: CallOptions): Promise<ResponseBody<{operation_id}>>;"
        )
    members = "\n".join(f"  {system}: {{\n" + "\n".join(lines) + "\n  };" for system, lines in systems.items())
    ids = "\n".join(f"  | {json.dumps(operation['id'])}" for operation in found)
    return (HEADER + 'import type { CallOptions, RequestBody, ResponseBody } from "../index.js";\n\n'
            f"export type OperationId =\n{ids};\n\n"
            "/** One namespace per system, one method per operation. */\n"
            f"export interface SystemMethods {{\n{members}\n}}\n")


def main(out_dir: Path = CLIENT_JS / "src") -> None:
    found = operations(yaml.safe_load(SPEC.read_text()))
    (out_dir / "operations.js").write_text(table_js(found))
    (out_dir / "operations.d.ts").write_text(methods_dts(found))


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else CLIENT_JS / "src")
