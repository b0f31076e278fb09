// Builds src/xeri/web/js/lib/courts.js, the court cards' figures, from Adrian Kennard's public-domain (CC0) deck
// as the npm package @letele/playing-cards 0.1.0 ships it (React components of the deck's SVG). Only the figures
// are taken: the page draws each card's frame, corners and pips itself, so a court card matches the rest of the deck.
// Each figure is the top half of a double-headed card, in layers on a 1300 x 2000 box; svgo rounds its numbers to
// what a card up to ~200 px wide can show, which keeps the twelve figures small on the wire.
//
//   npm pack @letele/playing-cards@0.1.0 && tar xzf letele-playing-cards-0.1.0.tgz    (-> ./package)
//   npm install --prefix /tmp/svgo svgo@3.3.5
//   SVGO=/tmp/svgo/node_modules/svgo/lib/svgo-node.js node scripts/court_art.mjs package \
//     > src/xeri/web/js/lib/courts.js
//
// docs/web.md ("Faces, felt and sound") says why this deck, and its licence.

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [dir] = process.argv.slice(2);
if (!dir) {
  console.error("usage: node scripts/court_art.mjs <unpacked @letele/playing-cards package>");
  process.exit(2);
}
const svgoPath = process.env.SVGO;
if (!svgoPath) {
  console.error("set SVGO to svgo's node entry (svgo@3: .../node_modules/svgo/lib/svgo-node.js)");
  process.exit(2);
}
const { optimize } = await import(pathToFileURL(path.resolve(svgoPath)).href);
const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
if (pkg.name !== "@letele/playing-cards" || pkg.license !== "CC0-1.0") {
  console.error(`not the CC0 deck: ${pkg.name} ${pkg.license}`);
  process.exit(1);
}

// The package's components rendered to SVG text by a createElement that writes markup.
let source = fs.readFileSync(path.join(dir, "dist", "index.esm.js"), "utf8").replace(/^import .*$/gm, "");
const exported = /** @type {RegExpMatchArray} */ (source.match(/export \{([^}]*)\}/))[1];
source = source.replace(/export \{[^}]*\};?/, "");
const names = exported.split(",").map((s) => s.trim()).filter(Boolean)
  .map((n) => (n.includes(" as ") ? n.split(" as ").reverse().join(": ") : n));
const CAMEL = new Set(["viewBox", "preserveAspectRatio"]);
/** @param {string} k */
const attr = (k) => (k === "className" ? "class" : k === "xlinkHref" ? "xlink:href" : k === "xmlnsXlink"
  ? "xmlns:xlink" : CAMEL.has(k) ? k : k.replace(/[A-Z]/g, (m) => "-" + m.toLowerCase()));
const React = {
  /** @param {string} tag @param {Record<string, unknown> | null} props @param {unknown[]} kids */
  createElement(tag, props, ...kids) {
    const a = Object.entries(props || {}).filter(([k, v]) => v != null && k !== "aria-labelledby")
      .map(([k, v]) => ` ${attr(k)}="${String(v).replace(/"/g, "&quot;")}"`).join("");
    return `<${tag}${a}>${kids.flat().filter(Boolean).join("")}</${tag}>`;
  },
};
const deck = new Function("React", "_extends", `${source}\nreturn {${names.join(",")}};`)(React, Object.assign);

/** @type {Record<string, string>} */
const pips = {};
/** @type {Record<string, { pip: number, art: string[] }>} */
const courts = {};
for (const suit of ["C", "D", "H", "S"]) {
  for (const rank of ["J", "Q", "K"]) {
    const svg = deck[suit + rank.toLowerCase()]({});
    /** @type {Record<string, string>} */
    const symbols = {};
    for (const m of svg.matchAll(/<symbol id="[^"]*_svg__(\w)"[^>]*>(.*?)<\/symbol>/g)) symbols[m[1]] = m[2];
    // The corner's small pip names the suit's symbol; the frame's big pip gives its side (left or right).
    const small = /** @type {RegExpMatchArray} */ (svg.match(/<use xlink:href="#[^"]*_svg__(\w)" height="26\.769"/));
    const big = /** @type {RegExpMatchArray} */ (svg.match(/<use xlink:href="#[^"]*" height="55\.68" width="55\.68" x="([-\d.]+)"/));
    pips[suit] = symbols[small[1]].replace(/ fill="[^"]*"/, "").replace(/<path /, '<path fill="currentColor" ');
    // The figure's layers, in the order the card draws them (each once upright, then turned for the lower half).
    const layers = [...svg.matchAll(/<use width="164\.8" height="260\.8" x="-82\.4" y="-130\.4" xlink:href="#[^"]*_svg__(\w)">/g)]
      .map((m) => `<g>${symbols[m[1]]}</g>`);
    const pipId = new RegExp(`xlink:href="#[^"]*_svg__${small[1]}"`, "g");
    // Each layer on its own: the card draws a layer upright and turned before the next, so they stay apart.
    const art = layers.map((layer) => {
      const whole = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
        + 'viewBox="0 0 1300 2000"><defs><symbol id="pip" viewBox="-600 -600 1200 1200" '
        + `preserveAspectRatio="xMinYMid">${pips[suit]}</symbol></defs>${layer.replace(pipId, 'href="#pip"')}</svg>`;
      const out = optimize(whole, {
        multipass: true,
        floatPrecision: 1,
        plugins: [{ name: "preset-default", params: { overrides: { cleanupIds: false, removeHiddenElems: false } } }],
      }).data;
      return out.replace(/^<svg[^>]*>/, "").replace(/<\/svg>$/, "").replace(/<defs>.*?<\/defs>/, "")
        .replace(/<symbol id="pip".*?<\/symbol>/, "").replace(/(xlink:)?href="#pip"/g, `href="#xf-pip-${suit}"`);
    });
    courts[rank + suit] = { pip: Math.round(Number(big[1]) * 100) / 100, art };
  }
}

const lines = [
  "// @ts-check",
  "/* eslint-disable @stylistic/max-len -- generated: each layer's markup is one string */",
  "// GENERATED by scripts/court_art.mjs: do not edit. The court cards' figures of Adrian Kennard's deck",
  "// (https://www.me.uk/cards/), public domain (CC0 1.0), from the npm package @letele/playing-cards 0.1.0.",
  "// Each figure is the top half of its card on a 1300 x 2000 box; `pip` is the x of the frame's big pip in the",
  "// deck's card box (-120..120). Loaded only when a table shows figures (lib/cards.js, loadFaces).",
  "",
  "/** @type {Record<string, string>} each suit's pip, on a 1200 x 1200 box centred on 0 */",
  `export const PIPS = ${JSON.stringify(pips, null, 1)};`,
  "",
  "/** @type {Record<string, { pip: number, art: string[] }>} each card's layers, drawn in order, upright then turned */",
  `export const COURTS = ${JSON.stringify(courts, null, 1)};`,
  "",
];
process.stdout.write(lines.join("\n"));
