// CIV's card faces (issue 39): one face per domain, drawn here in SVG and CSS of our own (no
// borrowed art), used by the table (the hand, the draft), by the tips (a domain's tip shows its
// face) and by the card reference on /rules (upgradeReference). A face has the domain's frame
// and emblem, its name, its cost (the thresholds: level 1, level 2, Hegemony) and its effects
// in one short line of icons (level 1, level 2, discard; Culture: its majority), each icon with
// its label from the catalogue (five languages). Style: carta.css, linked once by this module.
import { esc, t } from "/static/common.js";

export const LETTERS = "MRESCU";

/** Each domain's effects: level 1, level 2, discard (R15-R20; Culture: Inspiration only). */
export const DOMAIN_EFFECTS = {
  M: ["assassination", "purge", "attack"], R: ["holybook", "divineright", "inquisition"],
  E: ["development", "monopoly", "embargo"], S: ["experiment", "research", "discovery"],
  C: ["inspiration", null, null], U: ["oligarchy", "republic", "democracy"],
};

/** The thresholds of every player count (R6), for a face seen outside a game. */
const ANY_PLAYERS = [[2, 3], [4, 5], [7, 8]];

export function domainName(letter) {
  return t(`domain.${letter}`);
}

export function effectName(kind) {
  return t(`effect.${kind}`);
}

/** The domain an effect belongs to ("attack" -> "M"), else null. */
export function effectDomain(kind) {
  for (const l of LETTERS) if (DOMAIN_EFFECTS[l].includes(kind)) return l;
  return null;
}

/** Six counts, by letter, of a card list ("MMS" -> {M: 2, S: 1, …}). */
export function countLetters(cards) {
  const c = {};
  for (const l of LETTERS) c[l] = 0;
  for (const ch of cards) if (ch in c) c[ch] += 1;
  return c;
}

/** A card list in words ("Military ×2, Science"). */
export function cardsWords(cards) {
  const c = countLetters(cards);
  const parts = [];
  for (const l of LETTERS) if (c[l]) parts.push(domainName(l) + (c[l] > 1 ? ` ×${c[l]}` : ""));
  return parts.length ? parts.join(", ") : t("ui.empty");
}

/** What a card of a domain does (its tip): the domain's effects by level. */
export function cardTip(letter) {
  const [l1, l2, disc] = DOMAIN_EFFECTS[letter];
  const effects = l2 === null
    ? t("ref.domain_culture", { effect: effectName(l1) })
    : t("ref.domain", { l1: effectName(l1), l2: effectName(l2), disc: effectName(disc) });
  return t("web.tip.card", { domain: domainName(letter), effects });
}

/** An effect's tip: its name and what it does. */
export function effectTip(kind) {
  return `${effectName(kind)}: ${t(`help.${kind}`)}`;
}

// a distinct shape per domain, so colour is never the only cue
const SHAPES = {
  M: '<path d="M12 2 L22 21 H2 Z"/>',
  R: '<path d="M9 2 H15 V8 H21 V14 H15 V22 H9 V14 H3 V8 H9 Z"/>',
  E: '<circle cx="12" cy="12" r="10"/>',
  S: '<path d="M12 1 L21.5 6.5 V17.5 L12 23 L2.5 17.5 V6.5 Z"/>',
  C: '<path d="M12 1 L14.9 8.6 L23 9 L16.7 14.1 L18.8 22 L12 17.6 L5.2 22 L7.3 14.1 L1 9 L9.1 8.6 Z"/>',
  U: '<path d="M12 1 L23 12 L12 23 L1 12 Z"/>',
};

/** The domain's small mark: its shape, its colour and its letter. */
export function icon(letter, cls = "icon") {
  return `<svg class="${cls} d-${letter}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${SHAPES[letter]}<text x="12" y="16" text-anchor="middle">${letter}</text></svg>`;
}

