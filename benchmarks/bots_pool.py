"""The master against its opponent pool (issue 43): is its strength more than its margin over the expert?

    nice -n 15 python benchmarks/bots_pool.py run [--table classic.2p] [--deals 100] [--seed 2026] [--jobs 2]
        [--master SPEC --tag .candidate] [--members NAME...]
    python benchmarks/bots_pool.py table [--table classic.2p] [--tag .candidate]
    python benchmarks/bots_pool.py compare --tag .candidate [--table classic.2p]

``run`` plays, over the same duplicate deals (one seed: the same deals in every pair), the master against the
expert, each pool member (``xeri.bots.registry.POOL``) against the expert, and the master against each member,
and writes each pair to ``benchmarks/results/pool_<a>_vs_<b>.<table><tag>.json`` (the ``xeri arena --json``
object, the seed, the deals, every deal's margin, wall and CPU seconds); a pair already there with the same specs,
seed and deals is read back, not played again, and one of more deals gives its first ``deals`` (``deal_seeds`` is
a prefix of itself: the same deals). Then, per member ``m``, the shortfall

    shortfall(m) = margin(master, m) - [margin(master, expert) - margin(m, expert)]

with its 95% interval over the deals (each deal's three margins combined, so the deal's luck cancels in part),
into ``pool_shortfall.<table><tag>.json``. The target: a shortfall of at least 0 within the interval (the master
beats each member by at least as much as the margins over the expert add up to). ``table`` prints the Markdown
table of docs/reference/bots-measurements.md, each figure tagged for ``benchmarks/figures.py``. ``compare`` sets a
candidate master (its files' ``tag``) beside the master on the same deals: per pair it played, the candidate's margin
minus the master's, deal by deal, with its 95% interval, into ``pool_compare.<table><tag>.json``.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
from pathlib import Path
from typing import Any

from run_meta import run_meta

from xeri import find_ruleset
from xeri.arena import run_deals, summarize
from xeri.arena.stats import mean_ci
from xeri.bots.registry import POOL, parse_spec
from xeri.commands.arena import summary_dict

OUT = Path(__file__).parent / "results"
#: table name -> (preset, players)
TABLES: dict[str, tuple[str, int]] = {"classic.2p": ("classic", 2), "pisti.2p": ("pisti", 2),
                                      "classic.4p": ("classic", 4)}


def label(spec: str) -> str:
    """A spec's short name in file names: its bot's name (``ismcts:iterations=500`` -> ``ismcts``)."""
    return parse_spec(spec)[0]


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the arena's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def pair(a: str, b: str, table: str, deals: int, seed: int, jobs: int, out: Path, tag: str,
         a_label: str | None = None) -> dict[str, Any]:
    """One pair over ``deals`` duplicate deals, or the file of an identical run already made."""
    path = out / f"pool_{a_label or label(a)}_vs_{label(b)}.{table}{tag}.json"
    if path.exists():
        old = json.loads(path.read_text())
        if (old["a"], old["b"], old["seed"], old["deals"]) == (a, b, seed, deals):
            print(f"{path.name}: kept", flush=True)
            return dict(old)
        if (old["a"], old["b"], old["seed"]) == (a, b, seed) and old["deals"] > deals:
            return prefix(old, deals, path.name)
    preset, players = TABLES[table]
    ruleset = find_ruleset(preset, players=players)
    start, cpu = time.perf_counter(), _cpu()
    results = run_deals(a, b, ruleset, deals, seed, jobs)
    data = {**summary_dict(a, b, summarize(results)), "seed": seed, "preset": preset, "players": players,
            "ruleset": ruleset.to_dict(), "jobs": jobs, "wall_seconds": time.perf_counter() - start,
            "cpu_seconds": _cpu() - cpu,
            "deal_margins": [statistics.fmean(g.margin for g in d.games) for d in results], **run_meta(seed)}
    path.write_text(json.dumps(data, indent=2) + "\n")
    m = data["margin"]
    print(f"{path.name}: {m['mean']:+.2f} [{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] over {deals} deals "
          f"({data['wall_seconds']:.0f} s wall, {data['cpu_seconds']:.0f} s CPU)", flush=True)
    return data


def prefix(old: dict[str, Any], deals: int, name: str) -> dict[str, Any]:
    """A longer run's first ``deals`` deals (the same deals: ``deal_seeds`` is a prefix of itself), its margin
    over those alone and its CPU seconds in proportion; its other figures are the whole run's, and say so."""
    print(f"{name}: its first {deals} of {old['deals']} deals", flush=True)
    margins = old["deal_margins"][:deals]
    return {**old, "deals": deals, "deal_margins": margins, "margin": mean_ci(margins).to_dict(),
            "cpu_seconds": old["cpu_seconds"] * deals / old["deals"], "prefix_of": old["deals"]}


def shortfall(over_expert: list[float], member_vs_expert: list[float], over_member: list[float]) -> dict[str, Any]:
    """The shortfall's mean and 95% interval over the deals, from each deal's three margins."""
    per_deal = [mm - (me - xe) for me, xe, mm in zip(over_expert, member_vs_expert, over_member, strict=True)]
    return mean_ci(per_deal).to_dict()


