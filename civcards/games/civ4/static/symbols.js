// The symbols of civ4 at the table (civ4.js): resources differ by shape and letter (the
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
  return `<span class="pop" data-tip="${esc(t("ccg.web.pop_n", { n }))}">${n ? shown : "·"}<span class="sr-only">${esc(t("ccg.web.pop_n", { n }))}</span></span>`;
}

export function icons(card) {
  if (card.culture === undefined) return "";
  const parts = [];
  if (card.culture) parts.push(`<span class="cul" data-tip="${esc(t("ccg.culture_n", { n: card.culture }))}">♪${card.culture}<span class="sr-only"> ${esc(t("ccg.web.culture"))}</span></span>`);
  if (card.happiness) parts.push(`<span class="hap" data-tip="${esc(t("ccg.happiness_n", { n: card.happiness }))}">☺${card.happiness}<span class="sr-only"> ${esc(t("ccg.web.happiness"))}</span></span>`);
  if (card.kind === "wonder" || card.kind === "tech") parts.push(`<span class="vp" data-tip="1 ${esc(t("ccg.web.vp"))}">♛1</span>`);
  return parts.length ? `<span class="icons">${parts.join(" ")}</span>` : "";
}

