"""Write the protocol's JSON Schema, both ways (xeri.server.wire.json_schema), to docs/protocol.schema.json, and
the TypeScript declarations made from it to src/xeri/web/js/protocol.d.ts, which the page's modules import (tsc checks
them against it). ``--check`` changes nothing and fails if either file differs from what would be written;
with neither option the schema is printed. The declarations come from json-schema-to-typescript (package.json;
``npm ci`` installs it). tests/server/wire/test_server_protocol.py runs ``--check``."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from xeri.server.wire.json_schema import schema_text

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "docs" / "protocol.schema.json"
DECLARATIONS = ROOT / "src" / "xeri" / "web" / "js" / "protocol.d.ts"
JSON2TS = ROOT / "node_modules" / ".bin" / "json2ts"
BANNER = ("/* The protocol of xeri serve, both ways: written by python scripts/protocol_schema.py --write from\n"
          " * docs/protocol.schema.json (itself from xeri.server.wire: protocol and messages). Do not edit. */")


def declarations(schema: str) -> str:
    """The TypeScript declarations of ``schema`` (json2ts: no index signatures where the schema allows no other
    field, ``unknown`` for a value of any type, every definition declared)."""
    if not JSON2TS.exists():
        raise SystemExit(f"{JSON2TS} is missing: run npm ci (scripts/test.sh does)")
    # json2ts reads a tuple as draft 7 wrote it (``items`` a list), not as 2020-12 does (``prefixItems``).
    drafted = json.dumps(_draft7_tuples(json.loads(schema)))
    out = subprocess.run([str(JSON2TS), "--unknownAny", "--unreachableDefinitions", "--bannerComment", BANNER,
                          "--style.printWidth=120"], input=drafted, capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise SystemExit(f"json2ts failed: {out.stderr.strip()}")
    return out.stdout


def _draft7_tuples(value: object) -> object:
    if isinstance(value, dict):
        out = {k: _draft7_tuples(v) for k, v in value.items()}
        if "prefixItems" in out:
            out["items"] = out.pop("prefixItems")
            out["additionalItems"] = False
        return out
    if isinstance(value, list):
        return [_draft7_tuples(v) for v in value]
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help=f"write {SCHEMA.name} and {DECLARATIONS.name}")
    group.add_argument("--check", action="store_true", help="fail if either file is not what --write writes")
    args = parser.parse_args(argv)
    schema = schema_text()
    if not (args.write or args.check):
        sys.stdout.write(schema)
        return 0
    wanted = {SCHEMA: schema, DECLARATIONS: declarations(schema)}
    if args.check:
        stale = [str(p.relative_to(ROOT)) for p, text in wanted.items()
                 if not p.exists() or p.read_text(encoding="utf-8") != text]
        if stale:
            print(f"out of date: {', '.join(stale)}: run python scripts/protocol_schema.py --write", file=sys.stderr)
            return 1
        return 0
    for path, text in wanted.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
