// The table: live view of one game for one seat (or a spectator), and guided moves.
import {
  LETTERS, announce, api, cardsWords, countLetters, domainName, effectName, esc, icon,
  initLang, onLang, rememberSeat, seatFor, t, currentLang, errorText,
} from "./common.js";

const root = document.getElementById("table");
const gameId = root.dataset.game;
const $ = (id) => document.getElementById(id);

// -- who am I: the token comes in the link's #fragment (never sent to the server in a URL) --
const frag = new URLSearchParams(location.hash.slice(1));
const watching = frag.has("watch");
let seatParam = frag.has("seat") && /^\d$/.test(frag.get("seat")) ? Number(frag.get("seat")) : null;
let token = null;
if (frag.get("token")) {
  token = frag.get("token");
} else if (!watching) {
  const e = seatFor(gameId, seatParam);
  if (e) { token = e.token; seatParam = e.seat; }
}

let view = null;
let walk = null; // the choice being built: {prefix: [tokens], picks: "", pending: bool}
let busy = false;
let sendSeq = 0; // which send() the busy flag belongs to
let lastMove = -1;
let ws = null;
let retry = 0;
let showAllLog = false;

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
const isCards = (tok) => /^[MRESCU]+$/.test(tok);
const isSeat = (tok) => /^\d$/.test(tok);

function name(s) {
  return (view && view.names && view.names[s]) || t("web.seat_n", { n: s + 1 });
}

// -- connection --

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}/ws/${encodeURIComponent(gameId)}`);
  ws.onopen = () => {
    ws.send(JSON.stringify({ token, lang: currentLang() }));
  };
  ws.onmessage = (ev) => {
    const f = JSON.parse(ev.data);
    if (f.type === "state") {
      retry = 0; // answered: the next loss starts the back-off again
      $("error").textContent = "";
      onView(f);
    } else if (f.type === "error") {
      if (f.code === "bad_token") {
        $("error").textContent = t("web.bad_link");
        token = null;
      } else {
        $("error").textContent = errorText(f);
      }
    }
  };
  ws.onclose = (ev) => {
    if (ev.code === 4404) return; // no such game: nothing to come back to
    if (view && !view.observation.finished) $("error").textContent = t("web.connection_lost");
    // back off (0.3 s, 0.6 s, … at most 10 s) with jitter, so that after a server
    // restart its clients do not all come back in the same instant
    retry = Math.min(retry + 1, 6);
    const wait = Math.min(10000, 300 * 2 ** (retry - 1));
    setTimeout(connect, wait / 2 + Math.random() * (wait / 2));
  };
}

function onView(v) {
  // frames of two broadcasts may cross: never go back to an older position
  if (view && v.seat === view.seat && v.move_number < view.move_number) return;
  // a newer position means the move being sent (if any) has been answered
  if (view && v.move_number !== view.move_number) busy = false;
  const changed = !view || v.move_number !== view.move_number || (!!v.pending) !== (!!view.pending);
  view = v;
  if (v.seat !== null && token) {
    rememberSeat(gameId, v.seat, token);
    if (location.hash.includes("token=")) history.replaceState(null, "", `#seat=${v.seat}`);
  }
  if (changed) walk = null;
  root.dataset.moves = String(v.move_number);
  root.dataset.toMove = String(v.observation.to_move);
  root.dataset.status = v.game.status;
  if (v.pending && (!walk || !walk.pending)) {
    walk = { prefix: v.pending.option.split(" ").slice(0, -1), picks: "", pending: true };
  }
  render();
  if (v.move_number !== lastMove) {
    const last = v.log[v.log.length - 1];
    const parts = [];
    if (last && lastMove >= 0) parts.push(`${name(last.seat)}: ${last.words}`);
    parts.push(turnText());
    announce(parts.join(". "));
    lastMove = v.move_number;
  }
}

// -- moves --

async function send(move) {
  if (busy || !view) return;
  busy = true;
  const mine = ++sendSeq;
  const expected = view.move_number;
  $("error").textContent = "";
  const r = await api("POST", `/api/games/${encodeURIComponent(gameId)}/moves`, {
    token, body: { move, expected },
  });
  if (sendSeq === mine) busy = false;
  if (!r.ok) {
    if (view.move_number !== expected) return; // answered by a newer position already
    $("error").textContent = errorText(r.data);
    return;
  }
  if (r.data.pending && view.move_number === expected && !view.pending) {
    // the frame with the revealed cards may come after this answer: show them now
    view = { ...view, options: [], pending: r.data.pending, words: { ...view.words } };
    walk = { prefix: r.data.pending.option.split(" ").slice(0, -1), picks: "", pending: true };
    render();
  }
}

// -- rendering --

function myTurn() {
  return view && view.seat !== null && view.observation.to_move === view.seat;
}

