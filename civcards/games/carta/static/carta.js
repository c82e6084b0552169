// CIV: Carta Impera Victoria at the table: its board (domains, markers, hand, draft, discard
// pile), its guided choices (effects walked token by token, hidden steps committed to before
// their cards show) and its result (hegemony, or the majorities table). The shell (table.js)
// calls render, turnText, onView and resultHTML.
import { esc, t } from "/static/common.js";

export const LETTERS = "MRESCU";

let T = null; // the table (the shell's object)
let view = null;
let walk = null; // the choice being built: {prefix: [tokens], picks: "", pending: bool}
const $ = (id) => document.getElementById(id);

function use(table) {
  T = table;
  view = table.view;
}

const name = (s) => T.name(s);
const send = (move) => T.send(move);
const myTurn = () => T.myTurn();
const rerender = () => T.render();
const optionTexts = () => view.options.map((o) => o.text);

// -- words and icons of the domains and effects --

export function domainName(letter) {
  return t(`domain.${letter}`);
}

export function effectName(kind) {
  return t(`effect.${kind}`);
}

// a distinct shape per domain, so colour is never the only cue
const SHAPES = {
  M: '<path d="M12 2 L22 21 H2 Z"/>',
  R: '<path d="M9 2 H15 V8 H21 V14 H15 V22 H9 V14 H3 V8 H9 Z"/>',
  E: '<circle cx="12" cy="12" r="10"/>',
  S: '<path d="M12 1 L21.5 6.5 V17.5 L12 23 L2.5 17.5 V6.5 Z"/>',
  C: '<path d="M12 1 L14.9 8.6 L23 9 L16.7 14.1 L18.8 22 L12 17.6 L5.2 22 L7.3 14.1 L1 9 L9.1 8.6 Z"/>',
  U: '<path d="M12 1 L23 12 L12 23 L1 12 Z"/>',
};

export function icon(letter, cls = "icon") {
  return `<svg class="${cls} d-${letter}" viewBox="0 0 24 24" aria-hidden="true" focusable="false">${SHAPES[letter]}<text x="12" y="16" text-anchor="middle">${letter}</text></svg>`;
}

export function countLetters(cards) {
  const c = {};
  for (const l of LETTERS) c[l] = 0;
  for (const ch of cards) if (ch in c) c[ch] += 1;
  return c;
}

export function cardsWords(cards) {
  const c = countLetters(cards);
  const parts = [];
  for (const l of LETTERS) if (c[l]) parts.push(domainName(l) + (c[l] > 1 ? ` ×${c[l]}` : ""));
  return parts.length ? parts.join(", ") : t("ui.empty");
}

const EFFECTS = ["assassination", "purge", "attack", "holybook", "divineright", "inquisition",
  "development", "monopoly", "embargo", "experiment", "research", "discovery", "oligarchy",
  "republic", "democracy", "inspiration"];
const TAG = {
  assassination: ["M", 1], purge: ["M", 2], attack: ["M", 0], inquisition: ["R", 0],
  development: ["E", 1], monopoly: ["E", 2], embargo: ["E", 0], experiment: ["S", 1],
  research: ["S", 2], discovery: ["S", 0], oligarchy: ["U", 1], republic: ["U", 2],
  democracy: ["U", 0], inspiration: ["C", 1],
};
const ERA = ["I", "II", "III"];
// each domain's effects: level 1, level 2, discard (Culture: Inspiration only)
const DOMAIN_EFFECTS = {
  M: ["assassination", "purge", "attack"], R: ["holybook", "divineright", "inquisition"],
  E: ["development", "monopoly", "embargo"], S: ["experiment", "research", "discovery"],
  C: ["inspiration", null, null], U: ["oligarchy", "republic", "democracy"],
};

/** What a card of a domain does (its tip): the domain's effects by level. */
export function cardTip(letter) {
  const [l1, l2, disc] = DOMAIN_EFFECTS[letter];
  const effects = l2 === null
    ? t("ref.domain_culture", { effect: effectName(l1) })
    : t("ref.domain", { l1: effectName(l1), l2: effectName(l2), disc: effectName(disc) });
  return t("web.tip.card", { domain: domainName(letter), effects });
}

