// civ4 at the table: what every room of its module shares (civ4.js is the shell's entry;
// board.js draws the empires, markets and hand, panels.js the decision panels, combat.js
// the combat, events.js the clicks, faces.js the card faces). The table, its view and what
// the seat is composing are set here only (use, reset); the rooms read them.
import { esc, t } from "/static/common.js";

export let T = null; // the table (the shell's object)
export let view = null;
export let B = null; // view.board
export let ui = {}; // what the seat is composing (reset with each new position)
export let opened = []; // expanded steps (a build's free population, a Code of Laws…), outermost first
export const fullBoards = new Set(); // the opponents' boards opened to the full view, by seat (kept over the moves)
export const $ = (id) => document.getElementById(id);
export const LIMIT = 64; // the engine offers decisions of at most this many moves whole (choices.py)

// what each region was last drawn with: a region whose HTML is the same is left as it is (no
// new nodes, no listeners bound again, nothing for the browser to lay out again)
const drawn = new WeakMap();

/** Draw `html` into `el` unless it holds it already (drawn by this module, untouched since):
 * whether it was drawn. */
export function draw(el, html) {
  const was = drawn.get(el);
  if (was && was.html === html && was.first === el.firstChild && was.n === el.childNodes.length) return false;
  el.innerHTML = html;
  drawn.set(el, { html, first: el.firstChild, n: el.childNodes.length });
  return true;
}

/** Draw each of `htmls` into its own part of `el` (a wrapper that leaves the layout to its
 * content: display: contents), only the parts whose HTML changed: the parts drawn. */
export function drawParts(el, htmls) {
  // (another module's element among them, the guide's hint, is left where it is)
  let parts = [...el.children].filter((c) => c.classList.contains("c4-part"));
  if (parts.length !== htmls.length) {
    el.innerHTML = htmls.map(() => '<div class="c4-part"></div>').join("");
    drawn.delete(el);
    parts = [...el.children];
  }
  return parts.filter((part, i) => draw(part, htmls[i]));
}

/** A new position: nothing composed, no step open. */
export function reset() {
  ui = {};
  opened = [];
}

export const name = (s) => T.name(s);
export const optionTexts = () => (view.options || []).map((o) => o.text);
export const has = (text) => optionTexts().includes(text);
export const startsWith = (prefix) => optionTexts().filter((x) => x === prefix || x.startsWith(`${prefix} `));
export const mine = () => T.myTurn() && !view.result;
export const decide = () => B.decide || {};

export function use(table) {
  T = table;
  view = table.view;
  B = view.board || {};
  const root = document.getElementById("table");
  root.classList.add("c4");
  root.dataset.step = B.step || "";
}

/** A text's {fields} filled with HTML (the text itself escaped). */
export function fill(text, html) {
  let s = esc(text);
  for (const [k, v] of Object.entries(html)) s = s.split(`{${k}}`).join(v);
  return s;
}

/** Why a purchase this card or plot would offer is missing now (the server's words). */
export function whyNot(key) {
  const why = mine() && !ui.build ? (decide().why || {})[key] : null;
  return why ? `<p class="why-not muted" data-testid="why-${esc(key)}"><small>${esc(why)}</small></p>` : "";
}

export function cardName(code) {
  const all = [...(B.hand || []), ...(B.tech_market || []), ...(B.plot_market || [])];
  const c = all.find((x) => x.code === code);
  return c ? c.name : code;
}

export function turnText(table) {
  use(table);
  if (view.result || view.game.status === "finished") return t("ui.game_over");
  const who = view.game.to_move;
  if (who === null || who === undefined) return t("ui.game_over");
  const step = B.step_name || "";
  if (who === view.seat) return t("ccg.web.your_move", { step });
  if (B.combat && who !== B.combat.attacker) return t("ccg.web.defending", { name: name(who), step });
  return t("ccg.web.waiting", { name: name(who), step });
}
