"""``xeri rules``: the presets and every option, so players can pick a variant."""

from __future__ import annotations

import argparse
import json

from ..bots.registry import LEVEL_MARGINS, LEVEL_MARGINS_AT, LEVELS, level_lines, level_table_lines
from ..rules import OPTIONS, PRESET_HELP, PRESETS, find_ruleset


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("preset", nargs="?", help="show every option value of one preset")
    parser.add_argument("--json", action="store_true", help="print JSON")


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def run(args: argparse.Namespace) -> int:
    if args.preset:
        ruleset = find_ruleset(args.preset)
        if args.json:
            print(json.dumps(ruleset.to_dict(), indent=1))
        else:
            print(f"{ruleset.name}: {PRESET_HELP.get(ruleset.name, '')}")
            for name, value in ruleset.options().items():
                print(f"  {name:<18} {_show(value)}")
        return 0
    if args.json:
        print(json.dumps({
            "presets": {name: r.to_dict() for name, r in PRESETS.items()},
            "options": {o.name: {"help": o.help, "choices": o.choices} for o in OPTIONS.values()},
            "levels": {name: {"bot": spec, "margin": LEVEL_MARGINS.get(name)} for name, spec in LEVELS.items()},
            "levels_at": LEVEL_MARGINS_AT,
        }, indent=1))
        return 0
    print("Presets (choose with --ruleset NAME):")
    for name in PRESETS:
        print(f"  {name:<15} {PRESET_HELP.get(name, '')}")
    print()
    print("Options (override with --option NAME=VALUE; defaults are classic's):")
    default = PRESETS["classic"]
    for opt in OPTIONS.values():
        allowed = " | ".join(_show(c) for c in opt.choices) if opt.choices else opt.check_text
        print(f"  {opt.name} = {_show(getattr(default, opt.name))}   [{allowed}]")
        print(f"      {opt.help}")
    print()
    print("Computer levels (choose with xeri play --level NAME), each measured against the one below it")
    print("in points a round, 95% interval, 2-player classic (docs/bots.md):")
    for line in level_lines():
        print(f"  {line}")
    if LEVEL_MARGINS_AT:
        print("At the other tables, each level over the one below it there (points a round, 95% interval):")
        for line in level_table_lines():
            print(f"  {line}")
    return 0