/** An effect's tip: its name and what it does. */
function effectTip(kind) {
  return `${effectName(kind)}: ${t(`help.${kind}`)}`;
}
const isCards = (tok) => /^[MRESCU]+$/.test(tok);
const isSeat = (tok) => /^\d$/.test(tok);

// -- what the shell calls --

/** The tokens all of the committed step's moves begin with (where the walk goes on). */
function commonPrefix(p) {
  const lists = [p.option, ...p.choices.map((c) => c.text)].map((x) => x.split(" "));
  const out = [];
  for (let i = 0; lists.every((l) => i < l.length && l[i] === lists[0][i]); i++) out.push(lists[0][i]);
  return out;
}

export function onView(table, changed) {
  use(table);
  if (changed) walk = null;
  if (view.pending && (!walk || !walk.pending)) {
    walk = { prefix: commonPrefix(view.pending), picks: "", pending: true };
  }
}

export function turnText(table) {
  use(table);
  const o = view.observation;
  if (o.finished) return t("ui.phase.over");
  const who = o.to_move === view.seat ? t("ui.your_turn") : t("ui.turn_of", { name: name(o.to_move) });
  let phase = t(`ui.phase.${o.phase}`);
  if (o.phase === "draft" && optionTexts().some((x) => x.startsWith("take"))) phase = t("ui.phase.draft_take");
  return `${who} — ${phase}`;
}

export function render(table) {
  use(table);
  renderStatus();
  renderPlayers();
  renderMine();
  renderActions();
  renderDiscard();
}

// -- rendering --

function renderStatus() {
  const o = view.observation;
  const deck = o.deck_size ? t("web.deck_era", { n: o.deck_size, era: ERA[o.era] || "" }) : t("web.deck_empty");
  const me = view.seat === null ? t("web.spectator") : t("web.you_are", { name: name(view.seat) });
  const used = o.used_effects.length
    ? `<p>${esc(t("ui.used", { effects: "" }).trim())} ${o.used_effects.map((k) => `<span data-tip="${esc(effectTip(k))}">${esc(effectName(k))}</span>`).join(", ")}</p>` : "";
  $("status").innerHTML = `
    <p class="turn ${myTurn() ? "mine" : ""}" data-testid="turn">${esc(turnText(T))}</p>
    <p>${esc(me)} · ${esc(t("ui.turn", { n: o.turn + 1 }))} · <span data-testid="deck">${esc(deck)}</span>
      ${o.last_round ? ` · <strong>${esc(t("ui.last_round"))}</strong>` : ""}</p>
    <p class="muted">${esc(t("ui.thresholds", { l1: o.thresholds[0], l2: o.thresholds[1], heg: o.thresholds[2] }))}</p>
    <p class="muted legend-line" data-testid="thresholds-legend">${esc(t("web.thresholds_legend", { l1: o.thresholds[0], l2: o.thresholds[1], heg: o.thresholds[2] }))}</p>
    ${o.phase === "draft" ? `<p class="draft-explain" data-testid="draft-explain">${esc(t("web.draft_explain"))}</p>` : ""}
    ${used}`;
}

function markersAt(seat, d) {
  return view.observation.markers.filter((m) => m.seat === seat && m.domain === d);
}

function botLabel(bot) {
  const key = `web.bot_${bot}`;
  const s = t(key);
  return s === key ? bot : s;
}

