// Civilization: The Card Game at the table. The board comes from the server's civ4 view (view.board:
// civcards/games/civ4/web.py), every decision is taken by pointing: a move is composed from the
// seat's own panel (a collect, a payment, blocks…) with the engine's proposal filled in, and sent
// with the steps it lies below (the factored choices: docs/civ4.md). Anything else the seat may do
// is also offered as a plain choice ("Other choices"), and a step is expanded through the server.
// The shell (table.js) calls render, turnText, onView, onExpansion and resultHTML.
import { esc, t } from "/static/common.js";
import { guideFor } from "./guide.js";
import {
  PERSON, RES, icons, parseRes, popIcons, resChips, resIcon, resStr, resText, resWord, supplyChips,
} from "./symbols.js";

let T = null; // the table (the shell's object)
let view = null;
let B = null; // view.board
let ui = {}; // what the seat is composing (reset with each new position)
let opened = []; // expanded steps (a build's free population, a Code of Laws…), outermost first
const $ = (id) => document.getElementById(id);
const LIMIT = 64; // the engine offers decisions of at most this many moves whole (choices.py)

if (!document.querySelector("link[data-c4]")) {
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = "/static/games/civ4/civ4.css";
  link.dataset.c4 = "1";
  document.head.appendChild(link);
}

function use(table) {
  T = table;
  view = table.view;
  B = view.board || {};
  const root = document.getElementById("table");
  root.classList.add("c4");
  root.dataset.step = B.step || "";
}

const name = (s) => T.name(s);
const optionTexts = () => (view.options || []).map((o) => o.text);
const has = (text) => optionTexts().includes(text);
const startsWith = (prefix) => optionTexts().filter((x) => x === prefix || x.startsWith(`${prefix} `));
const mine = () => T.myTurn() && !view.result;
const decide = () => B.decide || {};

// -- what the shell calls --

export function onView(table, changed) {
  use(table);
  if (changed) { ui = {}; opened = []; }
}

