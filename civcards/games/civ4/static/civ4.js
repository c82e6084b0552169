// Civilization: The Card Game at the table. The board comes from the server's civ4 view (view.board:
// civcards/games/civ4/web.py), every decision is taken by pointing: a move is composed from the
// seat's own panel (a collect, a payment, blocks…) with the engine's proposal filled in, and sent
// with the steps it lies below (the factored choices: docs/civ4.md). Anything else the seat may do
// is also offered as a plain choice ("Other choices"), and a step is expanded through the server.
// The shell (table.js) calls render, turnText, onView, onExpansion, resultHTML, guide and cue.
// This module is the entry only: the rooms it draws with are named in state.js.
import { esc, t } from "/static/common.js";
import { guideFor } from "./guide.js";
import { renderMine, renderPlayers, renderSide, renderStatus } from "./board.js";
import { renderActions } from "./panels.js";
import { $, B, decide, mine, name, opened, reset, turnText as turnWords, ui, use, view } from "./state.js";

// (the game's style sheet comes with faces.js, which board.js imports)

// -- what the shell calls --

export function onView(table, changed) {
  use(table);
  if (changed) reset();
}

export function onExpansion(table, expansion) {
  use(table);
  opened.push(expansion);
}

export function turnText(table) {
  return turnWords(table);
}

// the regions, in the order they are drawn (the actions first: the boards show what the panel
// composes)
const REGIONS = [["actions", renderActions], ["status", renderStatus], ["players", renderPlayers], ["mine", renderMine], ["discard", renderSide]];

export function render(table) {
  use(table);
  // the region that holds the focus before the others: a redraw that takes the focused control
  // away makes the browser lay the page out there and then, which costs little while nothing
  // else is written yet (after the boards' writes, 7 to 18 ms: issue 39's update time)
  const f = document.activeElement;
  const holds = ([id]) => Number(!!f && !!$(id) && $(id).contains(f));
  for (const [, draw] of [...REGIONS].sort((a, b) => holds(b) - holds(a))) draw();
}

// -- the result: who won and why, every seat's VP and tie-break counts --

export function resultHTML(table) {
  use(table);
  const r = view.result;
  const rows = (B.seats || []).map((e) => `<tr class="${r.winners.includes(e.seat) ? "won" : ""}"><th scope="row">${esc(name(e.seat))}</th>
    <td>${e.vp}</td><td>${e.tiebreak.techs}</td><td>${e.tiebreak.pop}</td><td>${e.tiebreak.wonders}</td></tr>`);
  return `${r.why ? `<p>${esc(r.why)}</p>` : ""}
    <table class="scores" data-testid="scores"><caption>${esc(t("ccg.result.scores"))}</caption>
    <thead><tr><th scope="col">${esc(t("ui.seat"))}</th><th scope="col">♛ ${esc(t("ccg.web.vp"))}</th><th scope="col">${esc(t("ccg.target.tech"))}</th>
    <th scope="col">${esc(t("ccg.target.population"))}</th><th scope="col">${esc(t("ccg.target.wonder"))}</th></tr></thead>
    <tbody>${rows.join("")}</tbody></table><p class="muted">${esc(r.tiebreak || "")}</p>`;
}

// -- the guided mode: the control to use next, and one line on it (guide.js) --

export function guide(table) {
  use(table);
  if (!mine()) return null;
  return guideFor({ step: B.step, d: decide(), ui, opened: opened.length > 0 });
}

// -- the region a decision needs (table.js: on a phone its tab opens once for the decision) --

/** {region, key} when the seat's decision is taken on the boards (#players): the plot where a
 * card is built or the empire is settled; else null. */
export function wants(table) {
  use(table);
  if (!mine() || ui.confirm) return null;
  if (ui.build) return { region: "players", key: `${view.move_number} build ${ui.build}` };
  if (B.step === "settle") return { region: "players", key: `${view.move_number} settle` };
  return null;
}

// -- the cue: what the shell may mark with a sound (table.js calls game.cue?.(table)) --

/** "attacked" when this seat must now answer an attack (C42: its walls, C43: its blocks),
 * else null. */
export function cue(table) {
  use(table);
  const c = B.combat;
  if (!c || !mine() || c.attacker === view.seat) return null;
  return B.step === "walls" || B.step === "defend" ? "attacked" : null;
}
