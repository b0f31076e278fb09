"""Running xeri as a service (issue 27): the TLS front, metrics, JSON logs and ``xeri admin``, on a real cluster.

One cluster for the module: three ``xeri serve`` processes on a fresh PostgreSQL and Redis (scripts/test.sh
starts both), each with its metrics port, JSON logs at info and ``--trusted-proxy 127.0.0.1``, behind HAProxy
running deploy/haproxy-tls.cfg as shipped with a self-signed certificate made here (the ``cryptography``
package). A browser plays a match through ``https://`` and ``wss://``; a client on another loopback address
(127.0.0.2) shows that the servers see it through X-Forwarded-For (a bar of it holds on every process);
``/metrics`` is scraped while a match is played; the logs name handovers, lease losses and adoptions, and hold
no token; and every ``xeri admin`` command runs against the cluster's database. The systemd units of deploy/ are
checked with ``systemd-analyze verify``, and their command lines with xeri's own parser.
"""

from __future__ import annotations

import asyncio
import configparser
import datetime as dt
import ipaddress
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext
from prometheus_client.parser import text_string_to_metric_families

from support.browser import Console, new_page
from support.cli import run_xeri as run_xeri_here
from support.cluster import REDIS_URL, ROOT, Client, Cluster, Node, fresh_database, node_id, play_turn, played, poll
from support.cluster import lease_owner as read_lease_owner
from support.cluster_page import play_out
from support.server import free_port
from support.web_tables import vs_computer

TLS_CFG = ROOT / "deploy" / "haproxy-tls.cfg"
UNITS = ROOT / "deploy" / "systemd"
pytestmark = pytest.mark.skipif(not REDIS_URL and not os.environ.get("XERI_REQUIRE_SERVICES"),
                                reason="needs XERI_TEST_PG_URL and XERI_TEST_REDIS_URL (scripts/test.sh starts both)")
#: every seat token the module's players held: none may reach a log
TOKENS: list[str] = []


