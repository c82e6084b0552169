// CIV's guided choices at the table (issue 39: split from carta.js): the action bar (#actions)
// with the effects that can be used and the end of the turn, and the walk through a
// multi-choice effect, token by token (hidden steps committed to before their cards show).
// The objects reach the same choices: a domain of the own play area starts its effect
// (startEffects), a seat's board or a domain's track is a target of the walk (targets, pick).
import { esc, t } from "/static/common.js";
import { LETTERS, cardTip, cardsWords, countLetters, domainName, effectDomain, effectName, effectTip, icon } from "./faces.js";

let T = null; // the table (the shell's object)
let view = null;
let walk = null; // the choice being built: {prefix: [tokens], picks: "", pending: bool}
let chosen = null; // a domain of the own play area whose effects were asked for (its letter)
let next = []; // the tokens the walk may take next (targets on the boards)

const name = (s) => T.name(s);
const send = (move) => T.send(move);
const myTurn = () => T.myTurn();
const rerender = () => T.render();
const optionTexts = () => view.options.map((o) => o.text);
const isCards = (tok) => /^[MRESCU]+$/.test(tok);
const isSeat = (tok) => /^\d$/.test(tok);

export const EFFECTS = ["assassination", "purge", "attack", "holybook", "divineright", "inquisition",
  "development", "monopoly", "embargo", "experiment", "research", "discovery", "oligarchy",
  "republic", "democracy", "inspiration"];
const TAG = {
  assassination: ["M", 1], purge: ["M", 2], attack: ["M", 0], inquisition: ["R", 0],
  development: ["E", 1], monopoly: ["E", 2], embargo: ["E", 0], experiment: ["S", 1],
  research: ["S", 2], discovery: ["S", 0], oligarchy: ["U", 1], republic: ["U", 2],
  democracy: ["U", 0], inspiration: ["C", 1],
};

/** The tokens all of the committed step's moves begin with (where the walk goes on). */
function commonPrefix(p) {
  const lists = [p.option, ...p.choices.map((c) => c.text)].map((x) => x.split(" "));
  const out = [];
  for (let i = 0; lists.every((l) => i < l.length && l[i] === lists[0][i]); i++) out.push(lists[0][i]);
  return out;
}

/** A new view: a new position ends the walk; a committed step goes on with its choices. */
export function onView(table, changed) {
  T = table;
  view = table.view;
  if (changed) { walk = null; chosen = null; }
  if (view.pending && (!walk || !walk.pending)) {
    walk = { prefix: commonPrefix(view.pending), picks: "", pending: true };
  }
}

/** Whether a walk through an effect is under way. */
export function walking() {
  return !!walk;
}

/** The effects that can be used now, by kind (their first token), in the rulebook's order. */
export function effectKinds() {
  const kinds = [];
  for (const o of optionTexts()) {
    const k = o.split(" ")[0];
    if (!["play", "keep", "take", "end"].includes(k) && !kinds.includes(k)) kinds.push(k);
  }
  return kinds.sort((a, b) => EFFECTS.indexOf(a) - EFFECTS.indexOf(b));
}

/** The effects of domain `letter` that can be used now. */
export function effectsOf(letter) {
  return myTurn() && !walk ? effectKinds().filter((k) => effectDomain(k) === letter) : [];
}

/** A domain of the own play area was clicked: its one effect starts, or its effects are shown
 * in the action bar (the first focused). */
export function startEffects(letter) {
  const kinds = effectsOf(letter);
  if (kinds.length === 1) { walk = { prefix: [kinds[0]], picks: "", pending: false }; chosen = null; rerender(); return; }
  if (!kinds.length) return;
  chosen = letter;
  rerender();
  const first = document.querySelector("#actions button.effect.chosen");
  if (first) { first.focus(); first.scrollIntoView({ block: "nearest" }); }
}

/** What the boards may answer now: the seats the walk asks for, or the domains (single cards)
 * and the seat whose play area they are on (the one named in the walk, else the own). */
export function targets() {
  if (!walk || !myTurn()) return { seats: [], letters: [], seat: null };
  if (next.length && next.every(isSeat)) return { seats: next.map(Number), letters: [], seat: null };
  const kind = walk.prefix[0];
  const prev = walk.prefix[walk.prefix.length - 1];
  if (next.length && next.every((x) => isCards(x) && x.length === 1)) {
    // a domain of a play area: the target's (Embargo, Democracy), the own (Attack, a discard or
    // a return of Development, Monopoly, Experiment, Research); a card of a hand or the pile is not
    if (["embargo", "democracy"].includes(kind) && isSeat(prev)) return { seats: [], letters: next, seat: Number(prev) };
    if (kind === "attack" || ["discard", "return"].includes(prev)) return { seats: [], letters: next, seat: view.seat };
  }
  return { seats: [], letters: [], seat: null };
}

