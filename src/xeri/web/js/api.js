// @ts-check
// HTTP and WebSocket access to `xeri serve` (docs/protocol.md), and the seat tokens kept for reconnection.
// The server's messages are declared once, in protocol.d.ts, which scripts/protocol_schema.py writes from the
// server's own models (docs/protocol.schema.json); these are the names the other modules import them by.

/**
 * docs/protocol.md's TABLE; `offline`: played in this browser by the offline engine (offline.js).
 * @typedef {import("./protocol.js").Table & { offline?: boolean }} Table
 */
/** @typedef {import("./protocol.js").TableSeat} Seat one seat of a TABLE */
/** @typedef {import("./protocol.js").Ruleset} Ruleset a preset with every option (TABLE's `ruleset`) */
/** @typedef {NonNullable<import("./protocol.js").CreateTable["options"]>} RuleOptions rule options to ask for */
/**
 * POST /api/tables; `offline`: play it in this browser, with no network (the offline engine).
 * @typedef {import("./protocol.js").CreateTable & { offline?: boolean }} NewTable
 */
/** @typedef {import("./protocol.js").Pause} Pause the seats still reading a round's summary */
/** @typedef {import("./protocol.js").Timer} Timer the seconds before a bot plays */
/** @typedef {import("./protocol.js").View} View docs/protocol.md's VIEW; a replay's STATE adds `hands` */
/** @typedef {import("./protocol.js").Breakdown} Breakdown one side's score of a round */
/** @typedef {import("./protocol.js").Round} Round a finished round (ROUND) */
/** @typedef {import("./protocol.js").GameEvent} GameEvent an EVENT, told apart by `kind`
 * (docs/reference/protocol-messages.md) */
/** @typedef {import("./protocol.js").PlayedEvent} PlayedEvent */
/** @typedef {Omit<import("./protocol.js").HintMessage, "type" | "ref">} Hint a card and why (`code`, `params`) */
/** @typedef {import("./protocol.js").ServerMessage} ServerMessage every message on a table's socket */
/** @typedef {import("./protocol.js").ClientMessage} ClientMessage what the page sends on it */
/** @typedef {import("./protocol.js").Seated} Seated a join's answer */
/** @typedef {import("./protocol.js").ServerMeta} Meta GET /api/meta */
/** @typedef {import("./protocol.js").OfflineMeta} OfflineMeta the server's offline pack */
/** @typedef {import("./protocol.js").MatchSummary} MatchSummary a finished match in GET /api/matches */
/** @typedef {import("./protocol.js").Step} Step */
/** @typedef {import("./protocol.js").Replay} Replay */
/** @typedef {import("./protocol.js").Stats} Stats */
/** @typedef {import("./protocol.js").Effect} Effect */
/** @typedef {import("./protocol.js").ReviewedMove} ReviewedMove one reviewed move (`xeri review --json`) */
/** @typedef {import("./protocol.js").Review} Review `xeri review --json`'s object */
/** @typedef {import("./protocol.js").ReviewProgress} ReviewProgress */
/** @typedef {import("./protocol.js").Fairness} Fairness GET /api/tables/{id}/fairness */
/** @typedef {import("./protocol.js").Verdict} Verdict POST /api/verify */
/** @typedef {import("./protocol.js").Account} Account GET /api/account: who is signed in (docs/accounts.md) */
/** @typedef {import("./protocol.js").AccountTables} AccountTables the account's open tables */
/** @typedef {import("./protocol.js").Claimed} Claimed the seats a claim made the account's */
/** @typedef {import("./protocol.js").Profile} Profile GET /api/profiles/{name} */
/** @typedef {import("./protocol.js").RatingPoint} RatingPoint a profile's rating after one rated match */
/** @typedef {import("./protocol.js").Leaderboard} Leaderboard GET /api/leaderboards/{format} */

/**
 * The signed-in session's CSRF token (account.js sets it): every POST sends it, as docs/accounts.md asks of a
 * request that carries the session cookie; null for a guest.
 * @type {string | null}
 */
let csrfToken = null;
/** Whether a session is signed in: a table's socket then asks for the account's seat (`?account=1`). */
let signedIn = false;

