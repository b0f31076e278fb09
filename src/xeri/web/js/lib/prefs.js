// @ts-check
// The player's settings, kept in localStorage: language, four-colour suits, the counting aid, their name, the
// theme, sound, motion, card size and faces, and which of the table's panels are open.

/**
 * @typedef {object} Prefs
 * @property {string | null} lang the page's language, null until chosen (then the browser's decides)
 * @property {boolean} fourColour four-colour suits
 * @property {boolean} seenAid the counting aid is shown
 * @property {boolean} notify the system's notifications, while the tab is hidden, where the browser allows them
 * @property {string} name the name last typed to join a table
 * @property {"auto" | "light" | "dark"} theme the colour theme; auto follows prefers-color-scheme
 * @property {boolean} sound the table's sounds are on
 * @property {"off" | "normal" | "fast"} motion the speed of the table's animations
 * @property {"small" | "medium" | "large"} cardSize the size of the cards, relative to what the screen allows
 * @property {"figures" | "index"} faces the cards' faces: court cards with figures, or a large letter
 * @property {boolean} logOpen the move log panel is open
 * @property {string} [level] the lobby's last level against the computer
 * @property {string} [vsRuleset] the lobby's last choices: against the computer (vs), with friends (fr)
 * @property {number} [vsPlayers]
 * @property {string} [vsTarget]
 * @property {boolean} [vsRated] the lobby's Rated box was ticked (a signed-in player's last choice)
 * @property {string} [frRuleset]
 * @property {number} [frPlayers]
 * @property {string} [frTarget]
 * @property {string} [browserKey] this browser's random key (browserKey): one seek per browser, its guest name
 * @property {string} [onlineFormat] the pool last chosen in "Play online"
 */
/** @typedef {(key: keyof Prefs, value: Prefs[keyof Prefs]) => void} PrefsListener */

const KEY = "xeri.prefs";
/** @type {Prefs} */
const DEFAULTS = {
  lang: null, fourColour: false, seenAid: true, name: "", notify: false,
  theme: "auto", sound: true, motion: "normal", cardSize: "medium", faces: "figures", logOpen: false,
};
/** @type {Set<PrefsListener>} */
const listeners = new Set();

/** @returns {Prefs} */
function read() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

let current = read();

export const prefs = {
  /**
   * @template {keyof Prefs} K
   * @param {K} key
   * @returns {Prefs[K]}
   */
  get: (key) => current[key],
  /**
   * @template {keyof Prefs} K
   * @param {K} key
   * @param {Prefs[K]} value
   */
  set(key, value) {
    current = { ...current, [key]: value };
    localStorage.setItem(KEY, JSON.stringify(current));
    for (const fn of listeners) fn(key, value);
  },
  /**
   * Call fn on every change; returns the function that stops it.
   * @param {PrefsListener} fn
   * @returns {() => boolean}
   */
  onChange(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};

/**
 * This browser's random key: the server keeps one seek of "Play online" per browser (a second replaces the first),
 * and a newcomer's generated name is drawn from it (i18n.js guestName), so one browser keeps one name.
 * @returns {string}
 */
export function browserKey() {
  let key = prefs.get("browserKey");
  if (!key) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    key = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    prefs.set("browserKey", key);
  }
  return key;
}

/** @returns {boolean} */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * The animation speed in force: the player's setting, and "off" whenever the system asks for reduced motion.
 * @returns {"off" | "normal" | "fast"}
 */
export function motion() {
  return reducedMotion() ? "off" : current.motion;
}
