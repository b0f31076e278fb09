// @ts-check
// Seat tokens kept in this browser: reloading the page must give the player their seat back.

/** @typedef {import("./types.js").SavedSeat} SavedSeat */
/** @typedef {import("./types.js").Seat} Seat */

const TOKENS_KEY = "xeri.seats";


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