/**
 * @param {Account} account
 */
export function useAccount(account) {
  csrfToken = account.signed_in ? account.csrf || null : null;
  signedIn = account.signed_in;
}

export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status, 0 when the network failed
   * @param {string} code
   * @param {string} [message]
   */
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

/**
 * One call of the HTTP API; its answer is the JSON the server documents for that path (docs/protocol.md).
 * @template T
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<T>}
 */
async function request(method, path, body) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  /** @type {RequestInit} */
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (method !== "GET" && csrfToken) headers["X-CSRF-Token"] = csrfToken;
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", String(err instanceof Error && err.message ? err.message : err));
  }
  /** @type {unknown} */
  let data = null;
  try {
    data = JSON.parse(await response.text());
  } catch {
    // Not JSON (a proxy's error page): data stays null.
  }
  if (!response.ok) {
    const failure = /** @type {{ error?: { code?: string, message?: string } } | null} */ (data);
    const e = (failure && failure.error) || {};
    throw new ApiError(response.status, e.code || "http_error", e.message || `HTTP ${response.status}`);
  }
  return /** @type {T} */ (data);
}

/**
 * The saved seat token of table `id` as a query parameter (`?token=` or `&token=`), or "": a finished private
 * match opens only to its seats (docs/security.md), and a download link cannot carry a header.
 * @param {string} id
 * @param {"?" | "&"} sep
 * @returns {string}
 */
function seatQuery(id, sep) {
  const mine = seats.get(id);
  return mine ? `${sep}token=${encodeURIComponent(mine.token)}` : "";
}

// ---- the offline engine: tables played in this browser answer the same calls, with no network ----

/** An offline table's id starts with this (xeri.offline.table.new_table_id). */
export const OFFLINE_PREFIX = "offline-";

/**
 * @param {string} id
 * @returns {boolean}
 */
export function isOfflineTable(id) {
  return id.startsWith(OFFLINE_PREFIX);
}

/**
 * What a table's socket hands its owner: every server message, and the connection's state ("lost" with the move
 * sent on it that was never answered).
 * @typedef {{ onMessage: (msg: ServerMessage) => void,
 *   onStatus: (status: "open" | "lost" | "closed", detail: string | number,
 *     unanswered?: ClientMessage | null) => void }} TransportHandlers
 */
/**
 * A table's connection: the WebSocket (TableSocket) or the offline engine (offline-engine.js's OfflineSocket). The
 * table view uses only this, so it cannot tell the two apart.
 * @typedef {{ send: (msg: ClientMessage) => boolean, retryLater: () => ClientMessage | null, close: () => void }}
 *   Transport
 */
/**
 * The offline engine's side of the API (offline.js registers it with useOffline, offline-engine.js answers): the calls
 * of offline tables, answered by the same Python as the server's, in a Web Worker.
 * @typedef {object} OfflineApi
 * @property {(tableId: string, token: string | null, handlers: TransportHandlers) => Transport} open
 * @property {(body: NewTable) => Promise<Seated>} createTable
 * @property {(id: string) => Promise<Table>} table
 * @property {(player?: string | null) => Promise<MatchSummary[]>} matches finished offline matches, newest first
 * @property {(id: string) => string | null} recordUrl the finished record's blob: URL, once this page has it
 * @property {(id: string) => Promise<Replay>} replay
 * @property {(id: string, seat: number) => Promise<ReviewProgress>} review
 * @property {(body: Record<string, unknown>) => Promise<Verdict>} verify
 */

/** @type {OfflineApi | null} */
let offline = null;

/** @param {OfflineApi} engine */
export function useOffline(engine) {
  offline = engine;
}

/**
 * The offline engine for table `id`, or null when the server has it.
 * @param {string} id
 * @returns {OfflineApi | null}
 */
function offlineFor(id) {
  return offline && isOfflineTable(id) ? offline : null;
}

/**
 * A table's connection: the offline engine's for an offline table, else the reconnecting WebSocket.
 * @param {string} tableId
 * @param {string | null} token
 * @param {TransportHandlers} handlers
 * @param {{ watch?: boolean }} [options] watch: a spectator's socket, even for a signed-in player's seat
 * @returns {Transport}
 */
