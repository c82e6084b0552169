// civ4 at the table: the combat (C39–C48): the summary, the attack's, the defence's and the
// damage's panels.
import { esc, t } from "/static/common.js";
import { B, T, decide, fill, name, ui, view } from "./state.js";
import { comb, counter, sendMove } from "./panels.js";
import { face } from "./faces.js";

export function renderCombat() {
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

export function attackPanel(d) {
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
  return `<h2>${esc(t("ccg.web.attack_title"))}</h2><p class="muted" data-testid="attack-hint">${esc(t("ccg.web.attack_pick"))}</p>${groups.join("")}
    ${move ? `<p class="muted">${esc(T.words(move) || move)}</p>` : ""}
    <div class="choices"><button type="button" class="primary" data-go="attack" data-key="go-attack" data-move="${esc(move)}"${move ? "" : " disabled"}>⚔ ${esc(t("ccg.menu.attack"))}</button>
    <button type="button" class="cancel" data-cancel="1" data-key="cancel">${esc(t("web.cancel"))}</button></div>`;
}

// the attack on the objects: the units are chosen on the hand (each click one more of a card,
// back to none after the last free one), then the empire attacked is clicked; the counters of
// the panel show the same composition and stay for the keyboard

/** How many of unit `code` are free to send (not yet sent to any empire). */
function free(code) {
  const d = decide();
  const units = (d.attack && d.attack.units) || [];
  const k = (units.find(([c]) => c === code) || [code, 0])[1];
  const sent = Object.values(ui.attack || {}).reduce((s, m) => s + (m[code] || 0), 0);
  return k - sent;
}

/** The button that chooses a unit card of the hand for the attack ("" when it can't). */
export function pickButton(c) {
  if (!ui.attack || c.kind !== "unit" || free(c.code) <= 0) return "";
  const n = (ui.pick || {})[c.code] || 0;
  const words = t("ccg.web.unit_chosen", { name: c.name, n, k: free(c.code) });
  return `<button type="button" class="${n ? "primary" : ""}" data-pick="${esc(c.code)}" data-key="pick-unit-${esc(c.code)}" aria-pressed="${n ? "true" : "false"}" aria-label="${esc(words)}">⚔ ${n}/${free(c.code)}</button>`;
}

/** The button on empire `s`'s board that sends the chosen units against it ("" when none are
 * chosen or it is not a neighbour: C40). */
export function targetButton(s) {
  const d = decide();
  if (!ui.attack || !d.attack || !d.attack.adjacent.includes(s)) return "";
  if (!Object.values(ui.pick || {}).some((n) => n > 0)) return "";
  return `<button type="button" class="primary" data-target="${s}" data-key="attack-target-${s}">⚔ ${esc(t("ccg.web.attack_target", { name: name(s) }))}</button>`;
}

/** A click on a unit card: one more of it chosen, or none after the last free one. */
export function pickUnit(code) {
  ui.pick = ui.pick || {};
  const n = (ui.pick[code] || 0) + 1;
  ui.pick[code] = n > free(code) ? 0 : n;
}

/** A click on empire `v`'s board: the chosen units sent against it. */
export function sendTo(v) {
  ui.attack[v] = ui.attack[v] || {};
  for (const [code, n] of Object.entries(ui.pick || {})) ui.attack[v][code] = (ui.attack[v][code] || 0) + n;
  ui.pick = {};
}

export function attackParts() {
  const a = ui.attack || {};
  const out = [];
  for (const v of Object.keys(a).map(Number).sort((x, y) => x - y)) {
    const list = [];
    for (const code of Object.keys(a[v]).sort()) for (let i = 0; i < a[v][code]; i++) list.push(code);
    if (list.length) out.push([v, list.join(",")]);
  }
  return out;
}

export function attackMove() {
  const parts = attackParts();
  return parts.length ? `attack ${parts.map(([v, l]) => `${v}=${l}`).join(" ")}` : "";
}

export function goAttack() {
  const parts = attackParts();
  const steps = ["attack ?", `attack ${parts.map(([v]) => `${v}=?`).join(" ")}`];
  for (let i = 1; i < parts.length; i++) {
    const terms = parts.map(([v, l], j) => (j < i ? `${v}=${l}` : `${v}=?`));
    steps.push(`attack ${terms.sort().join(" ")}`);
  }
  sendMove(attackMove(), steps);
}

// defence: for each attacking unit, only the blockers the hand allows against it
export function defendPanel(d) {
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
  // beside each choice, what the whole defence would then cost (the server's damage of each
  // defence), the other rows as they are
  const dmgIf = (i, b) => {
    const was = ui.defend[i];
    ui.defend[i] = b;
    const x = (d.damage || {})[defendMove(attackers)];
    ui.defend[i] = was;
    return x ? ` — ${t("ccg.web.damage_short", { s: x[0], x: x[1] })}` : "";
  };
  const rows = attackers.map((a, i) => {
    seen[a] = (seen[a] || 0) + 1;
    const opts = (d.blockers[a] || []).map((b) => `<option value="${esc(b)}"${ui.defend[i] === b ? " selected" : ""}${ui.defend[i] !== b && usedOf(b) >= (hand[b] || 0) ? " disabled" : ""}>${esc(handNames[b] || b)}${esc(dmgIf(i, b))}</option>`);
    const card = (B.combat ? B.combat.units : []).find((x) => x.code === a);
    return `<li class="defend-row">${card && card.kind ? `<div class="ccard k-unit attacker" data-testid="attacker-${i}">${face(card, { tag: "span", small: true })}</div>` : ""}<label>${esc(t("ccg.web.block_with", { unit: unitName(a), i: seen[a] }))}
      <select data-defend="${i}" data-key="defend-${i}" data-testid="defend-${i}"><option value="">${esc(t("ccg.web.no_block"))}${esc(dmgIf(i, ""))}</option>${opts.join("")}</select></label></li>`;
  });
  const ok = Object.keys(hand).every((b) => usedOf(b) <= hand[b]);
  const move = defendMove(attackers);
  const attacker = B.combat ? name(B.combat.attacker) : "";
  const dmg = (d.damage || {})[move];
  const label = defendBlocks(attackers).length ? t("ccg.menu.defend") : t("ccg.web.block_none");
  // the chosen blocks in words (none chosen: the button says it, Block nothing)
  const blocks = defendBlocks(attackers).length;
  return `<h2>${esc(t("ccg.web.defend_title", { attacker }))}</h2><ul class="rows">${rows.join("")}</ul>
    ${blocks ? `<p class="muted">${esc(T.words(move) || move)}</p>` : ""}
    <div class="choices defend-go">${dmg ? `<p data-testid="defend-damage" role="status">${esc(t("ccg.web.damage_if", { s: dmg[0], x: dmg[1] }))}</p>` : ""}
    <button type="button" class="primary" data-go="defend" data-key="go-defend"${ok ? "" : " disabled"}>${esc(label)}</button></div>`;
}

export function defendBlocks(attackers) {
  return attackers.map((a, i) => [ui.defend[i], a]).filter(([b]) => b)
    .sort((x, y) => (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
}

export function defendMove(attackers) {
  return ["defend", ...defendBlocks(attackers).map(([b, a]) => `${b}>${a}`)].join(" ");
}

export function goDefend() {
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
export function damagePanel(d) {
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

export function damageSteal() {
  const list = [];
  for (const n of Object.keys(ui.damage.steal).map(Number).sort((a, b) => a - b)) for (let i = 0; i < ui.damage.steal[n]; i++) list.push(`p${n}`);
  return list;
}

export function damageMove() {
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

export function goDamage() {
  const d = decide();
  const combos = comb((d.buildings || []).length, d.destroy);
  const steal = damageSteal();
  const steps = combos > 1 ? [`damage steal ${steal.length ? steal.join(",") : "-"} ?`] : [];
  sendMove(damageMove(), steps);
}