/** A target on a board was clicked: the walk takes it (a seat's number or a domain's letter). */
export function pick(token) {
  if (!walk || !next.includes(token)) return;
  walk.prefix.push(token);
  walk.picks = "";
  rerender();
}

function effectTag(kind) {
  const tag = TAG[kind];
  if (!tag) return "";
  const [d, lv] = tag;
  return `${icon(d, "icon small")} ${esc(domainName(d))} · ${esc(lv ? t("web.level_short", { n: lv }) : t("web.discard_effect"))}`;
}

export function renderActions(table) {
  T = table;
  view = table.view;
  const box = document.getElementById("actions");
  const texts = optionTexts();
  next = [];
  if (myTurn() && !walk && texts.every((o) => /^(play|keep|take) /.test(o))) {
    box.hidden = true;
    box.innerHTML = "";
    return;
  }
  if (!myTurn() || view.observation.finished) {
    const who = view.observation.to_move;
    box.hidden = view.seat === null || view.observation.finished || who === null || who === undefined;
    box.innerHTML = who !== null && who !== undefined ? `<p class="muted">${esc(t("web.waiting_for", { name: name(who) }))}</p>` : "";
    return;
  }
  box.hidden = false;
  if (walk) { renderWalk(box); return; }
  const kinds = effectKinds();
  let html = "";
  if (kinds.length) {
    html += `<h2>${esc(t("web.effects"))}</h2><ul class="effects">`;
    for (const k of kinds) {
      const mark = chosen && effectDomain(k) === chosen ? " chosen" : "";
      html += `<li><button type="button" class="effect${mark}" data-kind="${esc(k)}" data-key="effect-${esc(k)}" aria-describedby="help-${esc(k)}" data-tip="${esc(effectTip(k))}">
        <strong>${esc(effectName(k))}</strong> <span class="tag">${effectTag(k)}</span></button>
        <p class="help" id="help-${esc(k)}">${esc(t(`help.${k}`))}</p></li>`;
    }
    html += "</ul>";
  }
  if (texts.includes("end")) {
    html += `<button type="button" class="primary end" data-move="end" data-key="end">${esc(t("move.end"))}</button>`;
  }
  box.innerHTML = html;
  for (const b of box.querySelectorAll("button.effect")) {
    b.addEventListener("click", () => { walk = { prefix: [b.dataset.kind], picks: "", pending: false }; chosen = null; rerender(); });
  }
  for (const b of box.querySelectorAll("button[data-move]")) b.addEventListener("click", () => send(b.dataset.move));
}

// -- walking through a multi-choice effect --

/** The choices that begin with the walk's prefix, each with its tokens. */
function candidates() {
  const base = walk.pending ? view.pending.choices : view.options;
  const p = walk.prefix;
  return base.map((c) => ({ choice: c, tok: c.text.split(" ") }))
    .filter(({ tok }) => tok.length >= p.length && p.every((x, i) => tok[i] === x));
}

/** The one step the walk has come to (a choice that is not a whole move), else null. */
function stepReached(cands) {
  return cands.length === 1 && !cands[0].choice.final ? cands[0].choice : null;
}

function contains(big, small) {
  const a = countLetters(big);
  const b = countLetters(small);
  return LETTERS.split("").every((l) => a[l] >= b[l]);
}

function sortCards(s) {
  return s.split("").sort((x, y) => LETTERS.indexOf(x) - LETTERS.indexOf(y)).join("");
}

function stepWord(prev) {
  if (["discard", "play", "return", "take", "give"].includes(prev)) return t(`web.step.${prev}`);
  if (prev === "assassination" || prev === "purge") return t("web.step.discard");
  return t("web.step.cards");
}

