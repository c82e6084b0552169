// civ4's card faces (issue 39): the one face of a card, drawn here (no borrowed art), for the
// table (board.js, panels.js, combat.js), its tips (the name carries the card's whole text as
// data-tip, which help.js shows) and the card reference on /rules (upgradeReference, called by
// the rules page's loader, civcards/server/static/rules.js). A face: a frame and an emblem per
// kind (building, wonder, unit, technology, plot), the name, the cost as resource icons, the
// printed resources (a deck card's cash value, a plot's yield) and what it does in one line of
// the symbols of symbols.js. The card's data is the server's (civcards/games/civ4/web.py
// card_view): the same on the table and in the reference, the numbers of the game's card set.
import { esc, t } from "/static/common.js";
import { maskSheet, resChips, symbolChip } from "./symbols.js";

/** The emblem of each kind (on the face's frame, in the kind's colour), as masks (symbols.js). */
const SHAPES = {
  building: '<path d="M2 11 L12 3 L22 11 H19 V21 H14 V15 H10 V21 H5 V11 Z"/>', // a house
  wonder: '<path d="M12 2 L23 21 H1 Z M12 8 L7 18 H17 Z" fill-rule="evenodd"/>', // a pyramid
  unit: '<path d="M4 2 L14 12 L12 14 L2 4 Z M20 2 L22 4 L12 14 L10 12 Z M8 15 L3 20 L4 21 L9 16 Z M16 15 L21 20 L20 21 L15 16 Z"/>', // crossed swords
  tech: '<path d="M12 1 A7 7 0 0 1 16 14 V17 H8 V14 A7 7 0 0 1 12 1 Z M8 19 H16 V21 H8 Z M10 22 H14 V23 H10 Z"/>', // a lamp
  plot: '<path d="M12 1 L22 6.5 V17.5 L12 23 L2 17.5 V6.5 Z M5 16 L10 9 L13 13 L15 11 L19 16 Z" fill-rule="evenodd"/>', // a hex of hills
};
maskSheet("e", SHAPES);
export const EMBLEM = Object.fromEntries(Object.keys(SHAPES).map((k) => [k, `<i class="mico e-${k}" aria-hidden="true"></i>`]));

if (!document.querySelector("link[data-c4]")) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/games/civ4/civ4.css";
  link.dataset.c4 = "1";
  document.head.appendChild(link);
}

const num = (x) => x !== null && x !== undefined;

/** The cost: a building's or wonder's in hammers, a technology's in coins (C37), a market
 * plot's in resources of any kind (C26); `now` (what it costs this seat now) beside the printed
 * one where they differ. */
function costHTML(card, now) {
  const k = card.kind;
  if (k === "plot") {
    if (!num(now)) return "";
    const words = t("ccg.cost", { cost: now });
    return `<span class="res r-any" data-tip="${esc(words)}"><span aria-hidden="true">⬡${now}</span><span class="sr-only">${esc(words)}</span></span>`;
  }
  if (!num(card.cost)) return "";
  const at = num(now) ? now : card.cost;
  const a = k === "tech" ? [0, 0, at] : [0, at, 0];
  const was = at !== card.cost ? ` <s class="was" aria-hidden="true">${card.cost}</s>` : "";
  return `${resChips(a)}${was}`;
}

/** The face of `card` (the server's card_view) as HTML. `o`: `now` (its cost to this seat
 * now), `count` (copies held), `tag` (the name's element: h4 by default), `level` (its
 * aria-level), `text` (its whole text
 * under the icons), `small` (a face on a plot or in a compact board: name and icons). */
export function face(card, o = {}) {
  const kind = card.kind || "plot";
  const count = o.count > 1 ? ` <span class="f-count">×${o.count}</span>` : "";
  const cost = costHTML(card, o.now);
  const printed = kind === "plot" ? card.yields : card.res;
  const printedWords = kind === "plot" ? t("ccg.yields", { res: "" }).trim() : t("ccg.sym.cash");
  const fx = (card.fx || []).map(([s, v]) => symbolChip(s, v)).join("");
  const tag = o.tag || "h4";
  const level = o.level ? ` aria-level="${o.level}"` : "";
  const kindWords = card.kind_name || t(`ccg.kind.${kind}`);
  // a name with one very long word (German's Bronzeverarbeitung) is set smaller: a word is
  // never broken, and at the usual size it is wider than a phone's card
  const long = /\S{17,}/.test(card.name || "") ? " long" : "";
  return `<div class="face k-${esc(kind)}${o.small ? " small" : ""}" data-card="${esc(card.code)}">
    <div class="f-head"><span class="f-emb" title="${esc(kindWords)}">${EMBLEM[kind] || ""}</span><${tag} class="f-name${long}"${level} data-tip="${esc(card.help)}">${esc(card.name)}${count}</${tag}><span class="sr-only">${esc(kindWords)}</span>
      ${card.era ? `<small class="f-era">${esc(t("ccg.web.era", { era: card.era }))}</small>` : ""}${cost ? `<span class="f-cost">${cost}</span>` : ""}</div>
    <div class="f-body">${printed && printed.some((x) => x) ? `<span class="f-res" title="${esc(printedWords)}">${resChips(printed)}</span>` : ""}${fx ? `<span class="f-fx">${fx}</span>` : ""}</div>
    ${o.text ? `<p class="help f-text">${esc(card.help)}</p>` : ""}</div>`;
}

/** The card reference of /rules: each card with its face (the server gives each reference
 * card its code, data-card, and its face's data, data-face), put at the head of its text. */
export function upgradeReference(root) {
  root.classList.add("c4");
  for (const el of root.querySelectorAll("[data-card][data-face]")) {
    let card = null;
    try { card = JSON.parse(el.dataset.face); } catch { card = null; }
    const dd = el.querySelector("dd");
    if (!card || !dd || dd.querySelector(".face")) continue;
    dd.insertAdjacentHTML("afterbegin", face(card, { tag: "span" }));
    el.classList.add("has-face");
  }
}