// each domain's emblem, drawn large in the middle of its face (48x48)
const EMBLEMS = {
  // two crossed swords
  M: '<g fill="none" stroke-width="3.2" stroke-linecap="round"><path d="M11 11 L35 35 M37 11 L13 35"/><path d="M29 37 L37 29 M11 29 L19 37" stroke-width="4"/></g><path d="M7 7 L14 8.5 L8.5 14 Z M41 7 L34 8.5 L39.5 14 Z"/>',
  // a flame over an altar
  R: '<path d="M24 5 C 31 14 35 19 35 27 A11 11 0 0 1 13 27 C 13 21 17 17 19 12 C 21 17 23 19 25 21 C 26 15 25 10 24 5 Z"/><path d="M10 40 H38 M14 44 H34" fill="none" stroke-width="3" stroke-linecap="round"/>',
  // a stack of coins
  E: '<g stroke-width="2.4"><path d="M11 16 V34 A13 5 0 0 0 37 34 V16" fill-opacity=".55"/><ellipse cx="24" cy="16" rx="13" ry="5"/></g><path d="M11 22 A13 5 0 0 0 37 22 M11 28 A13 5 0 0 0 37 28" fill="none" stroke-width="2.4"/>',
  // an atom
  S: '<g fill="none" stroke-width="2.6"><ellipse cx="24" cy="24" rx="19" ry="7"/><ellipse cx="24" cy="24" rx="19" ry="7" transform="rotate(60 24 24)"/><ellipse cx="24" cy="24" rx="19" ry="7" transform="rotate(-60 24 24)"/></g><circle cx="24" cy="24" r="4"/>',
  // a column of a temple
  C: '<path d="M8 12 L24 4 L40 12 Z"/><g fill="none" stroke-width="3" stroke-linecap="round"><path d="M10 15 H38 M15 19 V36 M21 19 V36 M27 19 V36 M33 19 V36 M11 40 H37 M8 44 H40"/></g>',
  // a sun rising over the horizon
  U: '<path d="M13 34 A11 11 0 0 1 35 34 Z"/><g fill="none" stroke-width="3" stroke-linecap="round"><path d="M6 38 H42 M12 43 H36 M24 8 V15 M9 19 L14 23 M39 19 L34 23 M4 30 H9 M39 30 H44"/></g>',
};

function emblem(letter) {
  return `<span class="cface-art"><svg class="cface-emblem" viewBox="0 0 48 48" aria-hidden="true" focusable="false">${EMBLEMS[letter]}</svg></span>`;
}

// the icon vocabulary of the effect line and the cost (16x16), each with its label
const GLYPHS = {
  l1: '<rect x="6" y="2" width="4" height="12" rx="1"/>',
  l2: '<rect x="3" y="2" width="4" height="12" rx="1"/><rect x="9" y="2" width="4" height="12" rx="1"/>',
  discard: '<rect x="2.5" y="1.5" width="7.5" height="10" rx="1.5" fill="none" stroke-width="1.6"/><path d="M12.5 6 V14 M9.8 11.3 L12.5 14 L15.2 11.3" fill="none" stroke-width="1.6" stroke-linecap="round" stroke-linejoin="round"/>',
  heg: '<path d="M1.5 13 L2.5 4 L5.8 8 L8 2.5 L10.2 8 L13.5 4 L14.5 13 Z"/>',
  most: '<path d="M1 15 V9 H5 V15 Z M6 15 V3 H10 V15 Z M11 15 V7 H15 V15 Z"/>',
};
const GLYPH_LABEL = {
  l1: () => t("ref.level", { n: 1 }),
  l2: () => t("ref.level", { n: 2 }),
  discard: () => t("ref.discard"),
  heg: () => t("term.hegemony"),
  most: () => t("ref.majority"),
};

/** An icon of the vocabulary (l1, l2, discard, heg, most) with its label in the reader's language. */
export function glyph(kind) {
  return `<svg class="glyph g-${kind}" viewBox="0 0 16 16" role="img" aria-label="${esc(GLYPH_LABEL[kind]())}" focusable="false"><title>${esc(GLYPH_LABEL[kind]())}</title>${GLYPHS[kind]}</svg>`;
}

/** The effect line of a domain: each effect after the icon of what it needs. */
export function effectLine(letter) {
  const [l1, l2, disc] = DOMAIN_EFFECTS[letter];
  if (l2 === null) return `<span class="fx">${glyph("most")}<span>${esc(effectName(l1))}</span></span>`;
  return [["l1", l1], ["l2", l2], ["discard", disc]]
    .map(([g, k]) => `<span class="fx" data-effect="${k}">${glyph(g)}<span>${esc(effectName(k))}</span></span>`).join(" ");
}

/** The cost line: the cards it takes for level 1, level 2 and Hegemony (this game's numbers,
 * else every player count's: 2–3 · 4–5 · 7–8). */
