#!/usr/bin/env bash
# Build the release of the Foundry module (`make foundry`): OUT/wurfwerk-foundry-<version>.zip with
# module.json at the zip's root (what Foundry's installer extracts into Data/modules/wurfwerk/), and
# OUT/module.json, the manifest to publish at the manifest URL.
# The module imports the JavaScript client by relative path; Foundry has no client-js/ next to the
# module, so the zip carries a copy of client-js/src under vendor/ and a client.js that points there.
# BASE_URL (`make foundry BASE_URL=https://files.example.org/wurfwerk`): where both files will be
# published; the manifest's `manifest` and `download` then point there (in the zip too, so Foundry's
# update check finds the same place).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
out="${1:?usage: release.sh OUT_DIR}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

version="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$here/module.json")"
zip_name="wurfwerk-foundry-$version.zip"
grep -q "\"download\": \".*/$zip_name\"" "$here/module.json" || {
  echo "module.json: download must end with $zip_name (bump both together)" >&2
  exit 1
}
[ -f "$root/client-js/src/index.js" ] || { echo "client-js/src/index.js is missing" >&2; exit 1; }

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
cp "$here/module.json" "$here/README.md" "$stage/"
if [ -n "${BASE_URL:-}" ]; then
  python3 - "$stage/module.json" "${BASE_URL%/}" "$zip_name" <<'PY'
import json, sys
path, base, zip_name = sys.argv[1:]
manifest = json.load(open(path, encoding="utf-8"))
manifest.update(manifest=f"{base}/module.json", download=f"{base}/{zip_name}")
open(path, "w", encoding="utf-8").write(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
PY
fi
# docs/: the pictures README.md shows (test/release.test.js checks that each one is in the zip).
cp -R "$here/scripts" "$here/styles" "$here/lang" "$here/assets" "$here/docs" "$stage/"
rm -f "$stage"/scripts/*.d.ts
mkdir -p "$stage/vendor/wurfwerk-client"
(cd "$root/client-js/src" && find . -name '*.js' -exec cp --parents {} "$stage/vendor/wurfwerk-client/" \;)
cat > "$stage/scripts/client.js" <<'JS'
// The release's copy of the JavaScript client (client-js/src), bundled by `make foundry`.
export { Client, WurfwerkError, makeSeed, seedCommit, verifyReceipt, verifySession } from "../vendor/wurfwerk-client/index.js";
JS

rm -f "$out/$zip_name"
(cd "$stage" && find . -type f | LC_ALL=C sort | zip -q -X "$out/$zip_name" -@)
cp "$stage/module.json" "$out/module.json"
echo "$out/$zip_name"
