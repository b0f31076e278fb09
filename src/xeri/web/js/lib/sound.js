// @ts-check
// The table's sounds, made by the page with the Web Audio API: nothing is downloaded, so they add no byte to the
// first visit, nor much to a table's. Cards sound like cards: a card laid down is a short snap of filtered noise
// over a soft thump of the felt, a slide a swell of noise that rises as it goes, the sweep a few slides gathered,
// the shuffle a riffle of tiny clicks and its bridge. Each has a few variants, taken in turn (never the same one
// twice running) and each a little different in pitch, so repetition does not grate. A xeri, a round and the
// match's win are short chimes. The Settings' sound switch (prefs "sound") turns them all off. Browsers start audio
// only after a gesture, so the context is made on the first one, or, when that gesture falls while cards move, as
// soon as they stop: never in the middle of a flight.

import { prefs } from "./prefs.js";

/**
 * @typedef {"play" | "slide" | "capture" | "sweep" | "shuffle" | "xeri" | "turn" | "round" | "match" | "win"} SoundName
 */

/** @type {AudioContext | null} */
let ctx = null;
/** @type {AudioBuffer | null} a second of noise, made once, that every card sound reads from somewhere else */
let noise = null;
/** @type {AudioNode | null} where every sound goes: a gentle compressor, so that chords and riffles never clip */
let out = null;
/** Every sound the page asked for, newest last (for the tests and for a curious player). */
export const played = /** @type {SoundName[]} */ ([]);
/** The variant each of them took, as "name:variant", newest last (the tests check that they take turns). */
export const takes = /** @type {string[]} */ ([]);

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
// are skipped, not queued, and no sound makes the context: only a gesture does, at a still moment. The table's
// modules load after the lobby's "Play now": that gesture, which the browser remembers, counts too.
if (navigator.userActivation && navigator.userActivation.hasBeenActive && prefs.get("sound")) {
  wanted = true;
  setTimeout(start, 0);
}
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
 * The output every sound connects to, made once per context.
 * @param {AudioContext} c
 * @returns {AudioNode}
 */
function output(c) {
  if (out) return out;
  const squash = c.createDynamicsCompressor();
  squash.threshold.value = -14;
  squash.ratio.value = 4;
  const level = c.createGain();
  level.gain.value = 0.9;
  squash.connect(level).connect(c.destination);
  out = squash;
  return out;
}

// A fixed pattern, not Math.random: the page's sounds are the same every visit. Each call moves it on, so the same
// variant is a little different (a few per cent of pitch, a few milliseconds) each time it plays.
let seed = 12345;
/** @returns {number} in [0, 1) */
function rand() {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x80000000;
}

/**
 * @param {AudioContext} c
 * @returns {AudioBuffer}
 */
function noiseBuffer(c) {
  if (noise && noise.sampleRate === c.sampleRate) return noise;
  const len = c.sampleRate;
  noise = c.createBuffer(1, len, c.sampleRate);
  const data = noise.getChannelData(0);
  for (let i = 0; i < len; i++) data[i] = rand() * 2 - 1;
  return noise;
}

/**
 * @typedef {object} Burst
 * @property {number} [freq] the band's middle, Hz
 * @property {number} [to] the band's middle at the end (a slide rises or falls)
 * @property {number} [q] the band's width: higher is narrower
 * @property {BiquadFilterType} [type]
 * @property {number} [attack] seconds
 * @property {number} [hold] seconds at full level
 * @property {number} [decay] seconds to silence
 * @property {number} [gain]
 */

/**
 * A burst of filtered noise with an envelope: the stuff of every card sound.
 * @param {AudioContext} c
 * @param {number} at seconds from now
 * @param {Burst} b
 */