function turnText() {
  const o = view.observation;
  if (o.finished) return t("ui.phase.over");
  const who = o.to_move === view.seat ? t("ui.your_turn") : t("ui.turn_of", { name: name(o.to_move) });
  let phase = t(`ui.phase.${o.phase}`);
  if (o.phase === "draft" && view.options.some((x) => x.startsWith("take"))) phase = t("ui.phase.draft_take");
  return `${who} — ${phase}`;
}

function render() {
  const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  renderStatus();
  renderJoin();
  renderResult();
  renderPlayers();
  renderMine();
  renderActions();
  renderDiscard();
  renderLog();
  if (focusKey) {
    const el = document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (el) { el.focus(); return; }
  }
  if (!document.activeElement || document.activeElement === document.body) {
    // the focused button went away with the move: go on where the next choice is
    const first = document.querySelector("#actions button, #mine button.card");
    if (first && myTurn()) first.focus();
  }
}

function renderStatus() {
  const o = view.observation;
  const deck = o.deck_size ? t("web.deck_era", { n: o.deck_size, era: ERA[o.era] || "" }) : t("web.deck_empty");
  const me = view.seat === null ? t("web.spectator") : t("web.you_are", { name: name(view.seat) });
  const used = o.used_effects.length
    ? `<p>${esc(t("ui.used", { effects: o.used_effects.map((k) => effectName(k)).join(", ") }))}</p>` : "";
  $("status").innerHTML = `
    <p class="turn ${myTurn() ? "mine" : ""}" data-testid="turn">${esc(turnText())}</p>
    <p>${esc(me)} · ${esc(t("ui.turn", { n: o.turn + 1 }))} · <span data-testid="deck">${esc(deck)}</span>
      ${o.last_round ? ` · <strong>${esc(t("ui.last_round"))}</strong>` : ""}</p>
    <p class="muted">${esc(t("ui.thresholds", { l1: o.thresholds[0], l2: o.thresholds[1], heg: o.thresholds[2] }))}</p>
    ${used}`;
}

function renderJoin() {
  const box = $("join");
  if (view.seat === null || view.game.seats[view.seat].joined) { box.hidden = true; return; }
  const typed = box.querySelector("input") ? box.querySelector("input").value : "";
  const hadFocus = document.activeElement && document.activeElement.id === "join-name";
  box.hidden = false;
  box.innerHTML = `<h2>${esc(t("web.join_title"))}</h2>
    <form id="join-form"><label>${esc(t("web.your_name"))} <input id="join-name" maxlength="40" autocomplete="nickname"></label>
    <button type="submit" class="primary">${esc(t("web.join"))}</button></form>`;
  $("join-name").value = typed; // keep what is being typed
  if (hadFocus) $("join-name").focus();
  box.querySelector("form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await api("POST", `/api/games/${encodeURIComponent(gameId)}/join`, {
      token, body: { name: $("join-name").value.trim() || null },
    });
    if (!r.ok) $("error").textContent = errorText(r.data);
    else { box.hidden = true; box.innerHTML = ""; }
  });
}