function renderWalk(box) {
  // follow the only way on as long as there is one (up to a step: it is chosen as a whole)
  for (;;) {
    const cands = candidates();
    const i = walk.prefix.length;
    const complete = cands.some((c) => c.choice.final && c.tok.length === i);
    const ways = [...new Set(cands.filter((c) => c.tok.length > i).map((c) => c.tok[i]))];
    if (!complete && ways.length === 1 && !stepReached(cands) && !walk.picks) { walk.prefix.push(ways[0]); continue; }
    break;
  }
  const cands = candidates();
  const i = walk.prefix.length;
  const complete = cands.some((c) => c.choice.final && c.tok.length === i);
  next = [...new Set(cands.filter((c) => c.tok.length > i).map((c) => c.tok[i]))];
  const step = stepReached(cands);
  const kind = walk.prefix[0];
  let html = `<h2 data-tip="${esc(effectTip(kind))}">${esc(effectName(kind))} <span class="tag">${effectTag(kind)}</span></h2><p class="help">${esc(t(`help.${kind}`))}</p>`;
  if (walk.pending) {
    const p = view.pending;
    const text = kind === "discovery"
      ? (p.reveal ? t("ui.revealed_discovery", { cards: cardsWords(p.reveal) }) : t("ui.revealed_discovery_none"))
      : t("ui.revealed_inquisition", { seat: name(Number(p.option.split(" ")[1])), cards: cardsWords(p.reveal) });
    html += `<p class="reveal" data-testid="reveal">${esc(text)}</p><p class="muted">${esc(t("ui.committed", { effect: effectName(kind) }))}</p>`;
  }
  const sofar = view.words[walk.prefix.join(" ")];
  let body = "";
  const buttons = [];
  if (step) {
    // a step: its moves are chosen once it is sent (a hidden one shows cards: binding)
    if (step.hidden) body = `<p class="warn">${esc(t("web.reveal_warning"))}</p>`;
    buttons.push(`<button type="button" class="primary" data-send="${esc(step.text)}" data-key="commit">${esc(step.hidden ? t("web.commit") : t("web.confirm"))}</button>`);
  } else if (next.length && next.every(isSeat)) {
    body = `<p>${esc(t("web.choose_seat"))}</p>`;
    for (const s of next) buttons.push(`<button type="button" data-tok="${s}" data-key="tok-${s}">${esc(name(Number(s)))}</button>`);
  } else if (next.length && next.every(isCards) && next.every((x) => x.length === 1)) {
    body = `<p>${esc(t("web.step.domain"))}</p>`;
    for (const l of LETTERS) if (next.includes(l)) buttons.push(`<button type="button" class="card d-${l}" data-tok="${l}" data-key="tok-${l}" data-tip="${esc(cardTip(l))}" data-face-tip="${l}">${icon(l)} ${esc(domainName(l))}</button>`);
  } else if (next.length && next.every(isCards)) {
    const size = Math.max(...next.map((x) => x.length));
    const fits = next.filter((x) => contains(x, walk.picks));
    body = `<p>${esc(t("web.choose_cards", { n: size, word: stepWord(walk.prefix[i - 1]) }))}</p>
      <p data-testid="picks">${esc(t("web.chosen", { cards: walk.picks ? cardsWords(walk.picks) : "—" }))}</p>`;
    if (fits.includes(sortCards(walk.picks))) {
      buttons.push(`<button type="button" class="primary" data-tok="${sortCards(walk.picks)}" data-key="picks-ok">${esc(t("web.confirm"))}</button>`);
    }
    for (const l of LETTERS) {
      const left = Math.max(0, ...fits.map((x) => countLetters(x)[l])) - countLetters(walk.picks)[l];
      if (left > 0 && fits.some((x) => contains(x, walk.picks + l))) {
        buttons.push(`<button type="button" class="card d-${l}" data-pick="${l}" data-key="pick-${l}" data-tip="${esc(cardTip(l))}" data-face-tip="${l}">${icon(l)} ${esc(domainName(l))} <small>×${left}</small></button>`);
      }
    }
    if (walk.picks) buttons.push(`<button type="button" data-unpick="1" data-key="unpick">${esc(t("web.undo_pick"))}</button>`);
  } else if (next.length) {
    body = `<p>${esc(t("web.choose_option"))}</p>`;
    for (const w of next) {
      const label = EFFECTS.includes(w) ? effectName(w) : (texts(`web.step.${w}`) || w);
      buttons.push(`<button type="button" data-tok="${esc(w)}" data-key="tok-${esc(w)}">${esc(label)}</button>`);
    }
  }
  if (complete) {
    const mv = walk.prefix.join(" ");
    buttons.unshift(`<button type="button" class="primary" data-send="${esc(mv)}" data-key="confirm">${esc(t("web.confirm"))}: ${esc(view.words[mv] || mv)}</button>`);
  }
  if (!walk.pending) buttons.push(`<button type="button" class="cancel" data-cancel="1" data-key="cancel">${esc(t("web.cancel"))}</button>`);
  html += `${sofar && !complete ? `<p class="sofar">${esc(sofar)}</p>` : ""}${body}<div class="choices" role="group">${buttons.join(" ")}</div>`;
  box.innerHTML = html;
  for (const b of box.querySelectorAll("button")) {
    b.addEventListener("click", () => {
      if (!walk) return;
      if (b.dataset.send) send(b.dataset.send);
      else if (b.dataset.cancel) { walk = null; rerender(); }
      else if (b.dataset.pick) { walk.picks += b.dataset.pick; rerender(); }
      else if (b.dataset.unpick) { walk.picks = walk.picks.slice(0, -1); rerender(); }
      else if (b.dataset.tok) { walk.prefix.push(b.dataset.tok); walk.picks = ""; rerender(); }
    });
  }
}

function texts(key) {
  const s = t(key);
  return s === key ? null : s;
}

