// civ4 at the table: the board (the status, every empire with its plots, the markets, the
// seat's hand, the discard pile), drawn from the server's view (civcards/games/civ4/web.py).
import { botLabel, esc, t } from "/static/common.js";
import { PERSON, popIcons, resChips, resText, supplyChips } from "./symbols.js";
import { $, B, T, draw, drawParts, cardName, fullBoards, has, mine, name, startsWith, turnText, ui, view, whyNot } from "./state.js";
import { pickButton, renderCombat, targetButton } from "./combat.js";
import { bind } from "./events.js";
import { face } from "./faces.js";

export function renderStatus() {
  const me = view.seat === null ? t("web.spectator") : t("web.you_are", { name: name(view.seat) });
  const st = B.status || {};
  const statusItems = ["culture", "happiness"].map((k) => {
    const s = st[k];
    if (!s) return "";
    const label = t(`ccg.web.highest_${k}`);
    const who = s.holder === null ? t("ccg.nobody") : name(s.holder);
    // one line where room is short (civ4.css hides .why there): the why and the effect in its tip
    return `<li data-testid="status-${k}" data-tip="${esc(`${s.why}. ${s.effect}`)}"><strong>★ ${esc(label)}: ${esc(who)}</strong><span class="why"> — ${esc(s.why)}. <span class="muted">${esc(s.effect)}.</span></span></li>`;
  }).join("");
  // each variant by its words (the lobby's), else its name; a value (a card set) as it is
  const optWords = (o) => { const k = `ccg.web.opt.${o.name}`; return t(k) === k ? o.name : t(k); };
  // (the card set is named with the reconstructed mark, not among the variants)
  const variants = (B.options || []).filter((o) => o.name !== "cards")
    .map((o) => (o.value === true ? optWords(o) : `${optWords(o)}: ${o.value}`));
  const used = B.used && B.used.length ? `<p>${esc(t("ccg.web.used", { cards: B.used.join(", ") }))}</p>` : "";
  const steals = (B.steals || []).slice(-2).map((s) => `<p class="muted">⚔ ${esc(t("ccg.web.stolen_you", { thief: name(s.thief), card: s.card, victim: name(s.victim) }))}</p>`).join("");
  draw($("status"), `
    <p class="turn ${T.myTurn() ? "mine" : ""}" data-testid="turn">${esc(turnText(T))}</p>
    <p>${esc(view.game.title)} · ${esc(me)} · ${esc(t("ccg.round", { n: B.round || 0 }))}</p>
    <p class="c4-note" data-testid="reconstructed">⚠ ${esc(B.reconstructed || "")}</p>
    ${renderCombat()}
    <ul class="statuses" aria-label="${esc(t("ccg.web.statuses"))}">${statusItems}</ul>
    ${used}${steals}
    <details data-testid="about"><summary>${esc(t("ccg.web.about"))}</summary>
      <p>${esc(t("ccg.web.about_text"))}</p><p><strong>${esc(B.reconstructed || "")}</strong></p>
      ${variants.length ? `<p>${esc(t("ccg.web.variants", { list: variants.join(", ") }))}</p>` : ""}
      <p class="muted">${esc(t("ccg.web.legend"))}</p><p class="muted">${esc(t("ccg.result.tiebreak"))}</p></details>`);
}