function markersAt(seat, d) {
  return view.observation.markers.filter((m) => m.seat === seat && m.domain === d);
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
    if (info.kind === "bot") {
      const key = { random: "web.bot_random", ismcts: "web.bot_ismcts" }[info.bot] || "web.bot_greedy";
      tags.push(t(key));
    }
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
      return `<li class="cell d-${d} level-${level}" role="group" aria-label="${esc(label.join(". "))}" data-testid="cell-${s}-${d}">
        <div class="cell-head">${icon(d)}<span class="dname">${esc(domainName(d))}</span></div>
        <div class="count" aria-hidden="true">${n}${level ? `<span class="lv">${esc(t("web.level_short", { n: level }))}</span>` : ""}</div>
        <div class="track" aria-hidden="true"><div class="fill" style="width:${pct(n)}%"></div>
          <span class="tick" style="left:${pct(l1)}%" title="L1"></span><span class="tick" style="left:${pct(l2)}%" title="L2"></span></div>
        <div class="need" aria-hidden="true">${l1}·${l2}·${need}♛</div>
        <div class="marks" aria-hidden="true">${marks.map((m) => `<span class="mark ${m.kind}" title="${esc(markText[marks.indexOf(m)])}">${m.kind === "embargo" ? "⛔E" : "🗳D"}</span>`).join("")}${coin ? `<span class="mark coin" title="${esc(t("term.coin"))}">◉</span>` : ""}</div>
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
}

function cardButton(letter, kind, i) {
  const opt = `${kind} ${letter}`;
  const can = myTurn() && !walk && view.options.includes(opt);
  const label = kind === "play" ? t("web.play_card", { card: domainName(letter) })
    : kind === "keep" ? t("web.keep_card", { card: domainName(letter) }) : t("web.take_card", { card: domainName(letter) });
  if (!can) {
    return `<li class="card d-${letter}" aria-label="${esc(domainName(letter))}">${icon(letter)}<span>${esc(domainName(letter))}</span></li>`;
  }
  return `<li><button type="button" class="card d-${letter} playable" data-move="${esc(opt)}" data-key="card-${kind}-${letter}-${i}"
    aria-label="${esc(label)}" title="${esc(label)}">${icon(letter)}<span>${esc(domainName(letter))}</span></button></li>`;
}

function cardRow(cards, kind) {
  let i = 0;
  return LETTERS.split("").flatMap((l) => Array.from({ length: countLetters(cards)[l] }, () => cardButton(l, kind, i++))).join("");
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
  if (myTurn() && view.options.some((x) => x.startsWith("play "))) html += `<p class="hint">${esc(t("web.play_hint"))}</p>`;
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
  if (myTurn() && !walk && view.options.every((o) => /^(play|keep|take) /.test(o))) {
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
  for (const o of view.options) {
    const k = o.split(" ")[0];
    if (!["play", "keep", "take", "end"].includes(k) && !kinds.includes(k)) kinds.push(k);
  }
  kinds.sort((a, b) => EFFECTS.indexOf(a) - EFFECTS.indexOf(b));
  let html = "";
  if (kinds.length) {
    html += `<h2>${esc(t("web.effects"))}</h2><ul class="effects">`;
    for (const k of kinds) {
      html += `<li><button type="button" class="effect" data-kind="${esc(k)}" data-key="effect-${esc(k)}" aria-describedby="help-${esc(k)}">
        <strong>${esc(effectName(k))}</strong> <span class="tag">${effectTag(k)}</span></button>
        <p class="help" id="help-${esc(k)}">${esc(t(`help.${k}`))}</p></li>`;
    }
    html += "</ul>";
  }
  if (view.options.includes("end")) {
    html += `<button type="button" class="primary end" data-move="end" data-key="end">${esc(t("move.end"))}</button>`;
  }
  box.innerHTML = html;
  for (const b of box.querySelectorAll("button.effect")) {
    b.addEventListener("click", () => { walk = { prefix: [b.dataset.kind], picks: "", pending: false }; render(); });
  }
  for (const b of box.querySelectorAll("button[data-move]")) b.addEventListener("click", () => send(b.dataset.move));
}

// -- walking through a multi-choice effect --

function candidates() {
  const base = walk.pending ? view.pending.choices : view.options;
  const p = walk.prefix;
  return base.map((o) => o.split(" ")).filter((c) => c.length >= p.length && p.every((x, i) => c[i] === x));
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
  // follow the only way on as long as there is one
  for (;;) {
    const cands = candidates();
    const i = walk.prefix.length;
    const complete = cands.some((c) => c.length === i);
    const next = [...new Set(cands.filter((c) => c.length > i).map((c) => c[i]))];
    if (!complete && next.length === 1 && next[0] !== "?" && !walk.picks) { walk.prefix.push(next[0]); continue; }
    break;
  }
  const cands = candidates();
  const i = walk.prefix.length;
  const complete = cands.some((c) => c.length === i);
  const next = [...new Set(cands.filter((c) => c.length > i).map((c) => c[i]))];
  const kind = walk.prefix[0];
  let html = `<h2>${esc(effectName(kind))} <span class="tag">${effectTag(kind)}</span></h2><p class="help">${esc(t(`help.${kind}`))}</p>`;
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
  if (next.length === 1 && next[0] === "?") {
    body = `<p class="warn">${esc(t("web.reveal_warning"))}</p>`;
    buttons.push(`<button type="button" class="primary" data-send="${esc([...walk.prefix, "?"].join(" "))}" data-key="commit">${esc(t("web.commit"))}</button>`);
  } else if (next.length && next.every(isSeat)) {
    body = `<p>${esc(t("web.choose_seat"))}</p>`;
    for (const s of next) buttons.push(`<button type="button" data-tok="${s}" data-key="tok-${s}">${esc(name(Number(s)))}</button>`);
  } else if (next.length && next.every(isCards) && next.every((x) => x.length === 1)) {
    body = `<p>${esc(t("web.step.domain"))}</p>`;
    for (const l of LETTERS) if (next.includes(l)) buttons.push(`<button type="button" class="card d-${l}" data-tok="${l}" data-key="tok-${l}">${icon(l)} ${esc(domainName(l))}</button>`);
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
        buttons.push(`<button type="button" class="card d-${l}" data-pick="${l}" data-key="pick-${l}">${icon(l)} ${esc(domainName(l))} <small>×${left}</small></button>`);
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
      else if (b.dataset.cancel) { walk = null; render(); }
      else if (b.dataset.pick) { walk.picks += b.dataset.pick; render(); }
      else if (b.dataset.unpick) { walk.picks = walk.picks.slice(0, -1); render(); }
      else if (b.dataset.tok) { walk.prefix.push(b.dataset.tok); walk.picks = ""; render(); }
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
    ${d.length ? `<ul class="pile">${LETTERS.split("").filter((l) => c[l]).map((l) => `<li class="d-${l}">${icon(l)} ${esc(domainName(l))} × ${c[l]}</li>`).join("")}</ul>` : `<p class="muted">${esc(t("ui.empty"))}</p>`}
  </details>`;
}