function burst(c, at, b) {
  const { freq = 2000, to, q = 1, type = "bandpass", attack = 0.002, hold = 0, decay = 0.05, gain = 0.5 } = b;
  const t0 = c.currentTime + at;
  const src = c.createBufferSource();
  src.buffer = noiseBuffer(c);
  const band = c.createBiquadFilter();
  band.type = type;
  band.Q.value = q;
  band.frequency.setValueAtTime(freq, t0);
  if (to) band.frequency.exponentialRampToValueAtTime(to, t0 + attack + hold + decay);
  const amp = c.createGain();
  amp.gain.setValueAtTime(0.0001, t0);
  amp.gain.exponentialRampToValueAtTime(gain, t0 + attack);
  if (hold) amp.gain.setValueAtTime(gain, t0 + attack + hold);
  amp.gain.exponentialRampToValueAtTime(0.0001, t0 + attack + hold + decay);
  src.connect(band).connect(amp).connect(output(c));
  src.loop = true; // a long swell reads on round the second of noise
  src.start(t0, rand() * 0.9);
  src.stop(t0 + attack + hold + decay + 0.02);
}

/**
 * One note: a sine or triangle that fades out, with a quieter octave for a bell's shimmer.
 * @param {AudioContext} c
 * @param {number} freq Hz
 * @param {number} at seconds from now
 * @param {number} dur seconds
 * @param {OscillatorType} [type]
 * @param {number} [gain]
 */
function tone(c, freq, at, dur, type = "sine", gain = 0.18) {
  const t0 = c.currentTime + at;
  for (const [mult, share] of [[1, 1], [2.01, 0.25]]) {
    const osc = c.createOscillator();
    const amp = c.createGain();
    osc.type = type;
    osc.frequency.value = freq * mult;
    amp.gain.setValueAtTime(0.0001, t0);
    amp.gain.exponentialRampToValueAtTime(gain * share, t0 + 0.012);
    amp.gain.exponentialRampToValueAtTime(0.0001, t0 + dur / mult);
    osc.connect(amp).connect(output(c));
    osc.start(t0);
    osc.stop(t0 + dur + 0.02);
  }
}

/**
 * A card laid on the felt: the snap of its edge and the soft thump of the cloth under it.
 * @param {AudioContext} c
 * @param {number} at
 * @param {number} pitch the snap's band, Hz
 * @param {number} [level]
 */
function snap(c, at, pitch, level = 1) {
  burst(c, at, { freq: pitch, q: 1.4, attack: 0.001, decay: 0.035 + rand() * 0.02, gain: 1.6 * level });
  burst(c, at, { freq: 320, type: "lowpass", q: 0.7, attack: 0.002, decay: 0.06, gain: 1.4 * level });
}

/**
 * A card sliding over the cloth: a swell of noise whose band moves as it goes, and its stop.
 * @param {AudioContext} c
 * @param {number} at
 * @param {number} dur seconds
 * @param {number} from Hz
 * @param {number} to Hz
 * @param {number} [level]
 */
function slide(c, at, dur, from, to, level = 1) {
  burst(c, at, { freq: from, to, q: 0.8, attack: dur * 0.45, hold: dur * 0.2, decay: dur * 0.35, gain: 0.22 * level });
  snap(c, at + dur * 0.92, to * 1.3, 0.25 * level);
}

/**
 * Each sound's variants: each draws it from `at` seconds on, a little off by `j` (about 1, a few per cent each way).
 * @type {Record<SoundName, ((c: AudioContext, j: number) => void)[]>}
 */