function renderPlayers() {
  const o = view.observation;
  const [l1, l2, heg] = o.thresholds;
  const out = [];
  for (let s = 0; s < o.players; s++) {
    const counts = countLetters(o.areas[s]);
    const info = view.game.seats[s];
    const tags = [];
    if (s === view.seat) tags.push(t("ui.you"));
    if (info.kind === "bot") tags.push(botLabel((info.bot || "").split(":")[0]));
    else if (!info.joined) tags.push(t("web.not_joined"));
    if (o.teams) tags.push(t("web.team_of", { t: "AB"[s % 2] }));
    if (s === o.start) tags.push(t("ui.start"));
    const cells = LETTERS.split("").map((d) => {
      const n = counts[d];
      const marks = markersAt(s, d);
      const dem = marks.filter((m) => m.kind === "democracy").length;
      const need = heg + dem;
      const level = n >= l2 ? 2 : n >= l1 ? 1 : 0;
      const coin = o.coin && o.coin.seat === s && o.coin.domain === d;
      const markText = marks.map((m) => t(m.kind === "embargo" ? "ui.marker_embargo" : "ui.marker_democracy",
        { seat: name(m.seat), domain: domainName(d), by: name(m.by) }));
      const label = [t("web.cell_label", { domain: domainName(d), n, l1, l2, heg: need })];
      if (level) label.push(t("web.level", { n: level }));
      label.push(...markText);
      if (coin) label.push(t("ui.coin", { holder: name(o.coin.holder), domain: domainName(d), seat: name(s) }));
      const pct = (x) => Math.min(100, (x / need) * 100);
      return `<li class="cell d-${d} level-${level}" aria-label="${esc(label.join(". "))}" data-testid="cell-${s}-${d}">
        <div class="cell-head" data-tip="${esc(cardTip(d))}">${icon(d)}<span class="dname">${esc(domainName(d))}</span></div>
        <div class="count" aria-hidden="true">${n}${level ? `<span class="lv">${esc(t("web.level_short", { n: level }))}</span>` : ""}</div>
        <div class="track" aria-hidden="true"><div class="fill" data-width="${pct(n)}"></div>
          <span class="tick" data-left="${pct(l1)}" title="${esc(t("web.level_short", { n: 1 }))}"></span><span class="tick" data-left="${pct(l2)}" title="${esc(t("web.level_short", { n: 2 }))}"></span></div>
        <div class="need" data-tip="${esc(t("web.thresholds_legend", { l1, l2, heg: need }))}">${l1}·${l2}·${need}♛</div>
        <div class="marks">${marks.map((m) => `<span class="mark ${m.kind}" data-tip="${esc(`${markText[marks.indexOf(m)]}. ${t(`ref.${m.kind}_marker_text`)}`)}">${m.kind === "embargo" ? "⛔E" : "🗳D"}</span>`).join("")}${coin ? `<span class="mark coin" data-tip="${esc(`${t("ui.coin", { holder: name(o.coin.holder), domain: domainName(d), seat: name(s) })}. ${t("ref.coin_text")}`)}">◉</span>` : ""}</div>
      </li>`;
    });
    const toMove = o.to_move === s;
    out.push(`<article class="player ${toMove ? "to-move" : ""} ${s === view.seat ? "me" : ""}" aria-label="${esc(name(s))}" data-testid="player-${s}">
      <h3>${toMove ? `<span class="arrow" aria-label="${esc(t("web.to_move"))}">▶</span> ` : ""}${esc(name(s))}
        <small>${esc(tags.join(" · "))}</small>
        <span class="handcount" aria-label="${esc(t("web.hand_of", { name: name(s), n: o.hand_sizes[s] }))}">🂠 ${o.hand_sizes[s]}</span></h3>
      <ol class="cells">${cells.join("")}</ol>
    </article>`);
  }
  $("players").innerHTML = out.join("");
  // positions set through the CSSOM: the Content-Security-Policy refuses style attributes
  for (const el of $("players").querySelectorAll("[data-width]")) el.style.width = `${el.dataset.width}%`;
  for (const el of $("players").querySelectorAll("[data-left]")) el.style.left = `${el.dataset.left}%`;
}