def run(table: str, deals: int, seed: int, jobs: int, out: Path, master: str, tag: str,
        members: list[str]) -> None:
    """Every pair of the table, then the shortfalls."""
    base = pair(master, "expert", table, deals, seed, jobs, out, tag, "master")
    rows = []
    for m in members:
        mine = pair(m, "expert", table, deals, seed, jobs, out, "")
        theirs = pair(master, m, table, deals, seed, jobs, out, tag, "master")
        rows.append({
            "member": m,
            "master_vs_member": theirs["margin"],
            "member_vs_expert": mine["margin"],
            "expected": base["margin"]["mean"] - mine["margin"]["mean"],
            "shortfall": shortfall(base["deal_margins"], mine["deal_margins"], theirs["deal_margins"]),
            "cpu_seconds": mine["cpu_seconds"] + theirs["cpu_seconds"],
        })
        s = rows[-1]["shortfall"]
        print(f"shortfall({m}) = {s['mean']:+.2f} [{s['ci95'][0]:+.2f}, {s['ci95'][1]:+.2f}]", flush=True)
        # Written after each member: a long run stopped part way keeps the members it finished.
        data = {"table": table, "master": master, "deals": deals, "seed": seed, "master_vs_expert": base["margin"],
                "members": rows, **run_meta(seed)}
        (out / f"pool_shortfall.{table}{tag}.json").write_text(json.dumps(data, indent=2) + "\n")


def print_table(table: str, out: Path, tag: str) -> None:
    """The Markdown rows of one table's shortfalls, each figure tagged with its JSON."""
    name = f"pool_shortfall.{table}{tag}.json"
    data = json.loads((out / name).read_text())

    def ci(path: str, e: dict[str, Any]) -> str:
        m, (lo, hi) = e["mean"], e["ci95"]
        return f"{m:+.2f} [{lo:+.2f}, {hi:+.2f}]<!-- fig: {name}: {path}.mean, {path}.ci95[0], {path}.ci95[1] -->"

    print(f"master vs expert: {ci('master_vs_expert', data['master_vs_expert'])} ({data['deals']} deals, "
          f"seed {data['seed']})\n")
    print("| member | member vs expert | master vs member | shortfall |")
    print("| --- | --- | --- | --- |")
    for k, row in enumerate(data["members"]):
        at = f"members[{k}]"
        print(f"| `{row['member']}` | {ci(at + '.member_vs_expert', row['member_vs_expert'])} | "
              f"{ci(at + '.master_vs_member', row['master_vs_member'])} | {ci(at + '.shortfall', row['shortfall'])} |")


def compare(table: str, out: Path, tag: str) -> None:
    """The candidate's margins minus the master's on the same deals, for every pair the candidate played."""
    rows = {}
    for path in sorted(out.glob(f"pool_master_vs_*.{table}{tag}.json")):
        base = out / path.name.replace(f"{table}{tag}.json", f"{table}.json")
        if not base.exists():
            continue
        new, old = json.loads(path.read_text()), json.loads(base.read_text())
        if (new["seed"], new["deals"]) != (old["seed"], old["deals"]):
            continue
        diff = mean_ci([a - b for a, b in zip(new["deal_margins"], old["deal_margins"], strict=True)]).to_dict()
        rows[new["b"]] = {"candidate": new["margin"], "master": old["margin"], "difference": diff,
                          "deals": new["deals"]}
        d = diff
        print(f"{new['a']} vs {new['b']}: {d['mean']:+.2f} [{d['ci95'][0]:+.2f}, {d['ci95'][1]:+.2f}] "
              f"over the master's {old['margin']['mean']:+.2f}")
    expert = out / f"pool_master_vs_expert.{table}{tag}.json"
    candidate = json.loads(expert.read_text())["a"] if expert.exists() else None
    (out / f"pool_compare.{table}{tag}.json").write_text(json.dumps(
        {"table": table, "candidate": candidate, "pairs": rows}, indent=2) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    go = sub.add_parser("run")
    go.add_argument("--deals", type=int, default=100)
    go.add_argument("--jobs", type=int, default=2)
    go.add_argument("--seed", type=int, default=2026)
    go.add_argument("--master", default="master", help="the master's spec (a candidate: with --tag)")
    go.add_argument("--members", nargs="+", default=list(POOL), help="pool members to play (default: the pool)")
    show = sub.add_parser("table")
    against = sub.add_parser("compare")
    for p in (go, show, against):
        p.add_argument("--table", choices=sorted(TABLES), default="classic.2p")
        p.add_argument("--tag", default="", help="added to the master's files (candidates: .candidate)")
        p.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.what == "run":
        run(args.table, args.deals, args.seed, args.jobs, out, args.master, args.tag, args.members)
    elif args.what == "compare":
        compare(args.table, out, args.tag)
    else:
        print_table(args.table, out, args.tag)


if __name__ == "__main__":
    main()