export function openTransport(tableId, token, handlers, { watch = false } = {}) {
  const engine = offlineFor(tableId);
  return engine ? engine.open(tableId, token, handlers)
    : new TableSocket(tableId, token, handlers, { account: signedIn && !watch });
}

/**
 * The finished matches: the server's and this browser's offline ones, newest first; the offline ones alone when
 * the server cannot be reached.
 * @param {string | null | undefined} player
 * @returns {Promise<{ matches: MatchSummary[] }>}
 */
async function allMatches(player) {
  const local = offline ? await offline.matches(player) : [];
  /** @type {{ matches: MatchSummary[] }} */
  let remote;
  try {
    remote = navigator.onLine || !local.length
      ? await request("GET", `/api/matches?limit=100${player ? `&player=${encodeURIComponent(player)}` : ""}`)
      : { matches: [] };
  } catch (err) {
    if (local.length && err instanceof ApiError && err.status === 0) return { matches: local };
    throw err;
  }
  if (!local.length) return remote;
  const all = [...local, ...remote.matches];
  all.sort((a, b) => String(b.finished_at || "").localeCompare(String(a.finished_at || "")));
  return { matches: all };
}

export const api = {
  /** @type {() => Promise<Meta>} */
  meta: () => request("GET", "/api/meta"),
  /** @type {(status?: string) => Promise<{ tables: Table[] }>} */
  tables: (status = "all") => request("GET", `/api/tables?status=${encodeURIComponent(status)}`),
  /** @type {(id: string) => Promise<Table>} */
  table: (id) => offlineFor(id)?.table(id)
    ?? request("GET", `/api/tables/${encodeURIComponent(id)}${seatQuery(id, "?")}`),
  // The page always gives a name, so the answer always carries the seat and its token.
  /** @type {(body: NewTable) => Promise<Seated>} */
  createTable: (body) => (body.offline && offline ? offline.createTable(body) : request("POST", "/api/tables", body)),
  /** @type {(id: string, name: string, seat?: number | null) => Promise<Seated>} */
  join: (id, name, seat) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/join`, seat == null ? { name } : { name, seat }),
  // Leaving an offline match keeps it, saved in this browser, to go on with later.
  /** @type {(id: string, token: string) => Promise<{ ok: boolean, table?: Table }>} */
  leave: (id, token) => (offlineFor(id) ? Promise.resolve({ ok: true })
    : request("POST", `/api/tables/${encodeURIComponent(id)}/leave`, { token })),
  /** @type {(player?: string | null) => Promise<{ matches: MatchSummary[] }>} */
  matches: (player) => allMatches(player),
  /** @type {(id: string) => Promise<Replay>} */
  replay: (id) => offlineFor(id)?.replay(id)
    ?? request("GET", `/api/matches/${encodeURIComponent(id)}/replay${seatQuery(id, "?")}`),
  // An offline match's record: a blob: URL of the engine's bytes, else the same path, which the service worker
  // (sw.js) answers from this browser's store.
  /** @type {(id: string) => string} */
  recordUrl: (id) => offlineFor(id)?.recordUrl(id)
    || `/api/matches/${encodeURIComponent(id)}/record${seatQuery(id, "?")}`,
  /** @type {(id: string, seat: number) => Promise<ReviewProgress>} */
  review: (id, seat) => offlineFor(id)?.review(id, seat)
    ?? request("GET",
      `/api/matches/${encodeURIComponent(id)}/review?seat=${encodeURIComponent(seat)}${seatQuery(id, "&")}`),
  /** @type {() => Promise<{ players: Stats[] }>} */
  players: () => request("GET", "/api/players?limit=100"),
  /** @type {(name: string) => Promise<Stats>} */
  playerStats: (name) => request("GET", `/api/players/${encodeURIComponent(name)}/stats`),
  /** @type {(id: string) => Promise<Fairness>} */
  fairness: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/fairness${seatQuery(id, "?")}`),
  // With no network, the offline engine checks a round's fair shuffle with the same Python.
  /** @type {(body: Record<string, unknown>) => Promise<Verdict>} */
  verify: (body) => (offline && !navigator.onLine ? offline.verify(body) : request("POST", "/api/verify", body)),
  // ---- accounts (docs/accounts.md) ----
  /** @type {() => Promise<Account>} */
  account: () => request("GET", "/api/account"),
  /** @type {(name: string, password: string) => Promise<Account>} */
  signUp: (name, password) => request("POST", "/api/account/signup", { name, password }),
  /** @type {(name: string, password: string) => Promise<Account>} */
  signIn: (name, password) => request("POST", "/api/account/signin", { name, password }),
  /** @type {() => Promise<Account>} */
  signOut: () => request("POST", "/api/account/signout", {}),
  /** @type {(password: string, newPassword: string) => Promise<Account>} */
  changePassword: (password, newPassword) =>
    request("POST", "/api/account/password", { password, new_password: newPassword }),
  /** @type {(password: string) => Promise<Account>} */
  deleteAccount: (password) => request("POST", "/api/account/delete", { password }),
  /** @type {(hidden: boolean) => Promise<Account>} */
  setHidden: (hidden) => request("POST", "/api/account/settings", { hidden }),
  /** @type {(claimed: { table_id: string, token: string }[]) => Promise<Claimed>} */
  claim: (claimed) => request("POST", "/api/account/claim", { seats: claimed }),
  /** @type {() => Promise<AccountTables>} */
  myTables: () => request("GET", "/api/account/tables"),
  /** @type {(tableId: string) => Promise<{ ok: boolean, table?: Table }>} the account's seat there, no token */
  leaveMine: (tableId) => request("POST", "/api/account/leave", { table_id: tableId }),
  /** @type {(name: string) => Promise<Profile>} */
  profile: (name) => request("GET", `/api/profiles/${encodeURIComponent(name)}`),
  /** @type {(format: string) => Promise<Leaderboard>} */
  leaderboard: (format) => request("GET", `/api/leaderboards/${encodeURIComponent(format)}`),
};

