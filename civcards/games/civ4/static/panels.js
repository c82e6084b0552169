// civ4 at the table: the decision panels (#actions), each composing a move with the engine's
// proposal filled in and sending it with the steps it lies below (the factored choices).
import { esc, t } from "/static/common.js";
import { RES, parseRes, resChips, resIcon, resStr, resText, resWord } from "./symbols.js";
import { $, B, LIMIT, T, draw, cardName, decide, has, mine, name, opened, optionTexts, startsWith, turnText, ui, view } from "./state.js";
import { attackPanel, damagePanel, defendPanel } from "./combat.js";
import { bind, focusActions } from "./events.js";
import { face } from "./faces.js";

export function sendMove(move, steps) {
  submit(move, has(move) ? [] : steps);
}

/** Send a move, unless it ends the game with the seat behind (the server's `ending`,
 * found by the engine): then ask first. */
export function submit(move, steps = []) {
  const end = (decide().ending || {})[move];
  if (end) {
    ui.confirm = { move, steps, end };
    T.render();
    focusActions();
    return;
  }
  T.send(move, steps);
}

export function confirmPanel() {
  const c = ui.confirm;
  return `<section data-testid="ending-warning" role="alertdialog" aria-labelledby="ending-title">
    <h2 id="ending-title">⚠ ${esc(t("ccg.web.ending_title"))}</h2><p>${esc(T.words(c.move) || c.move)}</p>
    <p>${esc(t("ccg.web.ending_warn", { you: c.end.you, name: name(c.end.leader), best: c.end.best }))}</p>
    <div class="choices"><button type="button" class="cancel" data-cancel="1" data-key="cancel">${esc(t("ccg.web.ending_back"))}</button>
    <button type="button" data-go="ending" data-key="go-ending">${esc(t("ccg.web.ending_go"))}</button></div></section>`;
}

export function prefixSteps(head, items, sep) {
  const out = [];
  for (let i = 1; i < items.length; i++) out.push(`${head} ${items.slice(0, i).join(sep)} ?`);
  return out;
}

export function countPayments(cost, sup) {
  let n = 0;
  for (let f = Math.max(0, cost - sup[1] - sup[2]); f <= Math.min(sup[0], cost); f++) {
    const rest = cost - f;
    n += Math.min(sup[1], rest) - Math.max(0, rest - sup[2]) + 1;
  }
  return n;
}

export function comb(n, k) {
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return Math.round(r);
}

export function counter(key, label, value, max, extra = "") {
  return `<span class="counter" role="group" aria-label="${esc(label)}">
    <button type="button" data-dec="${esc(key)}" data-key="dec-${esc(key)}" aria-label="${esc(t("ccg.web.less", { what: label }))}"${value <= 0 ? " disabled" : ""}>−</button>
    <output aria-live="polite" data-testid="count-${esc(key)}">${value}</output>
    <button type="button" data-inc="${esc(key)}" data-key="inc-${esc(key)}" aria-label="${esc(t("ccg.web.plus", { what: label }))}"${value >= max ? " disabled" : ""}>+</button>${extra}</span>`;
}

export function choiceButtons(list, keyPrefix) {
  return list.map((c, i) => `<button type="button" class="${c.final ? "choice" : "step"}" data-send="${esc(c.text)}" data-step="${c.final ? "" : "1"}" data-key="${keyPrefix}-${i}">${esc(T.words(c.text) || c.text)}</button>`).join(" ");
}

export function renderActions() {
  const box = $("actions");
  if (!mine()) {
    const who = view.game.to_move;
    box.hidden = view.result !== null && view.result !== undefined;
    draw(box, who !== null && who !== undefined && !view.result
      ? `<p class="muted" data-testid="waiting">${esc(turnText(T))}</p>` : "");
    return;
  }
  box.hidden = false;
  let html;
  if (ui.confirm) {
    html = confirmPanel();
  } else if (opened.length) {
    const e = opened[opened.length - 1];
    html = `<h2>${esc(T.words(e.option) || e.option)}</h2><div class="choices" role="group">${choiceButtons(e.choices, "open")}
      <button type="button" class="cancel" data-cancel="1" data-key="cancel">${esc(t("web.cancel"))}</button></div>`;
  } else {
    html = panel();
  }
  const rest = view.options.length > 1 && !opened.length && !ui.confirm
    ? `<details class="more" data-testid="more"><summary>${esc(t("ccg.web.more"))} (${view.options.length})</summary>
        <div class="choices" role="group">${choiceButtons(view.options, "opt")}</div></details>` : "";
  const [body, bar] = splitBar(html);
  if (draw(box, `<div data-testid="actions"><div class="a-body">${body}</div>${bar}</div>${rest}`)) bind(box);
}

