// @ts-check
// The page's one entry to a table's data: each call goes to the server (http.js, socket.js) or, for a table played
// in this browser, to the offline engine, so no view can tell the two apart.

import { ApiError, isSignedIn, request } from "./http.js";
import { seats } from "./seats.js";
import { TableSocket } from "./socket.js";

/** @typedef {import("./types.js").Account} Account */
/** @typedef {import("./types.js").AccountTables} AccountTables */
/** @typedef {import("./types.js").Claimed} Claimed */
/** @typedef {import("./types.js").Fairness} Fairness */
/** @typedef {import("./types.js").Leaderboard} Leaderboard */
/** @typedef {import("./types.js").MatchSummary} MatchSummary */
/** @typedef {import("./types.js").Meta} Meta */
/** @typedef {import("./types.js").NewTable} NewTable */
/** @typedef {import("./types.js").OfflineApi} OfflineApi */
/** @typedef {import("./types.js").Profile} Profile */
/** @typedef {import("./types.js").Replay} Replay */
/** @typedef {import("./types.js").ReviewProgress} ReviewProgress */
/** @typedef {import("./types.js").Seated} Seated */
/** @typedef {import("./types.js").SeekState} SeekState */
/** @typedef {import("./types.js").Stats} Stats */
/** @typedef {import("./types.js").Table} Table */
/** @typedef {import("./types.js").Transport} Transport */
/** @typedef {import("./types.js").TransportHandlers} TransportHandlers */
/** @typedef {import("./types.js").Verdict} Verdict */

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
    : new TableSocket(tableId, token, handlers, { account: isSignedIn() && !watch });
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
  // ---- "Play online": the pairing pools (docs/protocol.md) ----
  /** @type {() => Promise<import("../protocol.js").PairingPools>} */
  pairingPools: () => request("GET", "/api/pairing"),
  /** @type {(body: import("../protocol.js").Seek) => Promise<SeekState>} */
  seek: (body) => request("POST", "/api/pairing", body),
  /** @type {(id: string) => Promise<SeekState>} */
  seekState: (id) => request("GET", `/api/pairing/${encodeURIComponent(id)}`),
  /** @type {(id: string) => Promise<{ cancelled: boolean }>} */
  cancelSeek: (id) => request("DELETE", `/api/pairing/${encodeURIComponent(id)}`),
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

