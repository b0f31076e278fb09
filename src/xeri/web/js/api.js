// HTTP and WebSocket access to `xeri serve` (docs/protocol.md), and the seat tokens kept for reconnection.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

/**
 * JSON.parse that keeps integers beyond 2^53 (the round seeds are 64-bit) exact, as strings of digits.
 * It uses the reviver's source text where the browser gives it, else quotes long digit runs first.
 */
export function parseJSON(text) {
  let sourceSeen = false;
  const value = JSON.parse(text, function (key, v, context) {
    if (context && typeof context.source === "string") sourceSeen = true;
    if (typeof v === "number" && Number.isInteger(v) && !Number.isSafeInteger(v) && context && typeof context.source === "string") {
      return context.source;
    }
    return v;
  });
  if (sourceSeen || !/\d{16,}/.test(text)) return value;
  return JSON.parse(quoteBigIntegers(text));
}

/** Quote every JSON integer too big to be exact (for browsers whose reviver gets no source text). */
export function quoteBigIntegers(text) {
  return text.replace(/([:,[]\s*)(-?\d{16,})(?=\s*[,}\]])/g, (all, before, digits) =>
    Number.isSafeInteger(Number(digits)) ? all : `${before}"${digits}"`);
}

/** JSON.stringify that writes a seed kept as a string of digits back as a JSON integer. */
export function toJSON(body) {
  return JSON.stringify(body).replace(/"seed":"(-?\d+)"/g, '"seed":$1');
}

async function request(method, path, body) {
  const init = { method, headers: { Accept: "application/json" } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = toJSON(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", String(err && err.message ? err.message : err));
  }
  let data = null;
  try {
    data = parseJSON(await response.text());
  } catch {
    data = null;
  }
  if (!response.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(response.status, e.code || "http_error", e.message || `HTTP ${response.status}`);
  }
  return data;
}

export const api = {
  meta: () => request("GET", "/api/meta"),
  tables: (status = "all") => request("GET", `/api/tables?status=${encodeURIComponent(status)}`),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  createTable: (body) => request("POST", "/api/tables", body),
  join: (id, name, seat) => request("POST", `/api/tables/${encodeURIComponent(id)}/join`, seat == null ? { name } : { name, seat }),
  leave: (id, token) => request("POST", `/api/tables/${encodeURIComponent(id)}/leave`, { token }),
  matches: (player) => request("GET", `/api/matches?limit=100${player ? `&player=${encodeURIComponent(player)}` : ""}`),
  replay: (id) => request("GET", `/api/matches/${encodeURIComponent(id)}/replay`),
  recordUrl: (id) => `/api/matches/${encodeURIComponent(id)}/record`,
  review: (id, seat) => request("GET", `/api/matches/${encodeURIComponent(id)}/review?seat=${encodeURIComponent(seat)}`),
  players: () => request("GET", "/api/players?limit=100"),
  playerStats: (name) => request("GET", `/api/players/${encodeURIComponent(name)}/stats`),
  fairness: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/fairness`),
  verify: (body) => request("POST", "/api/verify", body),
};

// ---- seat tokens: reloading the page must give the player their seat back ----

const TOKENS_KEY = "xeri.seats";

function readSeats() {
  try {
    const data = JSON.parse(localStorage.getItem(TOKENS_KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

export const seats = {
  get(tableId) {
    const s = readSeats()[tableId];
    return s && typeof s.token === "string" ? s : null;
  },
  set(tableId, seat, token) {
    const all = readSeats();
    all[tableId] = { seat, token, at: Date.now() };
    localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
  },
  drop(tableId) {
    const all = readSeats();
    delete all[tableId];
    localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
  },
};

/**
 * One table's WebSocket that reconnects by itself. `onMessage(msg)` gets every
 * server message; `onStatus("open"|"lost"|"closed", detail)` the connection's state.
 */
export class TableSocket {
  constructor(tableId, token, { onMessage, onStatus }) {
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    this.timer = null;
    this.wasOpen = false;
    this.onOnline = () => this.reconnectNow();
    window.addEventListener("online", this.onOnline);
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // summary=1: this page shows each round's summary, and the next round waits until it is closed.
    const q = this.token ? `?token=${encodeURIComponent(this.token)}&summary=1` : "";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${q}`;
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.onStatus("open", this.wasOpen ? "reconnected" : "connected");
      this.wasOpen = true;
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = parseJSON(ev.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      // 4003 bad token, 4004 no such table: retrying cannot help.
      if (ev.code === 4003 || ev.code === 4004) {
        this.closed = true;
        this.onStatus("closed", ev.code);
        return;
      }
      this.onStatus("lost", ev.code);
      this.schedule();
    };
    ws.onerror = () => {
      /* onclose follows and does the work */
    };
  }

  schedule() {
    clearTimeout(this.timer);
    const delay = Math.min(5000, 300 * 2 ** this.attempt);
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  reconnectNow() {
    if (this.closed || (this.ws && this.ws.readyState <= 1)) return;
    clearTimeout(this.timer);
    this.connect();
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    window.removeEventListener("online", this.onOnline);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }
}