function cardButton(letter, kind, i, offered) {
  const opt = `${kind} ${letter}`;
  const can = myTurn() && !walk && offered.has(opt);
  const label = kind === "play" ? t("web.play_card", { card: domainName(letter) })
    : kind === "keep" ? t("web.keep_card", { card: domainName(letter) }) : t("web.take_card", { card: domainName(letter) });
  if (!can) {
    return `<li class="card d-${letter}" aria-label="${esc(domainName(letter))}" data-tip="${esc(cardTip(letter))}">${icon(letter)}<span>${esc(domainName(letter))}</span></li>`;
  }
  return `<li><button type="button" class="card d-${letter} playable" data-move="${esc(opt)}" data-key="card-${kind}-${letter}-${i}"
    aria-label="${esc(label)}" data-tip="${esc(`${label}. ${cardTip(letter)}`)}">${icon(letter)}<span>${esc(domainName(letter))}</span></button></li>`;
}

function cardRow(cards, kind) {
  const offered = new Set(optionTexts());
  let i = 0;
  return LETTERS.split("").flatMap((l) => Array.from({ length: countLetters(cards)[l] }, () => cardButton(l, kind, i++, offered))).join("");
}

function renderMine() {
  const box = $("mine");
  if (view.seat === null) { box.hidden = true; return; }
  box.hidden = false;
  const o = view.observation;
  let html = `<h2 id="hand-title">${esc(t("ui.your_hand"))} <small>(${o.hand.length})</small></h2>`;
  html += o.hand ? `<ul class="hand" aria-labelledby="hand-title" data-testid="hand">${cardRow(o.hand, "play")}</ul>`
    : `<p class="muted">${esc(t("web.your_hand_empty"))}</p>`;
  if (o.draft_packet) html += `<h3>${esc(t("ui.draft_packet"))}</h3><ul class="hand">${cardRow(o.draft_packet, "keep")}</ul>`;
  if (o.draft_centre) html += `<h3>${esc(t("ui.draft_centre"))}</h3><ul class="hand">${cardRow(o.draft_centre, "take")}</ul>`;
  if (myTurn() && optionTexts().some((x) => x.startsWith("play "))) html += `<p class="hint">${esc(t("web.play_hint"))}</p>`;
  box.innerHTML = html;
  for (const b of box.querySelectorAll("button[data-move]")) b.addEventListener("click", () => send(b.dataset.move));
}

function effectTag(kind) {
  const tag = TAG[kind];
  if (!tag) return "";
  const [d, lv] = tag;
  return `${icon(d, "icon small")} ${esc(domainName(d))} · ${esc(lv ? t("web.level_short", { n: lv }) : t("web.discard_effect"))}`;
}

