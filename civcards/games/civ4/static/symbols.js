// The symbols of civ4 at the table (board.js, panels.js, faces.js): resources differ by shape and letter (the
// reader's language's: ccg.res_letter.*), not by colour alone; population, culture,
// happiness and victory points. Pure functions of their arguments and the catalogue.
import { esc, t } from "/static/common.js";

export const RES = ["F", "H", "C"];

const SHAPE = {
  F: '<path d="M12 1 C17 6 17 14 12 23 C7 14 7 6 12 1 Z"/>', // an ear of wheat
  H: '<path d="M3 4 H21 V10 H14 V23 H10 V10 H3 Z"/>', // a hammer
  C: '<circle cx="12" cy="12" r="11"/>', // a coin
};
const FILL = { F: "#8a6d00", H: "#9c2f1a", C: "#0b5f73" };

export function resIcon(r) {
  return `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="${FILL[r]}">${SHAPE[r]}<text x="12" y="16" text-anchor="middle">${esc(t(`ccg.res_letter.${r}`))}</text></svg>`;
}

export const resWord = (r) => t(`ccg.res.${r}`);

/** [2, 0, 1] -> "2 food, 1 coins" */
export function resText(a) {
  const parts = RES.map((r, i) => (a[i] ? `${a[i]} ${resWord(r)}` : null)).filter(Boolean);
  return parts.length ? parts.join(", ") : t("ccg.nothing");
}

/** [2, 0, 1] as chips: symbol, letter and amount (the words for screen readers). */
export function resChips(a, words = false) {
  const out = RES.map((r, i) => (a[i] ? `<span class="res r-${r}" data-tip="${esc(`${a[i]} ${resWord(r)}`)}">${resIcon(r)}<span aria-hidden="true">${a[i]}</span><span class="sr-only">${esc(`${a[i]} ${resWord(r)}`)}</span>${words ? ` <span aria-hidden="true">${esc(resWord(r))}</span>` : ""}</span>` : ""));
  const s = out.join(" ").trim();
  return s || `<span class="muted">0</span>`;
}

/** A supply: every type, with its symbol, amount and word. */
export function supplyChips(a) {
  return RES.map((r, i) => `<span class="res r-${r}">${resIcon(r)} ${a[i]} ${esc(resWord(r))}</span>`).join(" ");
}

/** "2F1C" -> [2, 0, 1] */
export function parseRes(tok) {
  const a = [0, 0, 0];
  for (const m of String(tok).matchAll(/(\d+)([FHC])/g)) a[RES.indexOf(m[2])] += Number(m[1]);
  return a;
}

/** [2, 0, 1] -> "2F1C" (the notation; "0" for none) */
export function resStr(a) {
  const s = RES.map((r, i) => (a[i] ? `${a[i]}${r}` : "")).join("");
  return s || "0";
}

export const PERSON = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><circle cx="12" cy="6" r="5"/><path d="M3 23 C3 14 21 14 21 23 Z"/></svg>';

export function popIcons(n) {
  const shown = n <= 5 ? PERSON.repeat(n) : `${PERSON}×${n}`;
  return `<span class="pop" data-tip="${esc(t("ccg.web.pop_n", { n }))}">${n ? shown : ""}<span class="sr-only">${esc(t("ccg.web.pop_n", { n }))}</span></span>`;
}

