"""Print the JSON Schema of what clients send the server (xeri.server.protocol); ``--write`` puts it into
docs/protocol.md, between its schema markers. tests/test_server_protocol.py checks the doc against the models."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from xeri.server.protocol import schema_text, with_schema

DOC = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write the schema into {DOC}")
    args = parser.parse_args(argv)
    if args.write:
        DOC.write_text(with_schema(DOC.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"wrote the schema into {DOC}")
    else:
        print(schema_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
