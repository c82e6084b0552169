// CIV: Carta Impera Victoria at the table: its board (domains, markers, hand, draft, discard
// pile) and its result (hegemony, or the majorities table); its guided choices are actions.js's,
// its card faces faces.js's. The shell (table.js) calls render, turnText, onView, resultHTML,
// guide and cue. The objects are controls too (issue 39): a card of the hand is played by a
// click; a domain of the own play area starts its effects; a seat's board or a domain's track
// answers the choice of an effect that asks for it. The buttons stay for the keyboard.
import { botLabel, esc, t } from "/static/common.js";

import {
  LETTERS, cardTip, cardsWords, countLetters, domainName, effectName, effectTip, ensureStyle, face, faceTips, icon,
} from "./faces.js";
import * as actions from "./actions.js";

export { LETTERS, cardTip, cardsWords, countLetters, domainName, effectName, icon, upgradeReference } from "./faces.js";

ensureStyle();

let T = null; // the table (the shell's object)
let view = null;
const $ = (id) => document.getElementById(id);

function use(table) {
  T = table;
  view = table.view;
}

// what each region was last drawn with: a region whose HTML is the same is left as it is (no
// new nodes, no listeners bound again, nothing for the browser to lay out again: issue 39)
const drawn = new WeakMap();

/** Draw `html` into `el` unless it holds it already (drawn here, untouched since): whether it
 * was drawn. */
function draw(el, html) {
  const was = drawn.get(el);
  if (was && was.html === html && was.first === el.firstChild && was.n === el.childNodes.length) return false;
  el.innerHTML = html;
  drawn.set(el, { html, first: el.firstChild, n: el.childNodes.length });
  return true;
}

const name = (s) => T.name(s);
const send = (move) => T.send(move);
const myTurn = () => T.myTurn();
const optionTexts = () => view.options.map((o) => o.text);
const ERA = ["I", "II", "III"];

// -- what the shell calls --

export function onView(table, changed) {
  use(table);
  actions.onView(table, changed);
  remember();
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
  faceTips(view.observation.thresholds);
  actions.renderActions(table); // first: the boards show the targets of its walk
  // then the region that holds the focus: a redraw that takes the focused control away makes
  // the browser lay the page out there and then, which costs little before the others' writes
  // (after them, up to 10 ms: issue 39's update time)
  const f = document.activeElement;
  const holds = ([id]) => Number(!!f && !!$(id) && $(id).contains(f));
  const regions = [["mine", renderMine], ["players", renderPlayers], ["status", renderStatus], ["discard", renderDiscard]];
  for (const [, draw] of regions.sort((a, b) => holds(b) - holds(a))) draw();
}

// -- rendering --

function renderStatus() {
  const o = view.observation;
  const deck = o.deck_size ? t("web.deck_era", { n: o.deck_size, era: ERA[o.era] || "" }) : t("web.deck_empty");
  const me = view.seat === null ? t("web.spectator") : t("web.you_are", { name: name(view.seat) });
  const used = o.used_effects.length
    ? `<p>${esc(t("ui.used", { effects: "" }).trim())} ${o.used_effects.map((k) => `<span data-tip="${esc(effectTip(k))}">${esc(effectName(k))}</span>`).join(", ")}</p>` : "";
  draw($("status"), `
    <p class="turn ${myTurn() ? "mine" : ""}" data-testid="turn">${esc(turnText(T))}</p>
    <p>${esc(me)} · ${esc(t("ui.turn", { n: Math.max(1, o.turn) }))} · <span data-testid="deck">${esc(deck)}</span>
      ${o.last_round ? ` · <strong>${esc(t("ui.last_round"))}</strong>` : ""}</p>
    <p class="muted">${esc(t("ui.thresholds", { l1: o.thresholds[0], l2: o.thresholds[1], heg: o.thresholds[2] }))}</p>
    <p class="muted legend-line" data-testid="thresholds-legend">${esc(t("web.thresholds_legend", { l1: o.thresholds[0], l2: o.thresholds[1], heg: o.thresholds[2] }))}</p>
    ${o.phase === "draft" ? `<p class="draft-explain" data-testid="draft-explain">${esc(t("web.draft_explain"))}</p>` : ""}
    ${used}`);
}