export function plotCard(e, p, compact) {
  const s = e.seat;
  // a tile: its slots (C18: at most s buildings and wonders together, s 1 or 2), each the face
  // of the card built there or free, and its population tokens
  const cards = p.cards.map((c) => `<li class="slot built k-${esc(c.kind)}" data-testid="built-${s}-${p.n}-${esc(c.code)}">${face(c, { tag: "span", small: true })}</li>`);
  for (let i = 0; i < p.free; i++) cards.push(`<li class="slot free">○ ${esc(t("ccg.web.slot_free"))}</li>`);
  const label = t("ccg.web.plot_label", {
    n: p.n, name: p.name, res: resText(p.yields), pop: p.pop,
    cards: p.cards.length ? p.cards.map((c) => c.name).join(", ") : t("ccg.web.no_buildings"), free: p.free,
  });
  let button = "";
  let target = "";
  if (s === view.seat && mine()) {
    if (ui.build) {
      const here = startsWith(`build ${ui.build} p${p.n}`);
      if (here.length) target = " target";
      if (here.length) button = `<button type="button" class="primary" data-build="${p.n}" data-key="build-at-${p.n}" aria-label="${esc(t("ccg.move.build", { card: cardName(ui.build), n: p.n }))}">${esc(t("ccg.menu.build"))}</button>`;
    } else if (has(`pop p${p.n}`)) {
      button = `<button type="button" data-send="pop p${p.n}" data-key="pop-${p.n}" aria-label="${esc(t("ccg.web.add_pop", { n: p.n, cost: p.pop_cost }))}">+${PERSON.replace("<svg", '<svg width="14" height="14"')} ${resChips([p.pop_cost, 0, 0])}</button>`;
    } else if (has(`settle p${p.n}`)) {
      button = `<button type="button" class="primary" data-send="settle p${p.n}" data-key="settle-${p.n}" aria-label="${esc(t("ccg.move.settle", { n: p.n }))}">${esc(t("ccg.web.place_here"))}</button>`;
    } else {
      button = whyNot(`pop-${p.n}`);
    }
  }
  return `<li class="plot tile k-plot${target}" aria-label="${esc(label)}" data-testid="plot-${s}-${p.n}">
    <h4 data-tip="${esc(p.help)}"><span class="num">${p.n}</span> ${esc(p.name)} ${resChips(p.yields)}</h4>
    <div class="tokens" data-testid="tokens-${s}-${p.n}" data-n="${p.pop}">${popIcons(p.pop)}</div>
    <ul class="on slots">${cards.join("")}</ul>${button}</li>`;
}

export function empireHTML(e, other) {
  const s = e.seat;
  // an opponent's board is compact, a disclosure opens it to the full view (issue 39)
  const full = other && fullBoards.has(s);
  const compact = other && !full;
  const toggle = other ? ` <button type="button" class="board-toggle" data-board="${s}" data-key="board-${s}" aria-expanded="${full}"
      aria-controls="plots-${s}">${esc(t("ccg.web.full_board"))}</button>` : "";
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
  const target = targetButton(s);
  return `<article class="player c4-empire ${compact ? "compact" : ""} ${toMove ? "to-move" : ""} ${s === view.seat ? "me" : ""}${target ? " targetable" : ""}" aria-label="${esc(title)}" data-testid="player-${s}">${target}
    <h3>${toMove ? `<span class="arrow" aria-label="${esc(t("web.to_move"))}">▶</span> ` : ""}${esc(name(s))} <small>${esc(tags.join(" · "))}</small>
      <span class="vp" data-testid="vp-${s}">♛ ${esc(vpText)}</span>${toggle}</h3>
    <div class="supply" data-testid="supply-${s}"><strong>${esc(t("ccg.web.supply"))}:</strong> ${supplyChips(e.supply)}
      <span>🂠 ${esc(t("ccg.hand_n", { n: e.hand }))}</span>
      <span class="cul">♪ ${esc(t("ccg.culture_n", { n: e.culture }))}</span>
      <span class="hap">☺ ${esc(t("ccg.happiness_n", { n: e.happiness }))}</span>
      ${stars.length ? `<strong>${esc(stars.join(" · "))}</strong>` : ""}</div>
    <p class="techs"><strong>${esc(t("ccg.web.techs"))}:</strong> ${techs}</p>
    <ul class="plots" id="plots-${s}" aria-label="${esc(t("ccg.web.plots"))}">${e.plots.map((p) => plotCard(e, p, compact)).join("")}</ul>
  </article>`;
}

export function renderPlayers() {
  const seats = B.seats || [];
  const order = view.seat === null ? seats : [seats[view.seat], ...seats.filter((e) => e.seat !== view.seat)];
  // each empire a part of its own: a move redraws the empires it changed
  for (const part of drawParts($("players"), order.map((e) => empireHTML(e, view.seat !== null && e.seat !== view.seat)))) bind(part);
}