const VOICES = {
  play: [
    (c, j) => snap(c, 0, 2400 * j),
    (c, j) => snap(c, 0, 1900 * j, 0.9),
    (c, j) => {
      burst(c, 0, { freq: 1500 * j, to: 2600 * j, q: 0.9, attack: 0.03, decay: 0.03, gain: 0.12 });
      snap(c, 0.045, 2800 * j);
    },
  ],
  slide: [
    (c, j) => slide(c, 0, 0.16 * j, 1200, 3200),
    (c, j) => slide(c, 0, 0.22 * j, 900, 2600, 0.9),
    (c, j) => slide(c, 0, 0.19 * j, 2600, 1500),
  ],
  capture: [
    (c, j) => {
      slide(c, 0, 0.14 * j, 1000, 2400, 0.8);
      snap(c, 0.17, 1700 * j, 0.7);
    },
    (c, j) => {
      slide(c, 0, 0.18 * j, 1400, 2800, 0.8);
      snap(c, 0.2, 2100 * j, 0.6);
    },
  ],
  sweep: [
    (c, j) => [0, 0.05, 0.11, 0.16].forEach((at, i) => slide(c, at * j, 0.15, 900 + i * 250, 2400 + i * 200, 0.7)),
    (c, j) => [0, 0.07, 0.12].forEach((at, i) => slide(c, at * j, 0.2, 1300 - i * 150, 3000, 0.75)),
    (c, j) => {
      [0, 0.04, 0.09, 0.13, 0.18].forEach((at, i) => slide(c, at * j, 0.12, 1100, 2200 + i * 180, 0.55));
      snap(c, 0.32, 1500, 0.6);
    },
  ],
  shuffle: [
    (c, j) => riffle(c, 0, 34, 0.62 * j, 2600),
    (c, j) => riffle(c, 0, 28, 0.5 * j, 3000),
    (c, j) => {
      riffle(c, 0, 20, 0.36 * j, 2400);
      riffle(c, 0.45, 20, 0.36 * j, 2800);
    },
  ],
  xeri: [
    (c, j) => {
      snap(c, 0, 2600 * j, 1.1);
      [523, 659, 784, 1047].forEach((f, i) => tone(c, f, 0.06 + i * 0.08, 0.5, "triangle", 0.13));
    },
    (c, j) => {
      snap(c, 0, 2200 * j, 1.1);
      [587, 740, 880, 1175].forEach((f, i) => tone(c, f, 0.06 + i * 0.08, 0.5, "triangle", 0.13));
    },
  ],
  turn: [(c, j) => tone(c, 660 * j, 0, 0.22, "sine", 0.14), (c, j) => tone(c, 784 * j, 0, 0.2, "sine", 0.12)],
  round: [(c) => [392, 523, 659].forEach((f, i) => tone(c, f, i * 0.12, 0.5, "sine", 0.11))],
  match: [(c) => [523, 659, 784, 659, 1047].forEach((f, i) => tone(c, f, i * 0.13, 0.55, "triangle", 0.12))],
  win: [
    (c) => {
      [523, 659, 784, 1047].forEach((f, i) => tone(c, f, i * 0.11, 0.6, "triangle", 0.12));
      [523, 659, 784, 1047, 1319].forEach((f) => tone(c, f, 0.5, 1.4, "sine", 0.07));
      burst(c, 0.45, { freq: 6000, to: 9000, type: "highpass", q: 0.5, attack: 0.3, decay: 0.9, gain: 0.05 });
    },
  ],
};

/**
 * The riffle of a shuffle: `count` tiny clicks, quick in the middle and slower at the ends, then the bridge's
 * soft whoosh as the halves fall together.
 * @param {AudioContext} c
 * @param {number} at
 * @param {number} count
 * @param {number} dur seconds
 * @param {number} pitch Hz
 */
function riffle(c, at, count, dur, pitch) {
  for (let i = 0; i < count; i++) {
    const x = i / (count - 1);
    const when = at + dur * (x - Math.sin(2 * Math.PI * x) / (2 * Math.PI) * 0.6);
    const gain = 0.25 + rand() * 0.15;
    burst(c, when, { freq: pitch * (0.8 + rand() * 0.5), q: 2.5, attack: 0.001, decay: 0.012, gain });
  }
  slide(c, at + dur, 0.16, 700, 1800, 0.7);
}

/** @type {Record<string, number>} each name's last variant */
const last = {};

/**
 * The next variant of a sound: in turn, so never the one before.
 * @param {SoundName} name
 * @returns {number}
 */
function nextVariant(name) {
  const n = VOICES[name].length;
  const v = name in last ? (last[name] + 1) % n : 0;
  last[name] = v;
  return v;
}

/**
 * Play a sound, unless the sound setting is off.
 * @param {SoundName} name
 */
export function sound(name) {
  if (!prefs.get("sound") || !(name in VOICES)) return;
  played.push(name);
  if (played.length > 50) played.shift();
  const variant = nextVariant(name);
  takes.push(`${name}:${variant}`);
  if (takes.length > 50) takes.shift();
  const c = ctx;
  if (!c || c.state !== "running") return;
  VOICES[name][variant](c, 0.96 + rand() * 0.08);
}