function renderActions() {
  const box = $("actions");
  const texts = optionTexts();
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
  const kinds = [];
  for (const o of texts) {
    const k = o.split(" ")[0];
    if (!["play", "keep", "take", "end"].includes(k) && !kinds.includes(k)) kinds.push(k);
  }
  kinds.sort((a, b) => EFFECTS.indexOf(a) - EFFECTS.indexOf(b));
  let html = "";
  if (kinds.length) {
    html += `<h2>${esc(t("web.effects"))}</h2><ul class="effects">`;
    for (const k of kinds) {
      html += `<li><button type="button" class="effect" data-kind="${esc(k)}" data-key="effect-${esc(k)}" aria-describedby="help-${esc(k)}" data-tip="${esc(effectTip(k))}">
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
    b.addEventListener("click", () => { walk = { prefix: [b.dataset.kind], picks: "", pending: false }; rerender(); });
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
    const next = [...new Set(cands.filter((c) => c.tok.length > i).map((c) => c.tok[i]))];
    if (!complete && next.length === 1 && !stepReached(cands) && !walk.picks) { walk.prefix.push(next[0]); continue; }
    break;
  }
  const cands = candidates();
  const i = walk.prefix.length;
  const complete = cands.some((c) => c.choice.final && c.tok.length === i);
  const next = [...new Set(cands.filter((c) => c.tok.length > i).map((c) => c.tok[i]))];
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
    for (const l of LETTERS) if (next.includes(l)) buttons.push(`<button type="button" class="card d-${l}" data-tok="${l}" data-key="tok-${l}" data-tip="${esc(cardTip(l))}">${icon(l)} ${esc(domainName(l))}</button>`);
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
        buttons.push(`<button type="button" class="card d-${l}" data-pick="${l}" data-key="pick-${l}" data-tip="${esc(cardTip(l))}">${icon(l)} ${esc(domainName(l))} <small>×${left}</small></button>`);
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

function renderDiscard() {
  const d = view.observation.discard;
  const c = countLetters(d);
  const open = $("discard").querySelector("details")?.open ? " open" : "";
  $("discard").innerHTML = `<details${open} data-testid="discard"><summary>${esc(t("web.discard_count", { n: d.length }))}</summary>
    ${d.length ? `<ul class="pile">${LETTERS.split("").filter((l) => c[l]).map((l) => `<li class="d-${l}" data-tip="${esc(cardTip(l))}">${icon(l)} ${esc(domainName(l))} × ${c[l]}</li>`).join("")}</ul>` : `<p class="muted">${esc(t("ui.empty"))}</p>`}
  </details>`;
}

// -- the result: how the game was won, and the majorities --

export function resultHTML(table) {
  use(table);
  const r = view.result;
  const o = view.observation;
  let tableHTML = "";
  if (r.victory === "majority") {
    const best = LETTERS.split("").map((l) => Math.max(...o.areas.map((a) => countLetters(a)[l])));
    const head = LETTERS.split("").map((l) => `<th scope="col" data-tip="${esc(cardTip(l))}">${icon(l, "icon small")}<span class="dname-full"> ${esc(domainName(l))}</span><span class="sr-only">${esc(domainName(l))}</span></th>`).join("");
    const rows = o.areas.map((a, s) => {
      const c = countLetters(a);
      const cells = LETTERS.split("").map((l, d) => {
        const top = c[l] > 0 && c[l] === best[d];
        return `<td class="${top ? "top" : ""}">${c[l]}${top ? " ✓" : ""}</td>`;
      }).join("");
      const pts = o.teams ? "" : (o.points ? o.points[s] : "");
      return `<tr class="${r.winners.includes(s) ? "won" : ""}"><th scope="row">${esc(name(s))}</th>${cells}<td>${pts}</td></tr>`;
    }).join("");
    const teamRows = o.teams && o.points ? [0, 1].map((tm) => `<tr class="team"><th scope="row" colspan="7">${esc(t("ui.team_name", { seats: `${"AB"[tm]} (${name(tm)} + ${name(tm + 2)})` }))}</th><td>${o.points[tm]}</td></tr>`).join("") : "";
    tableHTML = `<table class="majority" data-testid="majority"><caption>${esc(t("term.majorities"))}</caption>
      <thead><tr><th scope="col">${esc(t("ui.seat"))}</th>${head}<th scope="col">${esc(t("ui.points"))}</th></tr></thead>
      <tbody>${rows}${teamRows}</tbody></table><p class="muted">${esc(t("ui.majority_legend"))}</p>`;
  }
  return `<p>${esc(r.why)}</p>${r.tiebreak ? `<p>${esc(r.tiebreak)}</p>` : ""}${tableHTML}`;
}

// -- the guided mode: the control to use next, and one line on it --

export function guide(table) {
  use(table);
  const o = view.observation;
  if (!myTurn() || o.finished) return null;
  const q = (sel) => document.querySelector(sel);
  if (walk) {
    const el = q("#actions .choices button.primary, #actions .choices button:not(.cancel)");
    return el ? { el, text: t("guide.walk") } : null;
  }
  const texts = optionTexts();
  if (texts.some((x) => x.startsWith("keep "))) return { el: q('#mine button[data-move^="keep "]'), text: t("guide.keep") };
  if (texts.some((x) => x.startsWith("take "))) return { el: q('#mine button[data-move^="take "]'), text: t("guide.take") };
  if (texts.some((x) => x.startsWith("play "))) {
    return { el: q('#mine button[data-move^="play "]'), text: t("guide.play", { l1: o.thresholds[0] }) };
  }
  const effect = q("#actions button.effect");
  if (effect) return { el: effect, text: t("guide.effect") };
  const end = q('#actions button[data-key="end"]');
  return end ? { el: end, text: t("guide.end") } : null;
}
