// The player's settings, kept in localStorage: language, four-colour suits, the counting aid, their name.

const KEY = "xeri.prefs";
const DEFAULTS = { lang: null, fourColour: false, seenAid: true, name: "" };
const listeners = new Set();

function read() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

let current = read();

export const prefs = {
  get: (key) => current[key],
  set(key, value) {
    current = { ...current, [key]: value };
    localStorage.setItem(KEY, JSON.stringify(current));
    for (const fn of listeners) fn(key, value);
  },
  onChange(fn) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
};

export function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}
