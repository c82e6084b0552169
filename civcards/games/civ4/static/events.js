// civ4 at the table: the clicks and changes on the board and the panels (every room's
// controls carry data-* attributes read here).
import { parseRes } from "./symbols.js";
import { B, T, decide, fullBoards, opened, startsWith, ui, view } from "./state.js";
import { goCollect, goDiscard, goPay, goPlace, submit } from "./panels.js";
import { goAttack, goDamage, goDefend, pickUnit, sendTo } from "./combat.js";

export function adjust(key, delta) {
  const [kind, a, b] = key.split(".");
  if (kind === "discard") ui.discard[a] = Math.max(0, (ui.discard[a] || 0) + delta);
  else if (kind === "steal") ui.damage.steal[a] = Math.max(0, (ui.damage.steal[a] || 0) + delta);
  else if (kind === "place") ui.place[a] = Math.max(0, (ui.place[a] || 0) + delta);
  else if (kind === "attack") {
    ui.attack[a] = ui.attack[a] || {};
    ui.attack[a][b] = Math.max(0, (ui.attack[a][b] || 0) + delta);
  }
  T.render();
}

export function bind(box) {
  for (const b of box.querySelectorAll("button")) {
    b.addEventListener("click", () => onClick(b));
  }
  for (const s of box.querySelectorAll("select[data-collect]")) {
    s.addEventListener("change", () => { ui.collect[s.dataset.collect] = s.value; T.render(); });
  }
  for (const s of box.querySelectorAll("select[data-defend]")) {
    s.addEventListener("change", () => { ui.defend[Number(s.dataset.defend)] = s.value; T.render(); });
  }
  for (const c of box.querySelectorAll("input[data-destroy]")) {
    c.addEventListener("change", () => {
      if (c.checked) ui.damage.destroy.add(c.dataset.destroy); else ui.damage.destroy.delete(c.dataset.destroy);
      T.render();
    });
  }
  // the objects are controls too: a card or a plot with one thing to do does it when clicked
  // (a market's plot: buy it, the payment opening); with several, its buttons are shown
  // (an opponent's board, during an attack: the chosen units sent against it)
  for (const c of box.querySelectorAll("li.ccard, li.plot, article.c4-empire.targetable")) {
    const acts = [...c.querySelectorAll(":scope > button:not([disabled])")];
    if (!acts.length) continue;
    c.classList.add("actable");
    c.addEventListener("click", (e) => {
      if (e.target.closest("button, a, input, select, label, summary")) return;
      const inner = e.target.closest(".actable");
      if (inner && inner !== c) return; // a card or plot inside it acts for itself
      if (acts.length === 1) { acts[0].click(); return; }
      for (const o of document.querySelectorAll(".c4 .chosen")) o.classList.remove("chosen");
      c.classList.add("chosen");
      acts[0].focus();
    });
  }
  for (const i of box.querySelectorAll("input[data-payres]")) {
    i.addEventListener("change", () => { ui.pay.a[Number(i.dataset.payres)] = Math.max(0, Math.floor(Number(i.value) || 0)); T.render(); });
  }
}

export function onClick(b) {
  const ds = b.dataset;
  if (ds.cancel) {
    if (ui.confirm) ui.confirm = null;
    else if (opened.length) opened.pop();
    else { ui.pay = null; ui.build = null; ui.attack = null; }
    T.render();
  } else if (ds.board) {
    const s = Number(ds.board);
    if (fullBoards.has(s)) fullBoards.delete(s); else fullBoards.add(s);
    T.render();
  } else if (ds.send) {
    if (ds.step) T.send(ds.send, opened.map((e) => e.option));
    else submit(ds.send, opened.map((e) => e.option));
  } else if (ds.dec) adjust(ds.dec, -1);
  else if (ds.inc) adjust(ds.inc, 1);
  else if (ds.paystep) {
    const [i, d] = ds.paystep.split(":").map(Number);
    const max = Math.min(B.seats[view.seat].supply[i], decide().plot_cost);
    ui.pay.a[i] = Math.max(0, Math.min(max, ui.pay.a[i] + d));
    T.render();
  } else if (ds.pay) {
    const def = (decide().plot_pay || {})[ds.pay];
    ui.pay = { code: ds.pay, a: def ? parseRes(def) : [0, 0, 0] };
    ui.build = null; ui.attack = null;
    T.render();
    focusActions();
  } else if (ds.buildCard) {
    ui.build = ds.buildCard; ui.pay = null; ui.attack = null;
    T.render();
    focusActions();
  } else if (ds.build) {
    const here = startsWith(`build ${ui.build} p${ds.build}`);
    if (here.length === 1) submit(here[0]);
    else { ui.build = ui.build; T.render(); focusActions(); }
  } else if (ds.pick) {
    pickUnit(ds.pick);
    T.render();
  } else if (ds.target) {
    sendTo(Number(ds.target));
    T.render();
    focusActions();
  } else if (ds.attack) {
    ui.attack = {}; ui.pick = {}; ui.pay = null; ui.build = null;
    T.render();
    focusActions();
  } else if (ds.go === "collect") goCollect();
  else if (ds.go === "discard") goDiscard();
  else if (ds.go === "pay") goPay();
  else if (ds.go === "pay-reset") {
    const def = (decide().plot_pay || {})[ui.pay.code];
    ui.pay.a = def ? parseRes(def) : [0, 0, 0];
    T.render();
  } else if (ds.go === "attack") goAttack();
  else if (ds.go === "defend") goDefend();
  else if (ds.go === "damage") goDamage();
  else if (ds.go === "place") goPlace();
  else if (ds.go === "ending") {
    const c = ui.confirm;
    ui.confirm = null;
    T.send(c.move, c.steps);
  }
}

export function focusActions() {
  const first = document.querySelector("#actions button, #actions input, #actions select");
  if (first) first.focus();
}