function costLine(thresholds) {
  const nums = thresholds ? thresholds.map(String) : ANY_PLAYERS.map(([a, b]) => `${a}–${b}`);
  const label = t("ui.thresholds", { l1: nums[0], l2: nums[1], heg: nums[2] });
  const parts = ["l1", "l2", "heg"].map((g, i) => `<span class="cost-n">${glyphPlain(g)}${nums[i]}</span>`).join("");
  return `<span class="cface-cost" role="img" aria-label="${esc(label)}" data-testid="face-cost">${parts}</span>`;
}

// inside the cost's one label the icons are drawn only
function glyphPlain(kind) {
  return `<svg class="glyph g-${kind}" viewBox="0 0 16 16" aria-hidden="true" focusable="false">${GLYPHS[kind]}</svg>`;
}

/**
 * The face of a card of domain `letter` (HTML of phrasing content: it may stand in a button).
 * opts.thresholds: this game's [l1, l2, hegemony] (else every player count's);
 * opts.cls: more classes (e.g. "small").
 */
export function face(letter, opts = {}) {
  const cls = opts.cls ? ` ${opts.cls}` : "";
  return `<span class="cface d-${letter}${cls}" data-face="${letter}" data-card="${letter}">
    <span class="cface-head">${icon(letter, "icon cface-pip")}<span class="cface-name" data-testid="face-name">${esc(domainName(letter))}</span></span>
    ${emblem(letter)}
    ${costLine(opts.thresholds || null)}
    <span class="cface-effect" data-testid="face-effect">${effectLine(letter)}</span>
  </span>`;
}

// -- the card reference on /rules: each entry of a domain becomes its face --

/** Each `[data-card]` entry under `root` whose code is a domain gets its face; the entry's text
 * stays for screen readers (the face is a picture of it, hidden from them). Returns how many. */
export function upgradeReference(root = document) {
  ensureStyle();
  let n = 0;
  for (const el of root.querySelectorAll("[data-card]")) {
    const letter = el.dataset.card;
    if (!(letter in DOMAIN_EFFECTS) || el.classList.contains("cface") || el.querySelector(":scope > .cface")) continue;
    const holder = document.createElement("div");
    holder.innerHTML = face(letter).trim();
    const f = holder.firstElementChild;
    f.setAttribute("aria-hidden", "true");
    el.classList.add("has-face");
    for (const child of el.children) child.classList.add("sr-only");
    el.prepend(f);
    n += 1;
  }
  return n;
}

// -- tips: an element of a domain (data-face-tip="M") shows the domain's face in its tip --

let tipWatch = null;

/** The page's tip (#tip, help.js) shows the face of the element it is for, when that element
 * names a domain (data-face-tip); the tip's words stay under it. */
export function faceTips(thresholds) {
  faceTips.thresholds = thresholds;
  if (tipWatch) return;
  const update = () => {
    const tip = document.getElementById("tip");
    if (!tip || tip.hidden) return;
    const el = document.querySelector('[aria-describedby~="tip"][data-face-tip]');
    const has = tip.querySelector(":scope > .cface");
    const want = el ? el.dataset.faceTip : null;
    if (has && has.dataset.face === want) return;
    if (has) has.remove();
    if (!want || !(want in DOMAIN_EFFECTS)) return;
    const holder = document.createElement("div");
    holder.innerHTML = face(want, { thresholds: faceTips.thresholds, cls: "in-tip" }).trim();
    const f = holder.firstElementChild;
    f.setAttribute("aria-hidden", "true"); // the tip's words say it
    tip.prepend(f);
    // the tip grew: it stays inside the window
    const r = tip.getBoundingClientRect();
    const at = el.getBoundingClientRect();
    let top = r.top;
    if (r.top < at.top) top = at.top - r.height - 6; // placed above its element: above still
    if (top + r.height > innerHeight - 4) top = innerHeight - r.height - 4;
    if (top !== r.top) tip.style.top = `${Math.max(4, top) + scrollY}px`;
  };
  tipWatch = new MutationObserver(update);
  const observe = () => {
    const tip = document.getElementById("tip");
    if (!tip) return false;
    tipWatch.observe(tip, { childList: true, characterData: true, subtree: true, attributes: true, attributeFilter: ["hidden", "style"] });
    return true;
  };
  if (!observe()) {
    // the tip is made on its first use
    const wait = new MutationObserver(() => { if (observe()) { wait.disconnect(); update(); } });
    wait.observe(document.body, { childList: true });
  }
}

/** The faces' style sheet (carta.css), linked once (the page's policy allows its own sheets). */
export function ensureStyle() {
  if (document.querySelector("link[data-carta-css]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/games/carta/carta.css";
  link.dataset.cartaCss = "1";
  document.head.appendChild(link);
}