export function marketsHTML() {
  const p = B.piles || {};
  const plots = (B.plot_market || []).map((c) => {
    const can = mine() && startsWith(`plot ${c.code}`).length > 0;
    const btn = can ? `<button type="button" data-pay="${esc(c.code)}" data-key="buy-plot-${esc(c.code)}" aria-label="${esc(t("ccg.web.buy_plot", { name: c.name, cost: c.cost }))}">${esc(t("ccg.web.buy_plot_btn", { cost: c.cost }))}</button>` : whyNot(`plot-${c.code}`);
    return `<li class="ccard k-plot ${ui.pay && ui.pay.code === c.code ? "selected" : ""}" data-testid="market-plot-${esc(c.code)}">${face(c, { now: c.cost })}${btn}</li>`;
  });
  const techs = (B.tech_market || []).map((c) => {
    const can = mine() && has(`tech ${c.code}`);
    const cost = c.now === null || c.now === undefined ? c.cost : c.now;
    const btn = can ? `<button type="button" data-send="tech ${esc(c.code)}" data-key="buy-tech-${esc(c.code)}" aria-label="${esc(t("ccg.web.buy_tech", { name: c.name, cost }))}">${esc(t("ccg.web.buy"))} ${resChips([0, 0, cost])}</button>` : whyNot(`tech-${c.code}`);
    return `<li class="ccard k-tech" data-testid="market-tech-${esc(c.code)}">${face(c, { now: cost, text: true })}${btn}</li>`;
  });
  const piles = t("ccg.piles", { plots: p.plots, techs: p.techs, era: p.era || t("ccg.none"), deck: p.deck, discard: p.discard, pop: p.population });
  // (the card set is a reconstruction: its one mark is the status's, none on the cards)
  return `<section aria-labelledby="c4-markets"><h2 id="c4-markets">${esc(t("ccg.web.markets"))}</h2>
    <h3>${esc(t("ccg.plot_market_plain"))}</h3><ul class="cards">${plots.join("") || `<li class="muted">${esc(t("ccg.none"))}</li>`}</ul>
    <h3>${esc(t("ccg.tech_market"))}</h3><ul class="cards">${techs.join("") || `<li class="muted">${esc(t("ccg.none"))}</li>`}</ul>
    <p class="muted" data-testid="piles">${esc(piles)}</p></section>`;
}

export function handHTML() {
  const hand = B.hand || [];
  const n = hand.reduce((a, c) => a + c.count, 0);
  const cards = hand.map((c) => {
    const buttons = [];
    if (ui.attack) buttons.push(pickButton(c)); // composing an attack: the units are chosen here
    else if (mine() && has(`cash ${c.code}`)) {
      buttons.push(`<button type="button" data-send="cash ${esc(c.code)}" data-key="cash-${esc(c.code)}" aria-label="${esc(t("ccg.move.cash", { card: c.name, res: resText(c.res) }))}">${esc(t("ccg.web.cash"))} +${resChips(c.res)}</button>`);
    }
    if (ui.attack) { /* (nothing else while an attack is composed) */ } else if (mine() && startsWith(`build ${c.code}`).length) {
      buttons.push(`<button type="button" data-build-card="${esc(c.code)}" data-key="build-${esc(c.code)}" aria-label="${esc(t("ccg.web.build_label", { card: c.name }))}">${esc(t("ccg.web.build"))}</button>`);
    } else if (c.kind !== "unit") buttons.push(whyNot(`build-${c.code}`));
    const picked = ui.attack && (ui.pick || {})[c.code] ? " selected" : "";
    return `<li class="ccard k-${esc(c.kind)} ${ui.build === c.code ? "selected" : ""}${picked}" data-testid="hand-${esc(c.code)}">
      ${face(c, { now: c.now, count: c.count, level: 3, text: true })}${buttons.join(" ")}</li>`;
  });
  return `<section aria-labelledby="hand-title"><h2 id="hand-title">${esc(t("ui.your_hand"))} <small>(${n})</small></h2>
    ${n ? `<ul class="cards" data-testid="hand">${cards.join("")}</ul>` : `<p class="muted">${esc(t("ccg.web.hand_empty"))}</p>`}</section>`;
}

export function renderMine() {
  const box = $("mine");
  box.hidden = false;
  for (const part of drawParts(box, [view.seat !== null ? handHTML() : "", marketsHTML()])) bind(part);
}

export function renderSide() {
  const d = B.discard || [];
  const open = $("discard").querySelector("details")?.open ? " open" : "";
  const n = d.reduce((a, c) => a + c.count, 0);
  draw($("discard"), `<details${open} data-testid="discard"><summary>${esc(t("ccg.web.discard_pile", { n }))}</summary>
    ${n ? `<ul>${d.map((c) => `<li data-tip="${esc(c.help)}">${esc(c.name)} × ${c.count}</li>`).join("")}</ul>` : `<p class="muted">${esc(t("ui.empty"))}</p>`}</details>
    <p class="muted">${esc(t("ccg.web.legend"))}</p>`);
}