function markersAt(seat, d) {
  return view.observation.markers.filter((m) => m.seat === seat && m.domain === d);
}

function renderPlayers() {
  const o = view.observation;
  const [l1, l2, heg] = o.thresholds;
  const out = [];
  const aim = actions.targets();
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
      // the own domain whose effects can be used now starts them; a domain the walk asks for answers it
      const uses = s === view.seat ? actions.effectsOf(d) : [];
      const aimed = aim.seat === s && aim.letters.includes(d);
      const headInner = `${icon(d)}<span class="dname">${esc(domainName(d))}</span>`;
      const head = uses.length || aimed
        ? `<button type="button" class="cell-head cell-act" data-domain="${d}" data-aim="${aimed ? 1 : ""}" data-key="cell-act-${d}"
            aria-label="${esc(aimed ? domainName(d) : `${domainName(d)}: ${uses.map(effectName).join(", ")}`)}" data-tip="${esc(cardTip(d))}" data-face-tip="${d}">${headInner}</button>`
        : `<div class="cell-head" data-tip="${esc(cardTip(d))}" data-face-tip="${d}">${headInner}</div>`;
      return `<li class="cell d-${d} level-${level}${uses.length || aimed ? " can-act" : ""}" aria-label="${esc(label.join(". "))}" data-testid="cell-${s}-${d}">
        ${head}
        <div class="count" aria-hidden="true">${n}${level ? `<span class="lv">${esc(t("web.level_short", { n: level }))}</span>` : ""}</div>
        <div class="track" aria-hidden="true"><div class="fill" data-width="${pct(n)}"></div>
          <span class="tick" data-left="${pct(l1)}" title="${esc(t("web.level_short", { n: 1 }))}"></span><span class="tick" data-left="${pct(l2)}" title="${esc(t("web.level_short", { n: 2 }))}"></span></div>
        <div class="need" data-tip="${esc(t("web.thresholds_legend", { l1, l2, heg: need }))}">${l1}·${l2}·${need}♛</div>
        <div class="marks">${marks.map((m) => `<span class="mark ${m.kind}" data-tip="${esc(`${markText[marks.indexOf(m)]}. ${t(`ref.${m.kind}_marker_text`)}`)}">${m.kind === "embargo" ? "⊘E" : "⚖D"}</span>`).join("")}${coin ? `<span class="mark coin" data-tip="${esc(`${t("ui.coin", { holder: name(o.coin.holder), domain: domainName(d), seat: name(s) })}. ${t("ref.coin_text")}`)}">◉</span>` : ""}</div>
      </li>`;
    });
    const toMove = o.to_move === s;
    const target = aim.seats.includes(s) ? ` target" data-pick-seat="${s}` : "";
    out.push(`<article class="player ${toMove ? "to-move" : ""} ${s === view.seat ? "me" : ""}${target}" aria-label="${esc(name(s))}" data-testid="player-${s}">
      <h3>${toMove ? `<span class="arrow" aria-label="${esc(t("web.to_move"))}">▶</span> ` : ""}${esc(name(s))}
        <small>${esc(tags.join(" · "))}</small>
        <span class="handcount" aria-label="${esc(t("web.hand_of", { name: name(s), n: o.hand_sizes[s] }))}">🂠 ${o.hand_sizes[s]}</span></h3>
      <ol class="cells">${cells.join("")}</ol>
    </article>`);
  }
  if (!draw($("players"), out.join(""))) return;
  // positions set through the CSSOM: the Content-Security-Policy refuses style attributes
  for (const el of $("players").querySelectorAll("[data-width]")) el.style.width = `${el.dataset.width}%`;
  for (const el of $("players").querySelectorAll("[data-left]")) el.style.left = `${el.dataset.left}%`;
  for (const b of $("players").querySelectorAll("button.cell-act")) {
    b.addEventListener("click", (e) => {
      e.stopPropagation();
      if (b.dataset.aim) actions.pick(b.dataset.domain);
      else actions.startEffects(b.dataset.domain);
    });
  }
  for (const el of $("players").querySelectorAll("[data-pick-seat]")) {
    el.addEventListener("click", () => actions.pick(el.dataset.pickSeat));
  }
}