export function onExpansion(table, expansion) {
  use(table);
  opened.push(expansion);
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

export function render(table) {
  use(table);
  renderStatus();
  renderPlayers();
  renderMine();
  renderActions();
  renderSide();
}

// -- the status: whose turn, the statuses and why, the combat, about this game --

function renderStatus() {
  const me = view.seat === null ? t("web.spectator") : t("web.you_are", { name: name(view.seat) });
  const st = B.status || {};
  const statusItems = ["culture", "happiness"].map((k) => {
    const s = st[k];
    if (!s) return "";
    const label = t(`ccg.web.highest_${k}`);
    const who = s.holder === null ? t("ccg.nobody") : name(s.holder);
    return `<li data-testid="status-${k}" data-tip="${esc(s.effect)}"><strong>★ ${esc(label)}: ${esc(who)}</strong> — ${esc(s.why)}. <span class="muted">${esc(s.effect)}.</span></li>`;
  }).join("");
  // each variant by its words (the lobby's), else its name; a value (a card set) as it is
  const optWords = (o) => { const k = `ccg.web.opt.${o.name}`; return t(k) === k ? o.name : t(k); };
  // (the card set is named with the reconstructed mark, not among the variants)
  const variants = (B.options || []).filter((o) => o.name !== "cards")
    .map((o) => (o.value === true ? optWords(o) : `${optWords(o)}: ${o.value}`));
  const used = B.used && B.used.length ? `<p>${esc(t("ccg.web.used", { cards: B.used.join(", ") }))}</p>` : "";
  const steals = (B.steals || []).slice(-2).map((s) => `<p class="muted">✋ ${esc(t("ccg.web.stolen_you", { thief: name(s.thief), card: s.card, victim: name(s.victim) }))}</p>`).join("");
  $("status").innerHTML = `
    <p class="turn ${T.myTurn() ? "mine" : ""}" data-testid="turn">${esc(turnText(T))}</p>
    <p>${esc(view.game.title)} · ${esc(me)} · ${esc(t("ccg.round", { n: B.round || 0 }))}</p>
    <p class="c4-note" data-testid="reconstructed">⚠ ${esc(B.reconstructed || "")}</p>
    ${renderCombat()}
    <ul class="statuses" aria-label="${esc(t("ccg.web.statuses"))}">${statusItems}</ul>
    ${used}${steals}
    <details data-testid="about"><summary>${esc(t("ccg.web.about"))}</summary>
      <p>${esc(t("ccg.web.about_text"))}</p><p><strong>${esc(B.reconstructed || "")}</strong></p>
      ${variants.length ? `<p>${esc(t("ccg.web.variants", { list: variants.join(", ") }))}</p>` : ""}
      <p class="muted">${esc(t("ccg.web.legend"))}</p><p class="muted">${esc(t("ccg.result.tiebreak"))}</p></details>`;
}

/** A text's {fields} filled with HTML (the text itself escaped). */
function fill(text, html) {
  let s = esc(text);
  for (const [k, v] of Object.entries(html)) s = s.split(`{${k}}`).join(v);
  return s;
}

function renderCombat() {
  const c = B.combat;
  if (!c) return "";
  const rows = c.defenders.map((d) => {
    // each unit explains itself (its card's text), as the cards elsewhere on the table do
    const units = c.units.filter((u) => u.defender === d).map((u) => `<span class="unit" data-testid="combat-unit" data-tip="${esc(u.help || u.name)}">${esc(u.name)} (${esc(u.state_name)})</span>`).join(", ");
    return `<li>${fill(t("ccg.combat_against"), { seat: esc(name(d)), units })}</li>`;
  });
  if (c.blocks.length) {
    const tip = (n, h) => `<span class="unit" data-testid="combat-unit" data-tip="${esc(h || n)}">${esc(n)}</span>`;
    const blocks = c.blocks.map((b) => `${esc(name(b.defender))}: ${fill(t("ccg.move.block"), { attacker: tip(b.attacker, b.attacker_help), blocker: tip(b.blocker, b.blocker_help) })}`).join("; ");
    rows.push(`<li>${fill(t("ccg.combat_blocks"), { blocks })}</li>`);
  }
  if (c.stolen) rows.push(`<li>${esc(t("ccg.combat_stolen", { n: c.stolen }))}</li>`);
  return `<section class="combat" data-testid="combat" aria-label="${esc(t("ccg.web.combat_title"))}">
    <h3>⚔ ${esc(t("ccg.combat", { attacker: name(c.attacker) }))}</h3><ul>${rows.join("")}</ul></section>`;
}

// -- the empires: yours in full, the others compact --

function plotCard(e, p, compact) {
  const s = e.seat;
  const cards = p.cards.map((c) => `<li class="${esc(c.kind)}" data-tip="${esc(c.help)}">${esc(c.name)} ${icons(c)}${compact ? "" : `<br><small>${esc(c.help)}</small>`}</li>`);
  for (let i = 0; i < p.free; i++) cards.push(`<li class="free">○ ${esc(t("ccg.web.free_n", { n: 1 }))}</li>`);
  const label = t("ccg.web.plot_label", {
    n: p.n, name: p.name, res: resText(p.yields), pop: p.pop,
    cards: p.cards.length ? p.cards.map((c) => c.name).join(", ") : t("ccg.web.no_buildings"), free: p.free,
  });
  let button = "";
  if (s === view.seat && mine()) {
    if (ui.build) {
      const here = startsWith(`build ${ui.build} p${p.n}`);
      if (here.length) button = `<button type="button" class="primary" data-build="${p.n}" data-key="build-at-${p.n}" aria-label="${esc(t("ccg.move.build", { card: cardName(ui.build), n: p.n }))}">${esc(t("ccg.menu.build"))}</button>`;
    } else if (has(`pop p${p.n}`)) {
      button = `<button type="button" data-send="pop p${p.n}" data-key="pop-${p.n}" aria-label="${esc(t("ccg.web.add_pop", { n: p.n, cost: p.pop_cost }))}">+${PERSON.replace("<svg", '<svg width="14" height="14"')} ${resChips([p.pop_cost, 0, 0])}</button>`;
    } else if (has(`settle p${p.n}`)) {
      button = `<button type="button" class="primary" data-send="settle p${p.n}" data-key="settle-${p.n}" aria-label="${esc(t("ccg.move.settle", { n: p.n }))}">${esc(t("ccg.web.place_here"))}</button>`;
    } else {
      button = whyNot(`pop-${p.n}`);
    }
  }
  return `<li class="plot k-plot" aria-label="${esc(label)}" data-testid="plot-${s}-${p.n}">
    <h4 data-tip="${esc(p.help)}"><span class="num">${p.n}</span> ${esc(p.name)} ${resChips(p.yields)}</h4>
    <div>${popIcons(p.pop)}</div>
    <ul class="on">${cards.join("")}</ul>${button}</li>`;
}

/** Why a purchase this card or plot would offer is missing now (the server's words). */
function whyNot(key) {
  const why = mine() && !ui.build ? (decide().why || {})[key] : null;
  return why ? `<p class="why-not muted" data-testid="why-${esc(key)}"><small>${esc(why)}</small></p>` : "";
}

function cardName(code) {
  const all = [...(B.hand || []), ...(B.tech_market || []), ...(B.plot_market || [])];
  const c = all.find((x) => x.code === code);
  return c ? c.name : code;
}

function botLabel(bot) {
  const key = `web.bot_${bot}`;
  const s = t(key);
  return s === key ? bot : s;
}

function empireHTML(e, compact) {
  const s = e.seat;
  const info = view.game.seats[s] || {};
  const tags = [];
  if (s === view.seat) tags.push(t("ui.you"));
  if (info.kind === "bot") tags.push(botLabel((info.bot || "").split(":")[0]));
  else if (!info.joined) tags.push(t("web.not_joined"));
  const toMove = B.to_move === s;
  const st = B.status || {};
  const stars = [];
  if (st.culture && st.culture.holder === s) stars.push(`★ ${t("ccg.web.highest_culture")}`);
  if (st.happiness && st.happiness.holder === s) stars.push(`★ ${t("ccg.web.highest_happiness")}`);
  const tb = e.tiebreak;
  const vpText = t("ccg.web.vp_line", { vp: e.vp, techs: tb.techs, pop: tb.pop, wonders: tb.wonders });
  const title = s === view.seat ? t("ccg.web.your_empire") : t("ccg.web.empire_of", { name: name(s) });
  const techs = e.techs.length
    ? e.techs.map((c) => `<span data-tip="${esc(c.help)}">${esc(c.name)} <small>(${esc(c.era)})</small></span>`).join(", ")
    : esc(t("ccg.none"));
  return `<article class="player c4-empire ${compact ? "compact" : ""} ${toMove ? "to-move" : ""} ${s === view.seat ? "me" : ""}" aria-label="${esc(title)}" data-testid="player-${s}">
    <h3>${toMove ? `<span class="arrow" aria-label="${esc(t("web.to_move"))}">▶</span> ` : ""}${esc(name(s))} <small>${esc(tags.join(" · "))}</small>
      <span class="vp" data-testid="vp-${s}">♛ ${esc(vpText)}</span></h3>
    <div class="supply" data-testid="supply-${s}"><strong>${esc(t("ccg.web.supply"))}:</strong> ${supplyChips(e.supply)}
      <span>🂠 ${esc(t("ccg.hand_n", { n: e.hand }))}</span>
      <span class="cul">♪ ${esc(t("ccg.culture_n", { n: e.culture }))}</span>
      <span class="hap">☺ ${esc(t("ccg.happiness_n", { n: e.happiness }))}</span>
      ${stars.length ? `<strong>${esc(stars.join(" · "))}</strong>` : ""}</div>
    <p class="techs"><strong>${esc(t("ccg.web.techs"))}:</strong> ${techs}</p>
    <ul class="plots" aria-label="${esc(t("ccg.web.plots"))}">${e.plots.map((p) => plotCard(e, p, compact)).join("")}</ul>
  </article>`;
}

function renderPlayers() {
  const seats = B.seats || [];
  const order = view.seat === null ? seats : [seats[view.seat], ...seats.filter((e) => e.seat !== view.seat)];
  $("players").innerHTML = order.map((e) => empireHTML(e, view.seat !== null && e.seat !== view.seat)).join("");
  bind($("players"));
}

// -- markets and your hand --

function marketsHTML() {
  const p = B.piles || {};
  const plots = (B.plot_market || []).map((c) => {
    const can = mine() && startsWith(`plot ${c.code}`).length > 0;
    const btn = can ? `<button type="button" data-pay="${esc(c.code)}" data-key="buy-plot-${esc(c.code)}" aria-label="${esc(t("ccg.web.buy_plot", { name: c.name, cost: c.cost }))}">${esc(t("ccg.web.buy_plot_btn", { cost: c.cost }))}</button>` : whyNot(`plot-${c.code}`);
    return `<li class="ccard k-plot ${ui.pay && ui.pay.code === c.code ? "selected" : ""}" data-testid="market-plot-${esc(c.code)}"><h4 data-tip="${esc(c.help)}">${esc(c.name)} ${resChips(c.yields)}</h4>${btn}</li>`;
  });
  const techs = (B.tech_market || []).map((c) => {
    const can = mine() && has(`tech ${c.code}`);
    const cost = c.now === null || c.now === undefined ? c.cost : c.now;
    const costText = cost !== c.cost ? t("ccg.web.cost_now", { now: cost, base: c.cost }) : t("ccg.cost", { cost });
    const btn = can ? `<button type="button" data-send="tech ${esc(c.code)}" data-key="buy-tech-${esc(c.code)}" aria-label="${esc(t("ccg.web.buy_tech", { name: c.name, cost }))}">${esc(t("ccg.web.buy"))} ${resChips([0, 0, cost])}</button>` : whyNot(`tech-${c.code}`);
    return `<li class="ccard k-tech" data-testid="market-tech-${esc(c.code)}"><h4 data-tip="${esc(c.help)}">${esc(c.name)} <small>${esc(t("ccg.web.era", { era: c.era }))}</small></h4>
      <div class="meta">${esc(costText)} ${resChips([0, 0, cost])} ${icons(c)}</div><p class="help">${esc(c.help)}</p>${btn}</li>`;
  });
  const piles = t("ccg.piles", { plots: p.plots, techs: p.techs, era: p.era || t("ccg.none"), deck: p.deck, discard: p.discard, pop: p.population });
  return `<section aria-labelledby="c4-markets"><h2 id="c4-markets">${esc(t("ccg.web.markets"))}</h2>
    <h3>${esc(t("ccg.plot_market_plain"))}</h3><ul class="cards">${plots.join("") || `<li class="muted">${esc(t("ccg.none"))}</li>`}</ul>
    <h3>${esc(t("ccg.tech_market"))}</h3><ul class="cards">${techs.join("") || `<li class="muted">${esc(t("ccg.none"))}</li>`}</ul>
    <p class="muted" data-testid="piles">${esc(piles)}</p></section>`;
}

function handHTML() {
  const hand = B.hand || [];
  const n = hand.reduce((a, c) => a + c.count, 0);
  const cards = hand.map((c) => {
    const buttons = [];
    if (mine() && has(`cash ${c.code}`)) {
      buttons.push(`<button type="button" data-send="cash ${esc(c.code)}" data-key="cash-${esc(c.code)}" aria-label="${esc(t("ccg.move.cash", { card: c.name, res: resText(c.res) }))}">${esc(t("ccg.web.cash"))} +${resChips(c.res)}</button>`);
    }
    if (mine() && startsWith(`build ${c.code}`).length) {
      buttons.push(`<button type="button" data-build-card="${esc(c.code)}" data-key="build-${esc(c.code)}" aria-label="${esc(t("ccg.web.build_label", { card: c.name }))}">${esc(t("ccg.web.build"))}</button>`);
    } else if (c.kind !== "unit") buttons.push(whyNot(`build-${c.code}`));
    const cost = c.now === null || c.now === undefined ? "" : (c.now !== c.cost ? t("ccg.web.cost_now", { now: c.now, base: c.cost }) : t("ccg.cost", { cost: c.now }));
    return `<li class="ccard k-${esc(c.kind)} ${ui.build === c.code ? "selected" : ""}" data-testid="hand-${esc(c.code)}">
      <h4 aria-level="3" data-tip="${esc(c.help)}">${esc(c.name)}${c.count > 1 ? ` ×${c.count}` : ""} <small>${esc(c.kind_name)}</small></h4>
      <div class="meta">${cost ? `${esc(cost)} ${resChips([0, c.now, 0])}` : ""} ${icons(c)}
        <span>${esc(t("ccg.cash_value", { res: "" }).trim())} ${resChips(c.res)}</span></div>
      <p class="help">${esc(c.help)}</p>${buttons.join(" ")}</li>`;
  });
  return `<section aria-labelledby="hand-title"><h2 id="hand-title">${esc(t("ui.your_hand"))} <small>(${n})</small></h2>
    ${n ? `<ul class="cards" data-testid="hand">${cards.join("")}</ul>` : `<p class="muted">${esc(t("ccg.web.hand_empty"))}</p>`}</section>`;
}

function renderMine() {
  const box = $("mine");
  box.hidden = false;
  box.innerHTML = (view.seat !== null ? handHTML() : "") + marketsHTML();
  bind(box);
}

function renderSide() {
  const d = B.discard || [];
  const open = $("discard").querySelector("details")?.open ? " open" : "";
  const n = d.reduce((a, c) => a + c.count, 0);
  $("discard").innerHTML = `<details${open} data-testid="discard"><summary>${esc(t("ccg.web.discard_pile", { n }))}</summary>
    ${n ? `<ul>${d.map((c) => `<li data-tip="${esc(c.help)}">${esc(c.name)} × ${c.count}</li>`).join("")}</ul>` : `<p class="muted">${esc(t("ui.empty"))}</p>`}</details>
    <p class="muted">${esc(t("ccg.web.legend"))}</p>`;
}

// -- sending a composed move with the steps it lies below --

function sendMove(move, steps) {
  submit(move, has(move) ? [] : steps);
}

/** Send a move, unless it ends the game with the seat behind (the server's `ending`,
 * found by the engine): then ask first. */
function submit(move, steps = []) {
  const end = (decide().ending || {})[move];
  if (end) {
    ui.confirm = { move, steps, end };
    T.render();
    focusActions();
    return;
  }
  T.send(move, steps);
}

function confirmPanel() {
  const c = ui.confirm;
  return `<section data-testid="ending-warning" role="alertdialog" aria-labelledby="ending-title">
    <h2 id="ending-title">⚠ ${esc(t("ccg.web.ending_title"))}</h2><p>${esc(T.words(c.move) || c.move)}</p>
    <p>${esc(t("ccg.web.ending_warn", { you: c.end.you, name: name(c.end.leader), best: c.end.best }))}</p>
    <div class="choices"><button type="button" class="cancel" data-cancel="1" data-key="cancel">${esc(t("ccg.web.ending_back"))}</button>
    <button type="button" data-go="ending" data-key="go-ending">${esc(t("ccg.web.ending_go"))}</button></div></section>`;
}

function prefixSteps(head, items, sep) {
  const out = [];
  for (let i = 1; i < items.length; i++) out.push(`${head} ${items.slice(0, i).join(sep)} ?`);
  return out;
}

function countPayments(cost, sup) {
  let n = 0;
  for (let f = Math.max(0, cost - sup[1] - sup[2]); f <= Math.min(sup[0], cost); f++) {
    const rest = cost - f;
    n += Math.min(sup[1], rest) - Math.max(0, rest - sup[2]) + 1;
  }
  return n;
}

function comb(n, k) {
  let r = 1;
  for (let i = 0; i < k; i++) r = (r * (n - i)) / (i + 1);
  return Math.round(r);
}

// -- the actions panel --

function counter(key, label, value, max, extra = "") {
  return `<span class="counter" role="group" aria-label="${esc(label)}">
    <button type="button" data-dec="${esc(key)}" data-key="dec-${esc(key)}" aria-label="${esc(t("ccg.web.less", { what: label }))}"${value <= 0 ? " disabled" : ""}>−</button>
    <output aria-live="polite" data-testid="count-${esc(key)}">${value}</output>
    <button type="button" data-inc="${esc(key)}" data-key="inc-${esc(key)}" aria-label="${esc(t("ccg.web.plus", { what: label }))}"${value >= max ? " disabled" : ""}>+</button>${extra}</span>`;
}

function choiceButtons(list, keyPrefix) {
  return list.map((c, i) => `<button type="button" class="${c.final ? "choice" : "step"}" data-send="${esc(c.text)}" data-step="${c.final ? "" : "1"}" data-key="${keyPrefix}-${i}">${esc(T.words(c.text) || c.text)}</button>`).join(" ");
}

function renderActions() {
  const box = $("actions");
  if (!mine()) {
    const who = view.game.to_move;
    box.hidden = view.result !== null && view.result !== undefined;
    box.innerHTML = who !== null && who !== undefined && !view.result
      ? `<p class="muted" data-testid="waiting">${esc(turnText(T))}</p>` : "";
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
  box.innerHTML = `<div data-testid="actions">${html}</div>${rest}`;
  bind(box);
}

function panel() {
  const step = B.step;
  const d = decide();
  if (step === "draft") {
    const plots = (B.draft || []).map((p) => `<li class="ccard"><h4 aria-level="3" data-tip="${esc(p.help)}">${esc(p.name)} ${resChips(p.yields)}</h4>
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
function collectPanel(d) {
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

function collectMove(plots) {
  const terms = plots.map((p) => `p${p.n}=${ui.collect[p.n]}`);
  return ["collect", ...terms].join(" ");
}

function goCollect() {
  const plots = decide().plots || [];
  const terms = plots.map((p) => `p${p.n}=${ui.collect[p.n]}`);
  sendMove(collectMove(plots), prefixSteps("collect", terms, " "));
}

// discard: choose K cards (the proposal chosen)
function discardPanel(d) {
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

function goDiscard() {
  const list = [];
  for (const code of Object.keys(ui.discard).sort()) for (let i = 0; i < ui.discard[code]; i++) list.push(code);
  sendMove(`discard ${list.join(",")}`, prefixSteps("discard", list, ","));
}

// purchases: the buttons on cards, markets and plots, plus trades, abilities, payment, attack
function purchasePanel(d) {
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

function payPanel(d) {
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
    <div class="rows paybox" role="group" aria-label="${esc(t("ccg.web.pay_title", { cost, plot: plot.name }))}">${fields.join("")}</div>
    <p data-testid="pay-sum" class="${ok ? "" : "warn"}">${esc(t("ccg.web.pay_sum", { sum, cost }))}</p>
    <div class="choices"><button type="button" class="primary" data-go="pay" data-key="go-pay"${ok ? "" : " disabled"}>${esc(t("ccg.web.pay"))}: ${resChips(a)}</button>
    <button type="button" data-go="pay-reset" data-key="pay-reset">${esc(t("ccg.web.proposed"))}</button>
    <button type="button" class="cancel" data-cancel="1" data-key="cancel">${esc(t("web.cancel"))}</button></div>`;
}

function goPay() {
  const d = decide();
  const code = ui.pay.code;
  const a = ui.pay.a;
  const move = `plot ${code} ${resStr(a)}`;
  const steps = [`plot ${code} ?`];
  if (countPayments(d.plot_cost, B.seats[view.seat].supply) > LIMIT) steps.push(`plot ${code} ${a[0]}F ?`);
  sendMove(move, steps);
}

function buildPanel() {
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

function attackPanel(d) {
  const units = d.attack.units; // [[code, count]]
  const adj = d.attack.adjacent;
  const a = ui.attack;
  const used = (code) => adj.reduce((s, v) => s + ((a[v] || {})[code] || 0), 0);
  const hand = B.hand || [];
  const nameOf = (code) => (hand.find((c) => c.code === code) || { name: code }).name;
  const groups = adj.map((v) => {
    const rows = units.map(([code, k]) => {
      const val = (a[v] || {})[code] || 0;
      return `<li>${counter(`attack.${v}.${code}`, `${nameOf(code)} → ${name(v)}`, val, val + k - used(code))} <span>${esc(nameOf(code))}</span></li>`;
    });
    return `<fieldset><legend>${esc(t("ccg.web.units_to", { name: name(v) }))}</legend><ul class="rows">${rows.join("")}</ul></fieldset>`;
  });
  const move = attackMove();
  return `<h2>${esc(t("ccg.web.attack_title"))}</h2>${groups.join("")}
    ${move ? `<p class="muted">${esc(T.words(move) || move)}</p>` : ""}
    <div class="choices"><button type="button" class="primary" data-go="attack" data-key="go-attack"${move ? "" : " disabled"}>⚔ ${esc(t("ccg.menu.attack"))}</button>
    <button type="button" class="cancel" data-cancel="1" data-key="cancel">${esc(t("web.cancel"))}</button></div>`;
}

function attackParts() {
  const a = ui.attack || {};
  const out = [];
  for (const v of Object.keys(a).map(Number).sort((x, y) => x - y)) {
    const list = [];
    for (const code of Object.keys(a[v]).sort()) for (let i = 0; i < a[v][code]; i++) list.push(code);
    if (list.length) out.push([v, list.join(",")]);
  }
  return out;
}

function attackMove() {
  const parts = attackParts();
  return parts.length ? `attack ${parts.map(([v, l]) => `${v}=${l}`).join(" ")}` : "";
}

function goAttack() {
  const parts = attackParts();
  const steps = ["attack ?", `attack ${parts.map(([v]) => `${v}=?`).join(" ")}`];
  for (let i = 1; i < parts.length; i++) {
    const terms = parts.map(([v, l], j) => (j < i ? `${v}=${l}` : `${v}=?`));
    steps.push(`attack ${terms.sort().join(" ")}`);
  }
  sendMove(attackMove(), steps);
}

// defence: for each attacking unit, only the blockers the hand allows against it
function defendPanel(d) {
  const attackers = d.attackers || [];
  const hand = Object.fromEntries(d.units || []);
  if (!ui.defend) {
    ui.defend = attackers.map(() => "");
    const pairs = String(d.default || "").split(" ").slice(1).map((w) => w.split(">"));
    for (const [b, a] of pairs) {
      const i = attackers.findIndex((x, j) => x === a && !ui.defend[j]);
      if (i >= 0) ui.defend[i] = b;
    }
  }
  const handNames = Object.fromEntries((B.hand || []).map((c) => [c.code, c.name]));
  const unitName = (code) => {
    const u = (B.combat ? B.combat.units : []).find((x) => x.code === code);
    return u ? u.name : (handNames[code] || code);
  };
  const usedOf = (b) => ui.defend.filter((x) => x === b).length;
  const seen = {};
  const rows = attackers.map((a, i) => {
    seen[a] = (seen[a] || 0) + 1;
    const opts = (d.blockers[a] || []).map((b) => `<option value="${esc(b)}"${ui.defend[i] === b ? " selected" : ""}${ui.defend[i] !== b && usedOf(b) >= (hand[b] || 0) ? " disabled" : ""}>${esc(handNames[b] || b)}</option>`);
    return `<li><label>${esc(t("ccg.web.block_with", { unit: unitName(a), i: seen[a] }))}
      <select data-defend="${i}" data-key="defend-${i}" data-testid="defend-${i}"><option value="">${esc(t("ccg.web.no_block"))}</option>${opts.join("")}</select></label></li>`;
  });
  const ok = Object.keys(hand).every((b) => usedOf(b) <= hand[b]);
  const move = defendMove(attackers);
  const attacker = B.combat ? name(B.combat.attacker) : "";
  const dmg = (d.damage || {})[move];
  const label = defendBlocks(attackers).length ? t("ccg.menu.defend") : t("ccg.web.block_none");
  return `<h2>${esc(t("ccg.web.defend_title", { attacker }))}</h2><ul class="rows">${rows.join("")}</ul>
    <p class="muted">${esc(T.words(move) || move)}</p>
    ${dmg ? `<p data-testid="defend-damage" role="status">${esc(t("ccg.web.damage_if", { s: dmg[0], x: dmg[1] }))}</p>` : ""}
    <button type="button" class="primary" data-go="defend" data-key="go-defend"${ok ? "" : " disabled"}>${esc(label)}</button>`;
}

function defendBlocks(attackers) {
  return attackers.map((a, i) => [ui.defend[i], a]).filter(([b]) => b)
    .sort((x, y) => (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
}

function defendMove(attackers) {
  return ["defend", ...defendBlocks(attackers).map(([b, a]) => `${b}>${a}`)].join(" ");
}

function goDefend() {
  const attackers = decide().attackers || [];
  const blocks = defendBlocks(attackers);
  const codes = [...new Set(attackers)].sort();
  const steps = [];
  for (let j = 0; j + 1 < codes.length; j++) {
    const body = ["defend", ...blocks.filter(([, a]) => a <= codes[j]).map(([b, a]) => `${b}>${a}`)].join(" ");
    steps.push(`${body} ?${codes[j + 1]}`);
  }
  sendMove(defendMove(attackers), steps);
}

// damage: the population and buildings the defender gives up
function damagePanel(d) {
  const me = B.seats[view.seat];
  if (!ui.damage) {
    ui.damage = { steal: {}, destroy: new Set() };
    const w = String(d.default || "").split(" ");
    for (let i = 1; i + 1 < w.length; i += 2) {
      if (w[i] === "steal") for (const p of w[i + 1].split(",")) { const n = p.slice(1); ui.damage.steal[n] = (ui.damage.steal[n] || 0) + 1; }
      if (w[i] === "destroy") for (const x of w[i + 1].split(",")) ui.damage.destroy.add(x);
    }
  }
  const taken = Object.values(ui.damage.steal).reduce((a, b) => a + b, 0);
  const pops = me.plots.filter((p) => p.pop > 0).map((p) => {
    const v = ui.damage.steal[p.n] || 0;
    return `<li>${counter(`steal.${p.n}`, t("ccg.web.collect_plot", { n: p.n, name: p.name, pop: p.pop }), v, Math.min(p.pop, v + d.steal - taken))} <span>${esc(t("ccg.web.collect_plot", { n: p.n, name: p.name, pop: p.pop }))}</span></li>`;
  });
  const builds = (d.buildings || []).map(([n, code]) => {
    const key = `p${n}:${code}`;
    const p = me.plots[n - 1];
    const card = p.cards.find((c) => c.code === code) || { name: code };
    return `<li><label><input type="checkbox" data-destroy="${esc(key)}" data-key="destroy-${esc(key)}"${ui.damage.destroy.has(key) ? " checked" : ""}> ${esc(t("ccg.move.damage_destroy", { card: card.name, n }))}</label></li>`;
  });
  const ok = taken === d.steal && ui.damage.destroy.size === d.destroy;
  const move = damageMove();
  return `<h2>${esc(t("ccg.web.damage_title", { s: d.steal, x: d.destroy }))}</h2>
    ${d.steal ? `<ul class="rows">${pops.join("")}</ul>` : ""}${d.destroy ? `<ul class="rows">${builds.join("")}</ul>` : ""}
    <p class="muted">${esc(T.words(move) || move)}</p>
    <button type="button" class="primary" data-go="damage" data-key="go-damage"${ok ? "" : " disabled"}>${esc(t("ccg.web.damage_go"))}</button>`;
}

function damageSteal() {
  const list = [];
  for (const n of Object.keys(ui.damage.steal).map(Number).sort((a, b) => a - b)) for (let i = 0; i < ui.damage.steal[n]; i++) list.push(`p${n}`);
  return list;
}

function damageMove() {
  const steal = damageSteal();
  const destroy = [...ui.damage.destroy].sort((a, b) => {
    const [pa, ca] = a.slice(1).split(":");
    const [pb, cb] = b.slice(1).split(":");
    return Number(pa) - Number(pb) || (ca < cb ? -1 : ca > cb ? 1 : 0);
  });
  let s = "damage";
  if (steal.length) s += ` steal ${steal.join(",")}`;
  if (destroy.length) s += ` destroy ${destroy.join(",")}`;
  return s;
}

function goDamage() {
  const d = decide();
  const combos = comb((d.buildings || []).length, d.destroy);
  const steal = damageSteal();
  const steps = combos > 1 ? [`damage steal ${steal.length ? steal.join(",") : "-"} ?`] : [];
  sendMove(damageMove(), steps);
}

// placing stolen population
function placePanel(d) {
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

function goPlace() {
  const list = [];
  for (const n of Object.keys(ui.place).map(Number).sort((a, b) => a - b)) for (let i = 0; i < ui.place[n]; i++) list.push(`p${n}`);
  sendMove(`place ${list.join(",")}`, prefixSteps("place", list, ","));
}

// -- events --

function adjust(key, delta) {
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

function bind(box) {
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
  for (const c of box.querySelectorAll("li.ccard, li.plot")) {
    const acts = [...c.querySelectorAll(":scope > button:not([disabled])")];
    if (!acts.length) continue;
    c.classList.add("actable");
    c.addEventListener("click", (e) => {
      if (e.target.closest("button, a, input, select, label")) return;
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

function onClick(b) {
  const ds = b.dataset;
  if (ds.cancel) {
    if (ui.confirm) ui.confirm = null;
    else if (opened.length) opened.pop();
    else { ui.pay = null; ui.build = null; ui.attack = null; }
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
  } else if (ds.attack) {
    ui.attack = {}; ui.pay = null; ui.build = null;
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

function focusActions() {
  const first = document.querySelector("#actions button, #actions input, #actions select");
  if (first) first.focus();
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