/** A panel's HTML as its content and its button bar (its last button that sends, or the row
 * holding it), the bar in a box of its own under the content: in a one-screen table the content
 * scrolls above it and the bar never covers it (issue 39). */
export function splitBar(html) {
  const tpl = document.createElement("template");
  tpl.innerHTML = html;
  const last = tpl.content.lastElementChild;
  const isBar = last && (last.matches("button[data-go]") || (last.matches(".choices") && last.querySelector(":scope > button[data-go]")));
  if (!isBar) return [html, ""];
  last.remove();
  return [tpl.innerHTML, `<div class="a-bar">${last.outerHTML}</div>`];
}

export function panel() {
  const step = B.step;
  const d = decide();
  if (step === "draft") {
    const plots = (B.draft || []).map((p) => `<li class="ccard k-plot">${face(p, { level: 3 })}
      ${has(`pick ${p.code}`) ? `<button type="button" class="primary" data-send="pick ${esc(p.code)}" data-key="pick-${esc(p.code)}" aria-label="${esc(t("ccg.move.pick", { plot: p.name }))}">${esc(t("ccg.web.take"))}</button>` : ""}</li>`);
    return `<h2>${esc(t("ccg.web.draft_title"))}</h2><ul class="cards">${plots.join("")}</ul>`;
  }
  if (step === "settle") return `<h2>${esc(t("ccg.web.settle_title"))}</h2><div class="choices">${choiceButtons(view.options, "settlec")}</div>`;
  if (step === "collect") return collectPanel(d);
  if (step === "start_discard" || step === "discard") return discardPanel(d);
  if (step === "purchase") return purchasePanel(d);
  if (step === "walls") return `<h2>${esc(t("ccg.web.walls_title"))}</h2><div class="choices">${choiceButtons(view.options, "walls")}</div>`;
  if (step === "defend") return defendPanel(d);
  if (step === "damage") return damagePanel(d);
  if (step === "place") return placePanel(d);
  return `<div class="choices">${choiceButtons(view.options, "c")}</div>`;
}

// collect: a default assignment, changeable plot by plot
export function collectPanel(d) {
  const plots = d.plots || [];
  if (!ui.collect) {
    ui.collect = {};
    const def = String(d.default || "").split(" ").slice(1);
    for (const w of def) { const [p, l] = w.split("="); ui.collect[p.slice(1)] = l; }
    for (const p of plots) if (!p.letters.includes(ui.collect[p.n])) ui.collect[p.n] = p.letters[0];
  }
  const rows = plots.map((p) => {
    const plot = (B.seats[view.seat].plots || [])[p.n - 1] || { name: "", pop: 0 };
    const opts = p.letters.map((l) => {
      const a = [0, 0, 0];
      for (const ch of l) a[RES.indexOf(ch)] += 1;
      return `<option value="${esc(l)}"${ui.collect[p.n] === l ? " selected" : ""}>${esc(resText(a))}</option>`;
    });
    return `<li><label>${esc(t("ccg.web.collect_plot", { n: p.n, name: plot.name, pop: plot.pop }))}
      <select data-collect="${p.n}" data-key="collect-${p.n}" data-testid="collect-${p.n}">${opts.join("")}</select></label></li>`;
  });
  const move = collectMove(plots);
  return `<h2>${esc(t("ccg.web.collect_title"))}</h2>${rows.length ? `<ul class="rows">${rows.join("")}</ul>` : ""}
    <p class="muted">${esc(T.words(move) || move)}</p>
    <button type="button" class="primary" data-go="collect" data-key="go-collect">${esc(t("ccg.move.collect"))}</button>`;
}

export function collectMove(plots) {
  const terms = plots.map((p) => `p${p.n}=${ui.collect[p.n]}`);
  return ["collect", ...terms].join(" ");
}

