// The table of a game that brings no module of its own: the seats, the seat's observation as
// the game gives it, and its choices as buttons. A step (a choice that is not a whole move) is
// sent to the server: a hidden one is committed to (its cards show next, binding), one that
// hides nothing comes back expanded, and can be left again.
import { esc, t } from "../common.js";

let T = null;
let view = null;
let opened = []; // the expanded steps that hide nothing, outermost first: {option, choices, reveal}
const $ = (id) => document.getElementById(id);

function use(table) {
  T = table;
  view = table.view;
}

export function onView(table, changed) {
  use(table);
  if (changed) opened = [];
}

export function onExpansion(table, expansion) {
  use(table);
  opened.push(expansion);
}

export function turnText(table) {
  use(table);
  const who = view.game.to_move;
  if (view.game.status === "finished" || who === null || who === undefined) return t("ui.game_over");
  return who === view.seat ? t("ui.your_turn") : t("ui.turn_of", { name: T.name(who) });
}

function label(text) {
  return T.words(text) || text;
}

function show(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

export function render(table) {
  use(table);
  const me = view.seat === null ? t("web.spectator") : t("web.you_are", { name: T.name(view.seat) });
  $("status").innerHTML = `<p class="turn ${T.myTurn() ? "mine" : ""}" data-testid="turn">${esc(turnText(T))}</p>
    <p>${esc(view.game.title)} · ${esc(me)}</p>`;
  const seats = view.game.seats.map((s, i) => {
    const toMove = view.game.to_move === i;
    return `<article class="player ${toMove ? "to-move" : ""} ${i === view.seat ? "me" : ""}" data-testid="player-${i}">
      <h3>${toMove ? `<span class="arrow" aria-label="${esc(t("web.to_move"))}">▶</span> ` : ""}${esc(T.name(i))}</h3></article>`;
  });
  $("players").innerHTML = seats.join("");
  const rows = Object.entries(view.observation).map(([k, v]) => `<tr><th scope="row">${esc(k)}</th><td><code>${esc(show(v))}</code></td></tr>`);
  const mine = $("mine");
  mine.hidden = false;
  mine.innerHTML = `<table class="observation" data-testid="observation"><tbody>${rows.join("")}</tbody></table>`;
  renderActions();
  $("discard").innerHTML = "";
}

function renderActions() {
  const box = $("actions");
  if (!T.myTurn()) {
    const who = view.game.to_move;
    box.hidden = view.seat === null || who === null || who === undefined;
    box.innerHTML = who !== null && who !== undefined ? `<p class="muted">${esc(t("web.waiting_for", { name: T.name(who) }))}</p>` : "";
    return;
  }
  box.hidden = false;
  const p = opened.length ? opened[opened.length - 1] : view.pending;
  const choices = p ? p.choices : view.options;
  let html = "";
  if (p) {
    html += `<p class="sofar">${esc(label(p.option))}</p>`;
    if (p.reveal !== null && p.reveal !== undefined) html += `<p class="reveal" data-testid="reveal">${esc(show(p.reveal))}</p>`;
  }
  html += `<p>${esc(t("web.choose_option"))}</p>`;
  const buttons = choices.map((c, i) => {
    const warn = c.hidden ? ` title="${esc(t("web.reveal_warning"))}"` : "";
    return `<button type="button" class="${c.final ? "choice" : "step"}" data-send="${esc(c.text)}" data-key="choice-${i}"${warn}>${esc(label(c.text))}${c.hidden ? " ⚠" : ""}</button>`;
  });
  if (opened.length) buttons.push(`<button type="button" class="cancel" data-cancel="1" data-key="cancel">${esc(t("web.cancel"))}</button>`);
  html += `<div class="choices" role="group">${buttons.join(" ")}</div>`;
  box.innerHTML = html;
  for (const b of box.querySelectorAll("button")) {
    b.addEventListener("click", () => {
      if (b.dataset.cancel) { opened.pop(); T.render(); } else T.send(b.dataset.send, opened.map((e) => e.option));
    });
  }
}

export function resultHTML(table) {
  use(table);
  const r = view.result;
  const rows = r.scores.map((sc, s) => `<tr class="${r.winners.includes(s) ? "won" : ""}"><th scope="row">${esc(T.name(s))}</th><td>${esc(String(sc))}</td></tr>`);
  return `${r.why ? `<p>${esc(r.why)}</p>` : ""}<table class="scores" data-testid="scores"><thead><tr><th scope="col">${esc(t("ui.seat"))}</th><th scope="col">${esc(t("ui.points"))}</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}