// The faces' icon vocabulary (faces.js): what a card does, as the server names it
// (civcards/games/civ4/web.py effect_symbols), each icon drawn here and labelled in the
// reader's language (ccg.sym.*), the label its tip and its screen reader's words.
const P = (d) => `<path d="${d}"/>`;
export const SYMBOLS = {
  vp: P("M2 19 L4 7 L9 12 L12 4 L15 12 L20 7 L22 19 Z"), // a crown
  culture: P("M9 3 V15 A3.5 3.5 0 1 1 7 12 V7 L19 4 V14 A3.5 3.5 0 1 1 17 11 V7 L9 9"), // a note
  happiness: '<circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="2.5"/><circle cx="8.5" cy="9.5" r="1.6"/><circle cx="15.5" cy="9.5" r="1.6"/><path d="M7 14 Q12 19 17 14" fill="none" stroke="currentColor" stroke-width="2.2"/>',
  attack: P("M20 2 L22 4 L10 16 L12 18 L10 20 L8 18 L4 22 L2 20 L6 16 L4 14 L6 12 L8 14 Z"), // a sword
  defence: P("M12 1 L21 5 C21 13 17 19 12 23 C7 19 3 13 3 5 Z"), // a shield
  population: '<circle cx="12" cy="6" r="5"/><path d="M3 23 C3 14 21 14 21 23 Z"/>',
  trade: P("M3 8 H17 V4 L23 9 L17 14 V10 H3 Z M21 16 H7 V20 L1 15 L7 10 V14 H21 Z"), // two arrows
  income: P("M12 2 A10 10 0 1 1 2.5 9 H6 A6.5 6.5 0 1 0 12 5.5 V9 L6 4 L12 -1 Z"), // each round
  gain: P("M12 1 L14.5 9 L23 9 L16 14 L19 22 L12 17 L5 22 L8 14 L1 9 L9.5 9 Z"), // a star
  gain_plot: P("M12 1 L14.5 9 L23 9 L16 14 L19 22 L12 17 L5 22 L8 14 L1 9 L9.5 9 Z"),
  double: P("M4 4 L10 12 L4 20 H8 L12 14.5 L16 20 H20 L14 12 L20 4 H16 L12 9.5 L8 4 Z"), // ×
  boost: P("M12 2 L22 13 H16 V22 H8 V13 H2 Z"), // an arrow up
  discount: P("M2 12 L12 2 H22 V12 L12 22 Z M17 5 A2 2 0 1 0 17.01 5 Z"), // a price tag
  draw: P("M5 2 H16 L20 6 V22 H5 Z"), // a card
  slot: '<rect x="3" y="3" width="18" height="18" rx="2" fill="none" stroke="currentColor" stroke-width="2.5" stroke-dasharray="4 3"/>',
  tech: P("M9 2 H15 V8 L21 20 C22 22 21 23 19 23 H5 C3 23 2 22 3 20 L9 8 Z"), // a flask
  steal: P("M6 22 V10 C6 8 9 8 9 10 V4 C9 2 12 2 12 4 V9 V3 C12 1 15 1 15 3 V10 V5 C15 3 18 3 18 5 V15 C18 19 15 22 12 22 Z"), // a hand
  steal_card: P("M6 22 V10 C6 8 9 8 9 10 V4 C9 2 12 2 12 4 V9 V3 C12 1 15 1 15 3 V10 V5 C15 3 18 3 18 5 V15 C18 19 15 22 12 22 Z"),
  destroy: P("M12 1 C14 6 19 8 19 15 A7 7 0 0 1 5 15 C5 11 8 9 8 5 C10 7 10 9 11 10 C12 7 12 4 12 1 Z"), // a flame
  breach: P("M2 22 V8 H6 V4 H10 L8 12 L12 15 L10 22 Z M14 22 L16 15 L13 11 L15 4 H18 V8 H22 V22 Z"), // a broken wall
  upgrade: P("M12 3 L22 13 L19 16 L12 9 L5 16 L2 13 Z M12 11 L22 21 L19 24 L12 17 L5 24 L2 21 Z"), // chevrons
};

/** Shapes as CSS masks, one stylesheet built once (a constructed sheet: no inline style for the
 * page's CSP to refuse): an icon is then one element, not an svg with its paths to parse at
 * each redraw. `shapes`: {name: svg body}; each is drawn by `.PREFIX-name`. */
export function maskSheet(prefix, shapes) {
  const rules = Object.entries(shapes).map(([k, body]) => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">${body}</svg>`;
    return `.${prefix}-${k} { --m: url("data:image/svg+xml,${encodeURIComponent(svg)}"); }`;
  });
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(rules.join("\n"));
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
maskSheet("s", SYMBOLS);

/** The icon of symbol `s` (its words are the caller's). */
export function symbolIcon(s) {
  return `<i class="mico s-${esc(s)}" aria-hidden="true"></i>`;
}

/** A symbol's words in the reader's language, with its value ("2 culture", "steals 1"). */
export function symbolWords(s, v) {
  const label = t(`ccg.sym.${s}`);
  if (v === "" || v === null || v === undefined) return label;
  if (/^[FHC]$/.test(String(v))) return `${label}: ${resWord(v)}`;
  if (/^\d+[FHC]/.test(String(v))) return `${label}: ${resText(parseRes(v))}`;
  return `${label} ${v}`;
}

/** Amounts as small icons and numbers, for a screen reader's words said elsewhere. */
export function resMini(a) {
  return RES.map((r, i) => (a[i] ? `<span class="res r-${r}" aria-hidden="true">${resIcon(r)}${a[i]}</span>` : "")).join("");
}

/** One effect of a face: its icon, its value (a resource token as chips) and its words. */
export function symbolChip(s, v) {
  const words = symbolWords(s, v);
  const val = v === "" || v === null || v === undefined ? ""
    : /^[FHC]$/.test(String(v)) ? resIcon(v)
      : /^\d+[FHC]/.test(String(v)) ? resMini(parseRes(v)) : `<span aria-hidden="true">${esc(String(v))}</span>`;
  return `<span class="fx fx-${esc(s)}" data-tip="${esc(words)}">${symbolIcon(s)}${val}<span class="sr-only">${esc(words)}</span></span>`;
}
