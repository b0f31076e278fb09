// @ts-check
// The player's settings, kept in localStorage: language, four-colour suits, the counting aid, their name.

/**
 * @typedef {object} Prefs
 * @property {string | null} lang the page's language, null until chosen (then the browser's decides)
 * @property {boolean} fourColour four-colour suits
 * @property {boolean} seenAid the counting aid is shown
 * @property {string} name the name last typed to join a table
 * @property {string} [level] the lobby's last level against the computer
 * @property {string} [vsRuleset] the lobby's last choices: against the computer (vs), with friends (fr)
 * @property {number} [vsPlayers]
 * @property {string} [vsTarget]
 * @property {string} [frRuleset]
 * @property {number} [frPlayers]
 * @property {string} [frTarget]
 */
/** @typedef {(key: keyof Prefs, value: Prefs[keyof Prefs]) => void} PrefsListener */

const KEY = "xeri.prefs";
/** @type {Prefs} */
const DEFAULTS = { lang: null, fourColour: false, seenAid: true, name: "" };
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

/** @returns {boolean} */
export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