def beside_playwright(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` in another thread: Playwright's event loop holds this one once a browser started, and the
    database helpers and ``xeri admin`` run one of their own."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn, *args).result()


def run_xeri(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    return beside_playwright(run_xeri_here, capsys, *argv)  # type: ignore[no-any-return]


def lease_owner(db: str, table_id: str) -> str | None:
    return beside_playwright(read_lease_owner, db, table_id)  # type: ignore[no-any-return]


def self_signed(folder: Path) -> Path:
    """A certificate for localhost and 127.0.0.1 and its key, in one PEM file as HAProxy takes them."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = dt.datetime.now(dt.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(minutes=5))
            .not_valid_after(now + dt.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .sign(key, hashes.SHA256()))
    pem = folder / "tls.pem"
    pem.write_bytes(cert.public_bytes(serialization.Encoding.PEM) + key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return pem


@dataclass
class Front:
    """The cluster behind the TLS front: ``url`` is what a browser opens (https://localhost:PORT)."""

    cluster: Cluster
    db: str
    url: str
    plain: int

    @property
    def nodes(self) -> list[Node]:
        return self.cluster.nodes

    @property
    def base(self) -> str:
        return self.cluster.base

    def post(self, path: str, body: Any, base: str | None = None) -> Any:
        r = httpx.post((base or self.base) + path, json=body, verify=False, timeout=10)
        assert r.status_code in (200, 201), r.text
        out = r.json()
        if out.get("token"):
            TOKENS.append(out["token"])
        return out


@pytest.fixture(scope="module")
def front(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Front]:
    assert REDIS_URL
    pem = self_signed(tmp_path_factory.mktemp("tls"))
    tls, plain = free_port(), free_port()
    with fresh_database("xeri_ops") as db:
        cluster = Cluster(db, REDIS_URL, balancer=True, config=TLS_CFG, https=True, metrics=True,
                          env={"XERI_LISTEN": f"127.0.0.1:{plain}", "XERI_LISTEN_TLS": f"127.0.0.1:{tls}",
                               "XERI_TLS_CERT": str(pem)},
                          extra=("--trusted-proxy", "127.0.0.1", "--log-format", "json", "--log-level", "info",
                                 "--admin-poll", "0.2"))
        try:
            yield Front(cluster, db, f"https://localhost:{tls}", plain)
        finally:
            cluster.stop()


def log_lines(node: Node) -> list[dict[str, Any]]:
    """Every line of a node's log, each one JSON object (the test fails on a line that is not)."""
    out = []
    for line in Path(node.log.name).read_text(errors="replace").splitlines():
        if line.strip():
            out.append(json.loads(line))
    return out


# --- the TLS front --------------------------------------------------------------------------------


def test_a_browser_match_through_https_and_wss_with_hsts_and_secure_cookies(
        front: Front, browser: Browser, contexts: list[BrowserContext], console: Console, tmp_path: Path) -> None:
    page = new_page(browser, contexts, console, ignore_https_errors=True)
    # Chromium never registers a service worker over a certificate it does not trust, whatever the context's
    # ignore_https_errors says: the page plays on without one (its offline pack needs a real certificate).
    console.allowed = ("An SSL certificate error occurred when fetching the script",)
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    response = page.goto(front.url + "/")
    assert response is not None and response.ok
    assert response.headers["strict-transport-security"] == "max-age=63072000"
    table_id = vs_computer(page, front, "Rhea", target="r1")
    play_out([page])
    assert sockets and all(url.startswith(f"wss://localhost:{front.url.rsplit(':', 1)[1]}/ws/tables/")
                           for url in sockets), sockets
    # The balancer's own cookie (a browser stays with its process) is Secure, HttpOnly and SameSite.
    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["xeri_node"]["secure"] and cookies["xeri_node"]["httpOnly"], cookies
    assert cookies["xeri_node"]["sameSite"] == "Lax"
    # The match's record came through https:// too, and verifies.
    text = httpx.get(f"{front.base}/api/matches/{table_id}/record", verify=False).text
    path = tmp_path / "record.json"
    path.write_text(text)
    done = subprocess.run([sys.executable, "-m", "xeri", "verify", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    # Plain HTTP is sent to HTTPS.
    r = httpx.get(f"http://127.0.0.1:{front.plain}/#/t/{table_id}", follow_redirects=False)
    assert r.status_code == 301 and r.headers["location"].startswith("https://127.0.0.1")
    # The operator closes the next table mid-match: the page says so, in its words, and the cards stop.
    closing = vs_computer(page, front, "Rhea", target="r3")
    assert beside_playwright(run_xeri_here, None, "admin", "close", "--db", front.db, "--", closing)[0] == 0
    page.wait_for_function("() => document.querySelector('.me .status')?.textContent.includes('closed')")
    assert page.locator(".me .status").inner_text() == "This table was closed by the server's operator."


def test_the_client_address_reaches_every_process_through_x_forwarded_for(
        front: Front, capsys: pytest.CaptureFixture[str]) -> None:
    """A client on 127.0.0.2 (HAProxy on 127.0.0.1 forwards for it): barred, it is refused by every process, through
    the front (its X-Forwarded-For, however the client spells its own) and directly; 127.0.0.1 is not."""
    other = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2", verify=False), verify=False,
                         timeout=10)
    assert other.get(f"{front.base}/api/tables").status_code == 200
    code, out, err = run_xeri(capsys, "admin", "bar", "127.0.0.2", "--for", "1h", "--reason", "test", "--db", front.db)
    assert code == 0 and "barred 127.0.0.2/32" in out, err
    poll("every process to obey the bar", lambda: all(
        other.get(f"{n.base}/api/tables").status_code == 403 for n in front.nodes), timeout=20)
    for _ in range(6):  # round robin, or the cookie: whichever process answers
        r = other.get(f"{front.base}/api/tables", headers={"X-Forwarded-For": "127.0.0.9"})
        assert r.status_code == 403 and r.json()["error"]["code"] == "barred"
    assert httpx.get(f"{front.base}/api/tables", verify=False).status_code == 200
    assert other.get(f"{front.base}/healthz").status_code == 200  # the health checks are never barred
    # The processes logged the client as 127.0.0.2, not as the balancer.
    seen = {line.get("client", "").rsplit(":", 1)[0] for n in front.nodes for line in log_lines(n)
            if line["event"] == "http_request" and line.get("status") == 403}
    assert "127.0.0.2" in seen
    assert run_xeri(capsys, "admin", "unbar", "127.0.0.2", "--db", front.db)[0] == 0
    poll("the bar lifted everywhere", lambda: all(
        other.get(f"{n.base}/api/tables").status_code == 200 for n in front.nodes), timeout=20)
    other.close()


# --- metrics --------------------------------------------------------------------------------------


def scrape(node: Node) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = httpx.get(f"http://127.0.0.1:{node.metrics}/metrics", timeout=10).text
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def until_message(client: Client, pred: Any, timeout: float = 20.0) -> dict[str, Any]:
    """The first message ``client`` got (or gets, within ``timeout``) that ``pred`` holds for."""
    deadline = time.monotonic() + timeout
    while True:
        found = next((m for m in client.messages if pred(m)), None)
        if found is not None:
            return found
        assert time.monotonic() < deadline, "no such message"
        client.recv(max(deadline - time.monotonic(), 0.01))


def value(metrics: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return metrics.get((name, tuple(sorted(labels.items()))), 0.0)


def test_metrics_move_while_a_match_is_played(front: Front) -> None:
    node = front.nodes[0]
    before = scrape(node)
    made = front.post("/api/tables", {"name": "Mia", "options": {"rounds": 1}, "seats": [None, {"bot": "easy"}]},
                      base=node.base)
    mia = Client([node.ws], made["table_id"], made["token"])
    pick = iter(range(10**6))
    for _ in range(3):
        play_turn(mia, lambda legal: legal[next(pick) % len(legal)])
    # A hint (a job of the worker pool), and a move out of turn or at an old version (a refusal on the socket).
    until_message(mia, lambda _m: bool(mia.view and mia.view["turn"] == mia.view["seat"]))
    mia.send(type="hint", ref="h")
    until_message(mia, lambda m: m["type"] == "hint")
    mia.send(type="move", card=mia.view["legal_moves"][0], version=mia.version - 1)  # type: ignore[index]
    until_message(mia, lambda m: m["type"] == "error" and m["code"] == "stale")
    during = scrape(node)
    moved = value(during, "xeri_moves_total", by="player") - value(before, "xeri_moves_total", by="player")
    assert moved >= 3
    assert value(during, "xeri_moves_total", by="bot") > value(before, "xeri_moves_total", by="bot")
    timed = value(during, "xeri_move_seconds_count") - value(before, "xeri_move_seconds_count")
    assert timed >= moved + 1  # every move timed, the bot's too
    assert value(during, "xeri_store_seconds_count", op="write") > value(before, "xeri_store_seconds_count", op="write")
    assert value(during, "xeri_tables", status="playing") >= 1
    assert value(during, "xeri_connections") >= 1 and value(during, "xeri_connected_addresses") >= 1
    assert value(during, "xeri_leases") >= 1 and value(during, "xeri_cluster") == 1
    assert value(during, "xeri_cluster_healthy") == 1 and value(during, "xeri_redis_up") == 1
    # The lease loop's round trips are timed too: the next renewal comes within a lease's third.
    poll("a timed lease renewal", lambda: value(scrape(node), "xeri_store_seconds_count", op="lease")
         > value(before, "xeri_store_seconds_count", op="lease"), timeout=15)
    assert value(during, "xeri_refusals_total", code="stale", via="socket") > \
        value(before, "xeri_refusals_total", code="stale", via="socket")
    assert value(during, "xeri_worker_job_seconds_count", job="hint_card") > \
        value(before, "xeri_worker_job_seconds_count", job="hint_card")
    assert value(during, "xeri_workers") >= 1 and ("xeri_worker_queue", ()) in during
    assert ("xeri_handovers_total", (("direction", "in"),)) in during
    assert value(during, "process_cpu_seconds_total") > 0
    # An HTTP refusal by its code.
    r = httpx.post(f"{node.base}/api/tables", content=b"{}", headers={"Content-Type": "text/plain"})
    assert r.status_code == 415
    after = scrape(node)
    assert value(after, "xeri_refusals_total", code="unsupported_media_type", via="http") == \
        value(during, "xeri_refusals_total", code="unsupported_media_type", via="http") + 1
    while not (mia.view and mia.view["match_over"]):
        play_turn(mia, lambda legal: legal[next(pick) % len(legal)])
    mia.close()
    # The metrics are on the metrics port alone: not on the public one, nor through the front.
    assert httpx.get(f"{node.base}/metrics").status_code == 404
    assert httpx.get(f"{front.base}/metrics", verify=False).status_code == 404
    assert httpx.get(f"http://127.0.0.1:{node.metrics}/api/tables").status_code == 404


# --- logs -----------------------------------------------------------------------------------------


def steal_lease(db: str, table_id: str, seconds: float) -> None:
    """Give a table's lease to a process that does not exist, for ``seconds`` (as a process that thought the owner
    dead would take it): its owner finds it lost; once it lapses, a process adopts the table."""
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(db.replace("postgresql://", "postgres://", 1))
        try:
            await conn.execute("UPDATE xeri_leases SET owner = 'thief', until = extract(epoch from clock_timestamp()) "
                               "+ $2 WHERE table_id = $1", table_id, seconds)
        finally:
            await conn.close()

    asyncio.run(run())


def events(front: Front, name: str, table_id: str) -> list[tuple[int, dict[str, Any]]]:
    return [(i, line) for i, n in enumerate(front.nodes) for line in log_lines(n)
            if line["event"] == name and line.get("table") == table_id]


def test_json_logs_name_handovers_lease_losses_and_adoptions_and_hold_no_token(front: Front) -> None:
    a, b, _c = front.nodes
    made = front.post("/api/tables", {"name": "Ida", "options": {"rounds": 3}, "seats": [None, {"bot": "easy"}]},
                      base=a.base)
    tid = made["table_id"]
    # Its one connection on another process: the table is handed over there.
    ida = Client([b.ws], tid, made["token"])
    poll("the handover", lambda: lease_owner(front.db, tid) == node_id(b))
    poll("the handover logged", lambda: events(front, "table_handed_over", tid) and
         events(front, "table_handed_in", tid))
    out_at, out = events(front, "table_handed_over", tid)[0]
    assert out_at == 0 and out["level"] == "info" and out["to"] == node_id(b)
    assert events(front, "table_handed_in", tid)[0][0] == 1
    # Its lease is taken away: the owner logs the loss; once that lease lapses, a process adopts the table.
    # (A handover whose message comes after the new owner's renewal is logged as an adoption too: count from here.)
    adopted = len(events(front, "table_adopted", tid))
    beside_playwright(steal_lease, front.db, tid, 2.0)
    poll("the lease loss logged", lambda: events(front, "lease_lost", tid))
    poll("the adoption logged", lambda: len(events(front, "table_adopted", tid)) > adopted, timeout=30)
    assert all(line["level"] in ("info", "warning") for _i, line in events(front, "lease_lost", tid))
    assert lease_owner(front.db, tid) in {node_id(n) for n in front.nodes}
    pick = iter(range(10**6))
    play_turn(ida, lambda legal: legal[next(pick) % len(legal)])  # the match plays on
    ida.close()
    # Every line of every process is one JSON object with a time, a level and an event; no token is anywhere.
    for node in front.nodes:
        text = Path(node.log.name).read_text(errors="replace")
        for line in log_lines(node):
            assert {"time", "level", "event", "logger", "message"} <= set(line), line
            dt.datetime.fromisoformat(line["time"].replace("Z", "+00:00"))
        assert TOKENS and not any(token in text for token in TOKENS), "a seat token reached a log"
        assert "token=<hidden>" in text or "token=" not in text


# --- xeri admin against the cluster ---------------------------------------------------------------


def test_xeri_admin_against_the_cluster(front: Front, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    made = front.post("/api/tables", {"name": "Zoe", "options": {"rounds": 3}, "seats": [None, {"bot": "medium"}]})
    tid = made["table_id"]
    zoe = Client([n.ws for n in front.nodes], tid, made["token"])
    pick = iter(range(10**6))
    for _ in range(2):
        play_turn(zoe, lambda legal: legal[next(pick) % len(legal)])
    owner = lease_owner(front.db, tid)
    # tables: the live table, its owner (the lease holder) and its players
    code, out, _err = run_xeri(capsys, "admin", "tables", "--db", front.db)
    line = next(line for line in out.splitlines() if line.startswith(tid))
    assert "playing" in line and str(owner) in line and "Zoe, [medium bot]" in line
    listed = {t["id"]: t for t in json.loads(run_xeri(capsys, "admin", "tables", "--json", "--db", front.db)[1])}
    assert listed[tid]["owner"] == owner and [p["name"] for p in listed[tid]["players"]] == ["Zoe", None]
    # close: carried out by the table's owner; Zoe is told, and the record is kept
    code, out, err = run_xeri(capsys, "admin", "close", "--reason", "a test", "--db", front.db, "--", tid)
    assert code == 0 and "closed table" in out and "carried out by" in out, err
    done_by = out.split("carried out by ")[1].split(")")[0]
    assert done_by in {node_id(n) for n in front.nodes}
    told = until_message(zoe, lambda m: m["type"] == "error" and m.get("code") == "table_closed")
    assert "a test" in told["message"]
    until_message(zoe, lambda m: m["type"] == "table" and m["table"]["status"] == "closed")
    assert tid not in json.dumps(json.loads(run_xeri(capsys, "admin", "tables", "--json", "--db", front.db)[1]))
    assert httpx.get(f"{front.base}/api/tables/{tid}", verify=False).json()["status"] == "closed"
    path = tmp_path / "closed.json"
    assert run_xeri(capsys, "admin", "export", "-o", str(path), "--db", front.db, "--", tid)[0] == 0
    record = json.loads(path.read_text())
    moves = [card for rnd in record["rounds"] for card in rnd["moves"]]
    seen = played(zoe.messages)
    assert record["closed"] is True and all(moves[v - 1] == card for v, card in seen.items()) and seen
    zoe.close()
    # export: a finished match, a private one (its record is nobody's but its seats' on the API)
    bots = front.post("/api/tables", {"options": {"rounds": 1}, "private": True,
                                      "seats": [{"bot": "easy"}, {"bot": "easy"}]})["table_id"]
    poll("the bots' match over", lambda: httpx.get(f"{front.base}/api/tables/{bots}", verify=False).status_code == 403)
    record_path = tmp_path / "private.json"
    assert run_xeri(capsys, "admin", "export", "-o", str(record_path), "--db", front.db, "--", bots)[0] == 0
    code, out, err = run_xeri(capsys, "verify", str(record_path))
    assert code == 0 and "verified" in out, out + err
    # stats and the audit trail
    stats = json.loads(run_xeri(capsys, "admin", "stats", "--json", "--db", front.db)[1])
    assert stats["processes"] == 3 and stats["tables"]["closed"] >= 1 and stats["tables"]["finished"] >= 1
    assert stats["moves"] > 0 and stats["pending_requests"] == 0
    actions = json.loads(run_xeri(capsys, "admin", "actions", "--json", "--db", front.db)[1])
    close = next(a for a in actions if a["action"] == "close" and a["target"] == tid)
    assert close["done_by"] == done_by and close["actor"]
    assert any(line.get("table") == tid for n in front.nodes for line in log_lines(n)
               if line["event"] == "table_closed")


# --- the deployment's files -------------------------------------------------------------------------


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(UNITS / name)
    return parser


def env_file(name: str) -> dict[str, str]:
    out = {}
    for line in (UNITS / name).read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, val = line.partition("=")
            out[key] = val
    return out


def test_the_systemd_units_verify_and_start_what_xeri_takes(tmp_path: Path) -> None:
    from xeri.cli import build_parser

    # systemd's own check, on copies whose xeri is this one (the units name /opt/xeri/venv/bin/xeri).
    for name in os.listdir(UNITS):
        text = (UNITS / name).read_text().replace("/opt/xeri/venv/bin/xeri", f"{sys.executable} -m xeri")
        (tmp_path / name).write_text(text)
    analyze = shutil.which("systemd-analyze")
    assert analyze, "scripts/test.sh installs systemd (systemd-analyze)"
    done = subprocess.run([analyze, "verify", "--man=no", *(str(tmp_path / n) for n in (
        "xeri@01.service", "xeri-migrate.service", "xeri-haproxy.service", "xeri.target"))],
        capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    # Each process's command line, as systemd expands it for instance 01, is one `xeri serve` takes.
    env = env_file("xeri.env")
    line = unit("xeri@.service")["Service"]["ExecStart"].replace("%i", "01")
    argv = shlex.split(line.replace("${XERI_DB}", env["XERI_DB"]).replace("$XERI_SERVE_ARGS", env["XERI_SERVE_ARGS"]))
    assert argv[:2] == ["/opt/xeri/venv/bin/xeri", "serve"]
    args = build_parser("serve").parse_args(argv[1:])
    assert (args.port, args.metrics_port, args.host) == (8001, 9101, "127.0.0.1")
    assert args.db == env["XERI_DB"] and args.redis and args.trusted_proxy == ["127.0.0.1"]
    migrate = shlex.split(unit("xeri-migrate.service")["Service"]["ExecStart"].replace("${XERI_DB}", env["XERI_DB"]))
    assert build_parser("db").parse_args(migrate[1:]).action == "upgrade"
    # HAProxy accepts the TLS front's configuration with the units' environment (a certificate made here).
    haproxy_env = env_file("haproxy.env")
    haproxy_env["XERI_TLS_CERT"] = str(self_signed(tmp_path))
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    done = subprocess.run([haproxy, "-c", "-f", str(TLS_CFG)], capture_output=True, text=True,
                          env={**os.environ, **haproxy_env})
    assert done.returncode == 0, done.stdout + done.stderr
    for node in ("XERI_NODE_1", "XERI_NODE_2", "XERI_NODE_3"):
        assert haproxy_env[node].startswith("127.0.0.1:80")