function renderLog() {
  const log = view.log;
  const shown = showAllLog ? log : log.slice(-12);
  const items = shown.map((e, j) => {
    const n = log.length - shown.length + j + 1;
    return `<li value="${n}"><strong>${esc(name(e.seat))}</strong>: ${esc(e.words)} <code title="${esc(t("web.notation"))}">${esc(e.text)}</code></li>`;
  });
  $("log").innerHTML = `<h2>${esc(t("web.move_log"))}</h2>
    ${log.length ? `<ol class="moves" data-testid="log">${items.join("")}</ol>` : `<p class="muted">${esc(t("ui.no_moves"))}</p>`}
    ${log.length > 12 ? `<button type="button" id="log-toggle" data-key="log-toggle">${esc(showAllLog ? t("ui.recent") : t("ui.all_moves"))}</button>` : ""}`;
  const b = $("log-toggle");
  if (b) b.addEventListener("click", () => { showAllLog = !showAllLog; renderLog(); });
}

function renderResult() {
  const box = $("result");
  const r = view.result;
  if (!r) { box.hidden = true; return; }
  box.hidden = false;
  const o = view.observation;
  let table = "";
  if (r.victory === "majority") {
    const best = LETTERS.split("").map((l) => Math.max(...o.areas.map((a) => countLetters(a)[l])));
    const head = LETTERS.split("").map((l) => `<th scope="col">${icon(l, "icon small")} ${esc(domainName(l))}</th>`).join("");
    const rows = o.areas.map((a, s) => {
      const c = countLetters(a);
      const cells = LETTERS.split("").map((l, d) => {
        const top = c[l] > 0 && c[l] === best[d];
        return `<td class="${top ? "top" : ""}">${c[l]}${top ? " ✓" : ""}</td>`;
      }).join("");
      const pts = o.teams ? "" : (o.points ? o.points[s] : "");
      return `<tr class="${r.winners.includes(s) ? "won" : ""}"><th scope="row">${esc(name(s))}</th>${cells}<td>${pts}</td></tr>`;
    }).join("");
    const teamRows = o.teams && o.points ? [0, 1].map((tm) => `<tr><th scope="row">${esc(t("ui.team_name", { seats: `${"AB"[tm]} (${name(tm)} + ${name(tm + 2)})` }))}</th><td colspan="6"></td><td>${o.points[tm]}</td></tr>`).join("") : "";
    table = `<table class="majority" data-testid="majority"><caption>${esc(t("term.majorities"))}</caption>
      <thead><tr><th scope="col">${esc(t("ui.seat"))}</th>${head}<th scope="col">${esc(t("ui.points"))}</th></tr></thead>
      <tbody>${rows}${teamRows}</tbody></table><p class="muted">${esc(t("ui.majority_legend"))}</p>`;
  }
  const rematch = view.seat !== null
    ? `<button type="button" id="rematch" data-key="rematch">${esc(view.game.rematch_id ? t("web.open_rematch") : t("web.rematch"))}</button>` : "";
  box.innerHTML = `<h2>${esc(t("ui.game_over"))}</h2>
    <p class="winners" data-testid="winners">${esc(r.winners_text)}</p>
    <p>${esc(r.why)}</p>${r.tiebreak ? `<p>${esc(r.tiebreak)}</p>` : ""}${table}
    <p><a class="button" href="/api/games/${encodeURIComponent(gameId)}/record" download data-testid="download">${esc(t("web.download_record"))}</a> ${rematch}</p>`;
  const b = $("rematch");
  if (b) {
    b.addEventListener("click", async () => {
      const res = await api("POST", `/api/games/${encodeURIComponent(gameId)}/rematch`, { token });
      if (res.ok) {
        rememberSeat(res.data.id, res.data.seat, res.data.token);
        location.href = `/game/${res.data.id}#seat=${res.data.seat}`;
      } else if (view.game.rematch_id && seatFor(view.game.rematch_id, view.seat)) {
        location.href = `/game/${view.game.rematch_id}#seat=${view.seat}`;
      } else {
        $("error").textContent = errorText(res.data);
      }
    });
  }
}

onLang((code) => {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ lang: code }));
  if (view) render();
});
await initLang();
connect();