function cardButton(letter, kind, i, offered) {
  const opt = `${kind} ${letter}`;
  const can = myTurn() && !actions.walking() && offered.has(opt);
  const f = face(letter, { thresholds: view.observation.thresholds });
  const label = kind === "play" ? t("web.play_card", { card: domainName(letter) })
    : kind === "keep" ? t("web.keep_card", { card: domainName(letter) }) : t("web.take_card", { card: domainName(letter) });
  if (!can) {
    return `<li class="card d-${letter} has-face" aria-label="${esc(domainName(letter))}" data-tip="${esc(cardTip(letter))}">${f}</li>`;
  }
  return `<li><button type="button" class="card d-${letter} has-face playable" data-move="${esc(opt)}" data-key="card-${kind}-${letter}-${i}"
    aria-label="${esc(label)}" data-tip="${esc(`${label}. ${cardTip(letter)}`)}">${f}</button></li>`;
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
  if (!draw(box, html)) return;
  for (const b of box.querySelectorAll("button[data-move]")) b.addEventListener("click", () => send(b.dataset.move));
}

function renderDiscard() {
  const d = view.observation.discard;
  const c = countLetters(d);
  const open = $("discard").querySelector("details")?.open ? " open" : "";
  draw($("discard"), `<details${open} data-testid="discard"><summary>${esc(t("web.discard_count", { n: d.length }))}</summary>
    ${d.length ? `<ul class="pile">${LETTERS.split("").filter((l) => c[l]).map((l) => `<li class="d-${l}" data-tip="${esc(cardTip(l))}" data-face-tip="${l}">${icon(l)} ${esc(domainName(l))} × ${c[l]}</li>`).join("")}</ul>` : `<p class="muted">${esc(t("ui.empty"))}</p>`}
  </details>`);
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

// -- the region a decision needs (table.js: on a phone its tab opens once for the decision) --

/** {region, key} when the step of an effect being chosen asks for a seat or a domain of the
 * boards (#players); else null. */
export function wants(table) {
  use(table);
  const aim = actions.targets();
  if (!myTurn() || (!aim.seats.length && !aim.letters.length)) return null;
  return { region: "players", key: `${view.move_number} ${JSON.stringify(aim)}` };
}

// -- the guided mode: the control to use next, and one line on it --

export function guide(table) {
  use(table);
  const o = view.observation;
  if (!myTurn() || o.finished) return null;
  const q = (sel) => document.querySelector(sel);
  if (actions.walking()) {
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

// -- the moment an opponent's move hurts this seat (the shell may play a sound for it) --

let seen = null; // this seat's play area at the last position seen: {move, area}
let prior = null; // and at the one before
let cued = null; // the position already answered

function remember() {
  if (view.seat === null) return;
  const now = { move: view.move_number, area: view.observation.areas[view.seat] };
  if (!seen || seen.move !== now.move) { prior = seen; seen = now; }
}

/** "attacked" when the move just made, by an opponent, hurts this seat: its Inquisition on this
 * seat, an Embargo or a Democracy placed on one of its domains, or an Attack that took a card of
 * its play area (R15-R17, R20); else null. Once per position, and never for the position the
 * page opened at. */
export function cue(table) {
  use(table);
  const me = view.seat;
  const o = view.observation;
  if (me === null || !view.log.length || !prior || prior.move >= view.move_number) return null;
  const key = `${T.gameId}:${view.move_number}`;
  if (cued === key) return null;
  const last = view.log[view.log.length - 1];
  if (last.seat === me || (o.teams && last.seat % 2 === me % 2)) return null;
  const [kind, arg] = last.text.split(" ");
  let hurt = false;
  if (["inquisition", "embargo", "democracy"].includes(kind)) hurt = Number(arg) === me;
  else if (kind === "attack") hurt = countLetters(o.areas[me])[arg] < countLetters(prior.area)[arg];
  if (!hurt) return null;
  cued = key;
  return "attacked";
}