export function goCollect() {
  const plots = decide().plots || [];
  const terms = plots.map((p) => `p${p.n}=${ui.collect[p.n]}`);
  sendMove(collectMove(plots), prefixSteps("collect", terms, " "));
}

// discard: choose K cards (the proposal chosen)
export function discardPanel(d) {
  const k = d.k || 0;
  const hand = B.hand || [];
  if (!ui.discard) {
    ui.discard = {};
    for (const c of String(d.default || "").split(" ")[1]?.split(",") || []) ui.discard[c] = (ui.discard[c] || 0) + 1;
  }
  const n = Object.values(ui.discard).reduce((a, b) => a + b, 0);
  const rows = hand.map((c) => `<li>${counter(`discard.${c.code}`, c.name, ui.discard[c.code] || 0, Math.min(c.count, (ui.discard[c.code] || 0) + k - n))}
    <span>${esc(c.name)}${c.count > 1 ? ` ×${c.count}` : ""} <small class="muted">${esc(c.help)}</small></span></li>`);
  return `<h2>${esc(t("ccg.web.discard_title", { k }))}</h2><ul class="rows">${rows.join("")}</ul>
    <p data-testid="chosen">${esc(t("ccg.web.chosen", { n, k }))}</p>
    <button type="button" class="primary" data-go="discard" data-key="go-discard"${n === k ? "" : " disabled"}>${esc(t("ccg.web.discard_go"))}</button>`;
}

export function goDiscard() {
  const list = [];
  for (const code of Object.keys(ui.discard).sort()) for (let i = 0; i < ui.discard[code]; i++) list.push(code);
  sendMove(`discard ${list.join(",")}`, prefixSteps("discard", list, ","));
}

// purchases: the buttons on cards, markets and plots, plus trades, abilities, payment, attack
export function purchasePanel(d) {
  let html = "";
  if (ui.pay) html += payPanel(d);
  else if (ui.build) html += buildPanel();
  else if (ui.attack) html += attackPanel(d);
  else {
    html += `<h2>${esc(t("ccg.step.purchase"))}</h2><p class="muted">${esc(t("ccg.web.purchase_hint"))}</p>`;
    const buttons = [];
    if (has("end")) buttons.push(`<button type="button" class="primary" data-send="end" data-key="end">${esc(t("ccg.move.end"))}</button>`);
    if (has("attack ?") && d.attack) buttons.push(`<button type="button" data-attack="1" data-key="attack">⚔ ${esc(t("ccg.menu.attack"))}…</button>`);
    html += `<div class="choices">${buttons.join(" ")}</div>`;
    const uses = optionTexts().filter((x) => x.startsWith("use "));
    if (uses.length) {
      html += `<h3>${esc(t("ccg.menu.use"))}</h3><div class="choices">${choiceButtons(view.options.filter((o) => o.text.startsWith("use ")), "use")}</div>`;
    }
    const trades = optionTexts().filter((x) => x.startsWith("trade "));
    if (trades.length) {
      const rows = RES.map((r) => {
        const list = trades.filter((x) => x.split(" ")[2] === `1${r}`);
        if (!list.length) return "";
        const bs = list.map((x) => `<button type="button" data-send="${esc(x)}" data-key="${esc(x)}" aria-label="${esc(T.words(x) || x)}">${resChips(parseRes(x.split(" ")[1]))}</button>`);
        return `<div role="group" aria-label="${esc(t("ccg.web.trade_get", { res: resWord(r) }))}">${esc(t("ccg.web.trade_get", { res: resWord(r) }))} ${resChips([r === "F" ? 1 : 0, r === "H" ? 1 : 0, r === "C" ? 1 : 0])} ← ${bs.join(" ")}</div>`;
      });
      html += `<h3>${esc(t("ccg.menu.trade"))}</h3><div class="trades">${rows.join("")}</div>`;
    }
  }
  return html;
}

