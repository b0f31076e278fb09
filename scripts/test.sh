#!/usr/bin/env bash
# Install everything the test suite needs, then run all of it with pytest.
# This is the README's test command, and .ci/run runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."

# The Python to install into and test with: $PYTHON, else python3, else python.
PY=${PYTHON:-$(command -v python3 || command -v python)}

# Browser tests (tests/web/) drive Debian's Chromium through Playwright;
# Playwright's own browser download is never used.
if [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

# npm, and a Node.js that the pinned ESLint runs on (20.19 or newer). Debian 12's own is 18, so on a
# machine with an older one, Node.js 22 comes from the npm registry (package `node`) into .cache/node.
if ! command -v npm >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null
fi
NODE_OK='const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'
if ! node -e "$NODE_OK" 2>/dev/null; then
  if [ ! -x "$PWD/.cache/node/node_modules/.bin/node" ]; then
    npm install --silent --no-audit --no-fund --prefix "$PWD/.cache/node" node@22.14.0 >/dev/null
  fi
  export PATH="$PWD/.cache/node/node_modules/.bin:$PATH"
fi

# The accessibility tests (tests/web/test_web_a11y.py) inject axe-core into the page: npm's
# package, pinned to its newest release (tests/web/test_web_a11y.py checks the pin against the
# page's axe.version), installed once into .cache/axe-VERSION (ignored by git).
AXE_VERSION=4.14.1
AXE_DIR=${XERI_AXE_DIR:-$PWD/.cache/axe-$AXE_VERSION}
if [ ! -f "$AXE_DIR/node_modules/axe-core/axe.min.js" ]; then
  npm install --silent --no-audit --no-fund --prefix "$AXE_DIR" "axe-core@$AXE_VERSION" >/dev/null
fi
export XERI_AXE_JS="$AXE_DIR/node_modules/axe-core/axe.min.js"

# The offline pack (tests/web/test_web_offline.py serves it with xeri serve --offline-pack): npm's pyodide package, the
# WebAssembly build of CPython, pinned to the release xeri.offline.pack.PYODIDE_VERSION names, installed once into
# .cache/pyodide-VERSION (ignored by git). Nothing is downloaded when the server runs.
PYODIDE_VERSION=314.0.8
PYODIDE_DIR=${XERI_PYODIDE_DIR:-$PWD/.cache/pyodide-$PYODIDE_VERSION}
if [ ! -f "$PYODIDE_DIR/node_modules/pyodide/pyodide.asm.wasm" ]; then
  npm install --silent --no-audit --no-fund --prefix "$PYODIDE_DIR" "pyodide@$PYODIDE_VERSION" >/dev/null
fi
export XERI_TEST_PYODIDE="$PYODIDE_DIR/node_modules/pyodide"

# The browser code's checkers (tests/web/test_web_static_checks.py): TypeScript's tsc type-checks the JS
# modules from their JSDoc (no build step) and ESLint lints them, at the exact versions of package.json
# and package-lock.json. `npm ci` installs them into node_modules/ (ignored by git), again only when the
# lock file changes.
if ! cmp -s package-lock.json node_modules/.xeri-installed-lock.json; then
  npm ci --silent --no-audit --no-fund >/dev/null
  cp package-lock.json node_modules/.xeri-installed-lock.json
fi

# --- Services for the server tests: stopped and removed when this script exits -----
cleanup_server_services() {
  if [ -n "${PG_DIR:-}" ]; then
    su postgres -s /bin/sh -c "'$PG_BIN/pg_ctl' -D '$PG_DIR/data' -m immediate stop" >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
  fi
  if [ -n "${REDIS_DIR:-}" ]; then
    if [ -f "$REDIS_DIR/redis.pid" ]; then kill "$(cat "$REDIS_DIR/redis.pid")" 2>/dev/null || true; fi
    rm -rf "$REDIS_DIR"
  fi
}
trap cleanup_server_services EXIT

# --- PostgreSQL for the server tests (tests/server/store/test_server_pg.py) ---------------------
# Debian's postgresql, then a throwaway cluster on loopback owned by the postgres
# user, removed at exit. The tests read XERI_TEST_PG_URL and fail if it is set but
# the database cannot be reached.
if [ "$(id -u)" = 0 ] && [ -z "${XERI_TEST_PG_URL:-}" ]; then
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  fi
  PG_DIR=$(mktemp -d /tmp/xeri-pg.XXXXXX)
  chown postgres "$PG_DIR"
  PG_PORT=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  su postgres -s /bin/sh -c "'$PG_BIN/initdb' -D '$PG_DIR/data' -A trust -U postgres >/dev/null"
  su postgres -s /bin/sh -c "'$PG_BIN/pg_ctl' -D '$PG_DIR/data' -l '$PG_DIR/log' -w start \
    -o \"-k '$PG_DIR' -p $PG_PORT -c listen_addresses=127.0.0.1 -c fsync=off\" >/dev/null"
  export XERI_TEST_PG_URL="postgresql://postgres@127.0.0.1:$PG_PORT/postgres"
fi

# --- Redis for the server's pub/sub tests (tests/server/broker/test_server_redis.py) ------------
# Debian's redis-server on a free loopback port, no persistence, stopped at exit.
if [ -z "${XERI_TEST_REDIS_URL:-}" ]; then
  if ! command -v redis-server >/dev/null && [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  fi
  if command -v redis-server >/dev/null; then
    REDIS_DIR=$(mktemp -d /tmp/xeri-redis.XXXXXX)
    REDIS_PORT=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
      --pidfile "$REDIS_DIR/redis.pid" --logfile "$REDIS_DIR/redis.log" --dir "$REDIS_DIR"
    export XERI_TEST_REDIS_URL="redis://127.0.0.1:$REDIS_PORT/0"
  fi
fi

# --- HAProxy for the cluster tests (tests/server/cluster/test_server_cluster.py runs deploy/haproxy.cfg) ---
# Debian's haproxy; the tests start and stop their own instances on free ports.
if ! command -v haproxy >/dev/null && [ ! -x /usr/sbin/haproxy ] && [ "$(id -u)" = 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq haproxy >/dev/null
fi

# --- systemd's checker for the units of deploy/systemd (tests/server/ops/test_server_operations.py runs systemd-analyze) ---
# Nothing is started by systemd here: the test only verifies the unit files.
if ! command -v systemd-analyze >/dev/null && [ "$(id -u)" = 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd >/dev/null
fi

# The service-backed tests fail, rather than skip, when a service is missing here.
export XERI_REQUIRE_SERVICES=1

"$PY" -m pip install --quiet --disable-pip-version-check -e '.[test,server,web-test,rl,openspiel,fast,ray,plot,train]'
# The suite runs on every core (pytest-xdist), one test file per worker at a time: a file's tests share its
# fixtures (a server, a browser, a compiled kernel). Pass `-n 0` to run it in one process.
"$PY" -m pytest -n auto --dist loadfile "$@"