// ---- seat tokens: reloading the page must give the player their seat back ----

const TOKENS_KEY = "xeri.seats";

/** @typedef {{ seat: number, token: string, at?: number }} SavedSeat */

/** @returns {Record<string, SavedSeat>} */
function readSeats() {
  try {
    const data = JSON.parse(localStorage.getItem(TOKENS_KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

export const seats = {
  /**
   * @param {string} tableId
   * @returns {SavedSeat | null}
   */
  get(tableId) {
    const s = readSeats()[tableId];
    return s && typeof s.token === "string" ? s : null;
  },
  /**
   * @param {string} tableId
   * @param {number} seat
   * @param {string} token
   */
  set(tableId, seat, token) {
    const all = readSeats();
    all[tableId] = { seat, token, at: Date.now() };
    localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
  },
  /**
   * Every seat this browser keeps, by table (a claim sends them: docs/accounts.md).
   * @returns {[string, SavedSeat][]}
   */
  all() {
    return Object.entries(readSeats()).filter(([, s]) => s && typeof s.token === "string");
  },
  /** @param {string} tableId */
  drop(tableId) {
    const all = readSeats();
    delete all[tableId];
    localStorage.setItem(TOKENS_KEY, JSON.stringify(all));
  },
};

/** The first reconnect pause (ms), the longest, and how long a socket must live after its sync to count as good. */
export const RETRY_FIRST_MS = 300;
export const RETRY_MAX_MS = 10000;
export const STABLE_MS = 5000;

/**
 * The pause before try number `attempt` (0, 1, …): it doubles up to RETRY_MAX_MS, and is drawn between half of
 * that and all of it, so that pages cut off together (a server restarting) do not come back together.
 * @param {number} attempt
 * @param {() => number} [random]
 * @returns {number}
 */
export function retryDelay(attempt, random = Math.random) {
  const ceiling = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/**
 * One table's WebSocket that reconnects by itself (a Transport). `onMessage(msg)` gets every
 * server message; `onStatus("open"|"lost"|"closed", detail, unanswered)` the connection's state, with, when it is
 * lost, the move sent on it that the server never answered (it may or may not have been stored).
 *
 * The pause between tries grows (retryDelay) and starts small again only once a socket has synced and then lived
 * STABLE_MS: a server that accepts the socket and then closes it at once (it refuses the seat) is not hammered.
 */
export class TableSocket {
  /**
   * @param {string} tableId
   * @param {string | null} token the seat's token; null to watch
   * @param {TransportHandlers} handlers
   * @param {{ account?: boolean }} [options] account: no token, but the signed-in account's seat if it holds one
   */
  constructor(tableId, token, { onMessage, onStatus }, { account = false } = {}) {
    this.tableId = tableId;
    this.token = token;
    this.account = account;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.wasOpen = false;
    /** when the current socket got its first sync (performance.now()), 0 before */
    this.syncedAt = 0;
    /** @type {ClientMessage | null} the last move sent, until the server answers it */
    this.lastMove = null;
    /** retryable refusals in a row (the server could not store a move), for their pause */
    this.refusals = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.resyncTimer = undefined;
    this.onOnline = () => this.reconnectNow();
    window.addEventListener("online", this.onOnline);
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    // summary=1: this page shows each round's summary, and the next round waits until it is closed.
    const q = this.token ? `?token=${encodeURIComponent(this.token)}&summary=1`
      : this.account ? "?account=1&summary=1" : "";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${q}`;
  }

  connect() {
    if (this.closed) return;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.syncedAt = 0;
    ws.onopen = () => {
      this.onStatus("open", this.wasOpen ? "reconnected" : "connected");
      this.wasOpen = true;
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = /** @type {ServerMessage} */ (JSON.parse(ev.data));
      } catch {
        return;
      }
      if (msg.type === "sync" && !this.syncedAt) this.syncedAt = performance.now();
      if (msg.type === "update") this.refusals = 0; // the server stores moves again
      if (msg.type === "sync" || msg.type === "update") this.lastMove = null;
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      // A socket that synced and lived a while was a good one: the next pause starts small again.
      if (this.syncedAt && performance.now() - this.syncedAt >= STABLE_MS) this.attempt = 0;
      if (this.closed) return;
      // 4003 bad token, 4004 no such table: retrying cannot help.
      if (ev.code === 4003 || ev.code === 4004) {
        this.closed = true;
        this.onStatus("closed", ev.code);
        return;
      }
      // A move sent on this socket and never answered: the page sends it again after the resync if the table is
      // still at that move's version (it was not stored), and forgets it if the table moved on.
      const unanswered = this.lastMove;
      this.lastMove = null;
      this.onStatus("lost", ev.code, unanswered);
      this.schedule();
    };
    ws.onerror = () => {
      /* onclose follows and does the work */
    };
  }

  schedule() {
    clearTimeout(this.timer);
    const delay = retryDelay(this.attempt);
    this.attempt += 1;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /**
   * A retryable refusal of a move (the server could not store it, or its table is changing servers): ask for a
   * sync after a growing, jittered pause, and return the refused move, for the page to send again after that
   * sync if it is still legal at the sync's version (null if no move was waiting for an answer).
   * @returns {ClientMessage | null}
   */
  retryLater() {
    const move = this.lastMove;
    this.lastMove = null;
    clearTimeout(this.resyncTimer);
    const delay = retryDelay(this.refusals);
    this.refusals += 1;
    this.resyncTimer = setTimeout(() => this.send({ type: "sync" }), delay);
    return move;
  }

  reconnectNow() {
    if (this.closed || (this.ws && this.ws.readyState <= 1)) return;
    clearTimeout(this.timer);
    this.connect();
  }

  /**
   * Send a message if the socket is open; false when it is not (the caller keeps the move).
   * @param {ClientMessage} msg
   * @returns {boolean}
   */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      if (msg.type === "move") this.lastMove = msg;
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.resyncTimer);
    window.removeEventListener("online", this.onOnline);
    if (this.ws) this.ws.close(1000);
    this.ws = null;
  }
}
