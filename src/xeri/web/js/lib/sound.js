// @ts-check
// The table's sounds, made by the page with the Web Audio API: nothing is downloaded, so they add no byte to the
// first visit. Each sound is a few short notes or a burst of filtered noise; the Settings' sound switch (prefs
// "sound") turns them all off. Browsers start audio only after a gesture, so the context is made on the first one,
// or, when that gesture falls while cards move, as soon as they stop: never in the middle of a flight.

import { prefs } from "./prefs.js";

/** @typedef {"play" | "capture" | "xeri" | "turn" | "round" | "match"} SoundName */

/** @type {AudioContext | null} */
let ctx = null;
/** @type {AudioBuffer | null} the card's snap, made once */
let noise = null;
/** Every sound the page made, newest last (for the tests and for a curious player: window.__xeriSounds). */
export const played = /** @type {SoundName[]} */ ([]);

function context() {
  if (ctx) return ctx;
  const Ctor = window.AudioContext;
  if (!Ctor) return null;
  try {
    ctx = new Ctor();
  } catch {
    return null;
  }
  return ctx;
}

/** @type {Promise<void> | null} */
let warming = null;

/**
 * Start the audio output once, on a gesture and with a silent sound: its first start costs the main thread a long
 * moment in some browsers, which must not fall in the middle of a card's flight.
 * @param {AudioContext} c
 * @returns {Promise<void>}
 */
function warm(c) {
  if (warming) return warming;
  const silent = c.createBufferSource();
  silent.buffer = c.createBuffer(1, 1, c.sampleRate);
  silent.connect(c.destination);
  silent.start();
  warming = (c.state === "suspended" ? c.resume() : Promise.resolve()).catch(() => {});
  return warming;
}

/** Effects playing now (effects.js says when cards start and stop moving). */
let moving = 0;
/** A gesture came: the audio output may start, at the first moment no card moves. */
let wanted = false;

/**
 * Make the context and start the audio output, once: in Chromium the first AudioContext of a browser starts its
 * audio service, a main-thread task of 50 to 180 ms, so it is made only while no card moves.
 */
function start() {
  if (moving || warming || !wanted || !prefs.get("sound")) return;
  const c = context();
  if (c) void warm(c);
}

/**
 * Cards start moving (`true`) or stop (`false`); a gesture that came while they moved starts the audio output
 * once they stop, in a task of its own.
 * @param {boolean} on
 */
export function motion(on) {
  moving = Math.max(0, moving + (on ? 1 : -1));
  if (!moving && wanted && !warming) setTimeout(start, 0);
}

// A gesture lets the context run (autoplay policy, which remembers the page's first gesture); until then sounds
// are skipped, not queued, and no sound makes the context: only a gesture does, at a still moment.
for (const type of ["pointerdown", "keydown"]) {
  window.addEventListener(type, () => {
    if (!prefs.get("sound")) return;
    wanted = true;
    start();
  }, { capture: true, passive: true });
}

/**
 * Resolves once the page may make sound (after a gesture), for the tests: false when it cannot.
 * @returns {Promise<boolean>}
 */
export async function ready() {
  if (!ctx || !warming) return false;
  await warming;
  return ctx.state === "running";
}

/**
 * One note: a sine or triangle that fades out.
 * @param {AudioContext} c
 * @param {number} freq Hz
 * @param {number} at seconds from now
 * @param {number} dur seconds
 * @param {OscillatorType} [type]
 * @param {number} [gain]
 */
function tone(c, freq, at, dur, type = "sine", gain = 0.18) {
  const osc = c.createOscillator();
  const amp = c.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  const t0 = c.currentTime + at;
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  osc.connect(amp).connect(c.destination);
  osc.start(t0);
  osc.stop(t0 + dur + 0.02);
}

/**
 * A card's snap on the felt: a short burst of band-passed noise.
 * @param {AudioContext} c
 * @param {number} at
 * @param {number} [freq]
 */
function snap(c, at, freq = 1800) {
  if (!noise) {
    const len = Math.floor(c.sampleRate * 0.06);
    noise = c.createBuffer(1, len, c.sampleRate);
    const data = noise.getChannelData(0);
    // A fixed pattern, not Math.random: the page's sounds are the same every time.
    let x = 12345;
    for (let i = 0; i < len; i++) {
      x = (x * 1103515245 + 12345) & 0x7fffffff;
      data[i] = ((x / 0x7fffffff) * 2 - 1) * (1 - i / len) ** 3;
    }
  }
  const src = c.createBufferSource();
  src.buffer = noise;
  const band = c.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = freq;
  const amp = c.createGain();
  amp.gain.value = 0.5;
  src.connect(band).connect(amp).connect(c.destination);
  src.start(c.currentTime + at);
}

/**
 * Play a sound, unless the sound setting is off.
 * @param {SoundName} name
 */
export function sound(name) {
  if (!prefs.get("sound")) return;
  played.push(name);
  if (played.length > 50) played.shift();
  const c = ctx;
  if (!c || c.state !== "running") return;
  switch (name) {
    case "play":
      snap(c, 0);
      break;
    case "capture":
      snap(c, 0, 1200);
      snap(c, 0.07, 900);
      tone(c, 523, 0.05, 0.12, "triangle", 0.08);
      break;
    case "xeri":
      [523, 659, 784, 1047].forEach((f, i) => tone(c, f, i * 0.09, 0.3, "triangle", 0.16));
      break;
    case "turn":
      tone(c, 880, 0, 0.15, "sine", 0.1);
      break;
    case "round":
      [392, 523, 659].forEach((f, i) => tone(c, f, i * 0.12, 0.35, "sine", 0.12));
      break;
    case "match":
      [523, 659, 784, 659, 1047].forEach((f, i) => tone(c, f, i * 0.13, 0.45, "triangle", 0.14));
      break;
    default:
      break;
  }
}