export function payPanel(d) {
  const code = ui.pay.code;
  const cost = d.plot_cost;
  const sup = B.seats[view.seat].supply;
  const plot = (B.plot_market || []).find((p) => p.code === code) || { name: code };
  const a = ui.pay.a;
  const sum = a[0] + a[1] + a[2];
  const ok = sum === cost && a.every((x, i) => x >= 0 && x <= sup[i]);
  // per resource: a stepper (− +) around the amount, which can also be typed
  const fields = RES.map((r, i) => {
    const max = Math.min(sup[i], cost);
    const word = resWord(r);
    return `<span class="counter" role="group" aria-label="${esc(word)}">
    <button type="button" data-paystep="${i}:-1" data-key="pay-dec-${r}" aria-label="${esc(t("ccg.web.less", { what: word }))}"${a[i] <= 0 ? " disabled" : ""}>−</button>
    <label>${resIcon(r)} <span class="sr-only">${esc(word)}</span>
    <input type="number" inputmode="numeric" min="0" max="${max}" value="${a[i]}" data-payres="${i}" data-key="pay-${r}" data-testid="pay-${r}"></label>
    <button type="button" data-paystep="${i}:1" data-key="pay-inc-${r}" aria-label="${esc(t("ccg.web.plus", { what: word }))}"${a[i] >= max ? " disabled" : ""}>+</button></span>`;
  });
  return `<h2>${esc(t("ccg.web.pay_title", { cost, plot: plot.name }))}</h2>
    <div class="rows paybox" role="group" aria-label="${esc(t("ccg.web.pay_title", { cost, plot: plot.name }))}">${fields.join("")}
    <p data-testid="pay-sum" class="${ok ? "" : "warn"}">${esc(t("ccg.web.pay_sum", { sum, cost }))}</p></div>
    <div class="choices"><button type="button" class="primary" data-go="pay" data-key="go-pay"${ok ? "" : " disabled"}>${esc(t("ccg.web.pay"))}: ${resChips(a)}</button>
    <button type="button" data-go="pay-reset" data-key="pay-reset">${esc(t("ccg.web.proposed"))}</button>
    <button type="button" class="cancel" data-cancel="1" data-key="cancel">${esc(t("web.cancel"))}</button></div>`;
}

export function goPay() {
  const d = decide();
  const code = ui.pay.code;
  const a = ui.pay.a;
  const move = `plot ${code} ${resStr(a)}`;
  const steps = [`plot ${code} ?`];
  if (countPayments(d.plot_cost, B.seats[view.seat].supply) > LIMIT) steps.push(`plot ${code} ${a[0]}F ?`);
  sendMove(move, steps);
}

export function buildPanel() {
  const code = ui.build;
  const list = startsWith(`build ${code}`);
  const plots = [...new Set(list.map((x) => x.split(" ")[2]))];
  const rows = plots.map((p) => {
    const here = view.options.filter((o) => o.text === `build ${code} ${p}` || o.text.startsWith(`build ${code} ${p} `));
    return `<li>${choiceButtons(here, `build-${p}`)}</li>`;
  });
  return `<h2>${esc(t("ccg.web.where_build", { card: cardName(code) }))}</h2><ul class="rows">${rows.join("")}</ul>
    <button type="button" class="cancel" data-cancel="1" data-key="cancel">${esc(t("web.cancel"))}</button>`;
}

// placing stolen population
export function placePanel(d) {
  const k = d.k || 0;
  const me = B.seats[view.seat];
  if (!ui.place) {
    ui.place = {};
    for (const p of String(d.default || "").split(" ")[1]?.split(",") || []) ui.place[p.slice(1)] = (ui.place[p.slice(1)] || 0) + 1;
  }
  const n = Object.values(ui.place).reduce((a, b) => a + b, 0);
  const rows = me.plots.map((p) => {
    const v = ui.place[p.n] || 0;
    const label = t("ccg.web.collect_plot", { n: p.n, name: p.name, pop: p.pop });
    return `<li>${counter(`place.${p.n}`, label, v, v + k - n)} <span>${esc(label)}</span></li>`;
  });
  return `<h2>${esc(t("ccg.web.place_title", { k }))}</h2><ul class="rows">${rows.join("")}</ul>
    <p data-testid="chosen">${esc(t("ccg.web.chosen", { n, k }))}</p>
    <button type="button" class="primary" data-go="place" data-key="go-place"${n === k ? "" : " disabled"}>${esc(t("ccg.menu.place"))}</button>`;
}

export function goPlace() {
  const list = [];
  for (const n of Object.keys(ui.place).map(Number).sort((a, b) => a - b)) for (let i = 0; i < ui.place[n]; i++) list.push(`p${n}`);
  sendMove(`place ${list.join(",")}`, prefixSteps("place", list, ","));
}
