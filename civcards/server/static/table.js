// The table: the live view of one game for one seat (or a spectator). This shell is the same
// for every game: the connection, sending moves, joining, the move log and the frame of the
// result. The game's own module (the page's data-module, e.g. games/NAME.js) draws the board
// and guides the choices; it exports:
//   render(table)        fill #status, #players, #mine, #actions and #discard
//   turnText(table)      whose turn it is, in words (the status line, the screen reader)
//   onView(table, changed)  a new view arrived (changed: another position or pending step)
//   resultHTML(table)    (optional) the game's words under the winners of a finished game
//   onExpansion(table, expansion)  (optional) a step that hides nothing was expanded
//   guide(table)         (optional) the guided mode's {el, text}: the control to use next
//   wants(table)         (optional) {region, key}: the region (an element's id) the decision now
//                        needs, on a phone its tab opened once for each key
// `table` gives the module the view and what it may do (send a move, render again, names).
import {
  announce, api, currentLang, errorText, esc, initLang, onLang, rememberSeat, seatFor, t,
} from "./common.js";
import { renderClock } from "./clock.js";
import { mountSettings, playSound, setSound, soundOn, turnChanged } from "./alerts.js";
import { guideTable, handsHTML, initTips, onGuide, outcomeHTML, refreshTip, renderStanding } from "./help.js";
import { play as playFlip, snapshot as flipSnapshot } from "./flip.js";

// The rules page of this game's own set-up (civ4: its card set's numbers and cards).
function rulesHref(g) {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(g.options || {})) {
    if (value !== null && value !== undefined) q.append("option", `${name}=${value}`);
  }
  const query = q.toString();
  return `/rules/${encodeURIComponent(g.game)}${query ? `?${query}` : ""}`;
}

const root = document.getElementById("table");
const gameId = root.dataset.game;
const $ = (id) => document.getElementById(id);
const game = await import(root.dataset.module);

// -- who am I: an invitation comes in the link's #fragment (never sent to the server in a
// URL); it is claimed once for the seat's own token, kept in this browser's localStorage --
const frag = new URLSearchParams(location.hash.slice(1));
const watching = frag.has("watch");
let seatParam = frag.has("seat") && /^\d+$/.test(frag.get("seat")) ? Number(frag.get("seat")) : null;
let token = null;
let badLink = false;

async function whoAmI() {
  const invitation = frag.get("token");
  if (invitation) {
    const r = await api("POST", `/api/games/${encodeURIComponent(gameId)}/claim`, { token: invitation });
    if (r.ok) {
      token = r.data.token;
      seatParam = r.data.seat;
      rememberSeat(gameId, seatParam, token);
    } else {
      badLink = !seatFor(gameId, seatParam); // used here before: the seat is remembered
    }
    // the invitation is spent (or dead): out of the address bar and the history
    history.replaceState(null, "", seatParam !== null ? `#seat=${seatParam}` : "#watch");
  }
  if (!token && !watching) {
    const e = seatFor(gameId, seatParam);
    if (e) { token = e.token; seatParam = e.seat; }
  }
}

let view = null;
let busy = false;
let sendSeq = 0; // which send() the busy flag belongs to
let lastMove = -1;
let ws = null;
let retry = 0;
let showAllLog = false;

function name(s) {
  return (view && view.names && view.names[s]) || t("web.seat_n", { n: s + 1 });
}

function myTurn() {
  return !!view && view.seat !== null && view.game.to_move === view.seat;
}

/** What a game's module gets: the view, and what it may do. */
const table = {
  get view() { return view; },
  gameId,
  name,
  myTurn,
  /** Send a move (or a step) with the steps that hide nothing it is below. */
  send: (move, steps = []) => send(move, steps),
  render: () => render(),
  /** The words of a choice's text (from the server), else null. */
  words: (text) => (view && view.words && view.words[text]) || null,
};

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
      receive(f);
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
    if (view && view.game.status !== "finished") $("error").textContent = t("web.connection_lost");
    // back off (0.3 s, 0.6 s, … at most 10 s) with jitter, so that after a server
    // restart its clients do not all come back in the same instant
    retry = Math.min(retry + 1, 6);
    const wait = Math.min(10000, 300 * 2 ** (retry - 1));
    setTimeout(connect, wait / 2 + Math.random() * (wait / 2));
  };
}

// -- the pace: the views of opponents' moves (a bot's turn comes as several frames at once)
// are shown one by one, each for PACE ms, with a control to skip to the latest; the seat's own
// moves are never held (nor is a view after a skip), and a decision shows as soon as the
// moves before it have been seen. PACE: localStorage["civcards.pace"] or ?pace= in ms (0:
// no pace; the browser tests set 0). --
const DEFAULT_PACE = 700;

function readPace() {
  let raw = new URLSearchParams(location.search).get("pace");
  try { if (raw === null) raw = localStorage.getItem("civcards.pace"); } catch { /* private mode */ }
  const n = raw === null || raw === "" ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? Math.min(n, 10000) : DEFAULT_PACE;
}

const PACE = readPace();
let queue = []; // frames received, not shown yet (oldest first)
let holdUntil = 0; // the time (performance.now) until which the move shown stays on screen
let paceTimer = null;

/** Whether frame `v` (after `prev`) carries a move of the viewer's own seat. */
function ownMove(v, prev) {
  if (v.seat === null || !prev) return false;
  return v.log.slice(prev.log.length).some((e) => e.seat === v.seat);
}

function receive(v) {
  const last = queue.length ? queue[queue.length - 1] : view;
  // frames of two broadcasts may cross: never go back to an older position
  if (last && v.seat === last.seat && v.move_number < last.move_number) return;
  if (!view || PACE <= 0 || ownMove(v, last)) { dropQueue(); onView(v); return; }
  // nothing waiting: a new position once the one shown has had its time, the same one at once
  // (a step of a move, a clock, a join)
  if (!queue.length && (performance.now() >= holdUntil || v.move_number === view.move_number)) {
    onView(v);
    return;
  }
  // a frame of the same position (a join, a clock) replaces the one queued before it
  if (queue.length && last.move_number === v.move_number) queue[queue.length - 1] = v;
  else queue.push(v);
  schedule();
  renderPace();
}

function schedule() {
  if (paceTimer !== null || !queue.length) return;
  paceTimer = setTimeout(() => {
    paceTimer = null;
    try {
      if (queue.length) onView(queue.shift());
    } finally { // a view that failed to draw does not stop the ones after it
      renderPace();
      schedule();
    }
  }, Math.max(0, holdUntil - performance.now()));
}

function dropQueue() {
  if (paceTimer !== null) { clearTimeout(paceTimer); paceTimer = null; }
  queue = [];
  renderPace();
}

/** Skip: the latest position at once (the moves between are in the log). */
function skipMoves() {
  const latest = queue[queue.length - 1];
  const skip = $("skip-moves");
  if (skip && document.activeElement === skip) skip.blur(); // render() puts focus on the next choice
  dropQueue();
  if (latest) onView(latest);
  holdUntil = 0;
}

function renderPace() {
  const box = $("pace");
  if (!box) return;
  root.dataset.queued = String(queue.length);
  if (!queue.length) { box.hidden = true; return; }
  box.hidden = false;
  $("skip-moves").textContent = `${t("web.pace.skip")} (${queue.length})`;
}

function onView(v) {
  // a newer position means the move being sent (if any) has been answered
  const moved = !!view && v.move_number !== view.move_number;
  if (moved) {
    busy = false;
    holdUntil = performance.now() + PACE;
  }
  const changed = !view || v.move_number !== view.move_number || (!!v.pending) !== (!!view.pending);
  view = v;
  if (v.seat !== null && token) {
    rememberSeat(gameId, v.seat, token);
    if (location.hash.includes("token=")) history.replaceState(null, "", `#seat=${v.seat}`);
  }
  root.dataset.moves = String(v.move_number);
  root.dataset.toMove = String(v.game.to_move);
  root.dataset.status = v.game.status;
  const wasPlaying = root.classList.contains("playing");
  root.classList.toggle("playing", v.game.status !== "finished" && !v.result); // one screen (app.css)
  if (wasPlaying !== root.classList.contains("playing")) setupTabs();
  game.onView(table, changed);
  render();
  mountSettings(document.querySelector("#table .side"), rulesHref(v.game));
  turnChanged(myTurn() && !v.result, v.game.title); // the turn's sound (alerts.js)
  if (v.move_number !== lastMove) {
    const last = v.log[v.log.length - 1];
    const parts = [];
    if (last && lastMove >= 0) parts.push(`${name(last.seat)}: ${last.words}`);
    parts.push(game.turnText(table));
    announce(parts.join(". "));
    lastMove = v.move_number;
  }
  if (moved) holdUntil = performance.now() + PACE; // on screen PACE ms from when it was drawn
}

// -- the sounds (off at first: the header's toggle): the turn's (alerts.js) and an attack on
// the viewer's own seat, which the game's module tells (cue(table) === "attacked") --
let lastCue = null; // the cue at the last render: a sound marks its coming, once

function cueSound() {
  const cue = game.cue ? game.cue(table) : null;
  if (cue === "attacked" && lastCue !== "attacked") playSound("attack");
  lastCue = cue;
}

const SPEAKER = `<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M3 9h4l5-4v14l-5-4H3z"/>`;

function mountSound() {
  const header = document.querySelector("header.top");
  if (!header) return;
  const b = document.createElement("button");
  b.type = "button";
  b.id = "sound-toggle";
  b.className = "sound-toggle";
  b.dataset.testid = "sound-toggle";
  const draw = () => {
    const on = soundOn();
    b.setAttribute("aria-pressed", String(on));
    const waves = on
      ? `<path d="M15 9.5a3.5 3.5 0 0 1 0 5M17.5 7a7 7 0 0 1 0 10" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>`
      : `<path d="M15.5 9.5l5 5M20.5 9.5l-5 5" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>`;
    b.innerHTML = `${SPEAKER}${waves}</svg><span>${esc(t("web.sounds"))}</span>`;
  };
  b.addEventListener("click", () => { setSound(!soundOn()); draw(); });
  draw();
  onLang(draw);
  header.insertBefore(b, header.querySelector(".lang"));
}

// -- moves --

async function send(move, steps = []) {
  if (busy || !view) return;
  const expected = view.move_number; // the position the player chose in
  if (queue.length) skipMoves(); // moves were still coming in: the latest, at once
  busy = true;
  const mine = ++sendSeq;
  $("error").textContent = "";
  const r = await api("POST", `/api/games/${encodeURIComponent(gameId)}/moves`, {
    token, body: { move, expected, steps, lang: currentLang() },
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
    game.onView(table, false);
    render();
  } else if (r.data.expansion && view.move_number === expected && game.onExpansion) {
    view = { ...view, words: { ...view.words, ...(r.data.expansion.words || {}) } };
    game.onExpansion(table, r.data.expansion);
    render();
  }
}

// -- rendering --

let resultSeen = false; // the end of the game was brought to the player

// -- the last move, seen: what it changed on the boards, the hand and the markets (the
// elements named by data-testid) stays marked until the next move (app.css: .moved) --
let drawnMove = -1; // the position last drawn
let moved = new Set(); // the data-testid of what the last move changed

// the objects of the table (a reason why a choice is missing is not one)
const OBJECTS = ":is(#players, #mine) [data-testid]:not([data-testid^='why-'])";

// what an object shows of the game: its text, less its buttons and reasons (what the seat
// may do changes with the turn, not with the move)
function sig(el) {
  let s = "";
  const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = w.nextNode(); n; n = w.nextNode()) {
    if (!n.parentElement.closest("button, [data-testid^='why-'], .sr-only")) s += n.data;
  }
  return s;
}

function signatures() {
  const m = new Map();
  for (const el of root.querySelectorAll(OBJECTS)) m.set(el.dataset.testid, sig(el));
  return m;
}

function markMoved(before) {
  if (before) {
    const all = before.size ? [...root.querySelectorAll(OBJECTS)] : [];
    const added = all.filter((el) => !before.has(el.dataset.testid));
    const changed = all.filter((el) => before.has(el.dataset.testid) && before.get(el.dataset.testid) !== sig(el));
    // a new object as a whole; else the innermost of what changed (a plot, not the empire)
    const inNew = (el) => added.some((o) => o !== el && o.contains(el));
    const news = added.filter((el) => !inNew(el));
    const inner = changed.filter((el) => !inNew(el) && !changed.some((o) => o !== el && el.contains(o)) && !news.some((o) => el.contains(o)));
    moved = new Set([...news, ...inner].map((el) => el.dataset.testid));
  }
  for (const el of root.querySelectorAll("[data-testid]")) {
    const on = moved.has(el.dataset.testid);
    el.classList.toggle("moved", on);
    if (on && before) el.classList.add("moved-in"); // animated once, as the move comes in
  }
}

function render() {
  const t0 = performance.now();
  const focusKey = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  const before = view.move_number !== drawnMove ? signatures() : null;
  // one move's coming, paced (not a jump over several, nor the tests' pace 0): it glides (flip.js)
  const flip = before && PACE > 0 && view.move_number === drawnMove + 1 ? flipSnapshot(root) : null;
  drawnMove = view.move_number;
  game.render(table);
  markMoved(before);
  if (flip) playFlip(flip, root);
  renderJoin();
  renderClock(table, token); // the clocks, takeovers, resign and votes (clock.js)
  renderResult();
  renderLog();
  renderStanding(view, name);
  syncTabs();
  followDecision();
  guideTable(table, game);
  refreshTip();
  root.dataset.renderMs = (performance.now() - t0).toFixed(2); // scripts/render_time.py reads it
  cueSound();
  if (view.result && !resultSeen) {
    // the game has ended: its end is shown where the player is (focus, and into view)
    resultSeen = true;
    $("result").tabIndex = -1;
    $("result").focus();
    return;
  }
  if (focusKey) {
    const el = document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
    if (el) { el.focus(); return; }
  }
  if (!document.activeElement || document.activeElement === document.body) {
    // the focused button went away with the move: go on where the next choice is
    const first = document.querySelector("#actions button:not([disabled]), #mine button.card:not([disabled])");
    if (first && myTurn()) first.focus();
  }
}

function renderJoin() {
  const box = $("join");
  if (view.seat === null || view.game.seats[view.seat].joined) { box.hidden = true; return; }
  const typed = box.querySelector("input") ? box.querySelector("input").value : "";
  const hadFocus = document.activeElement && document.activeElement.id === "join-name";
  box.hidden = false;
  // names are fixed once the game has started: then the seat is only taken
  const named = view.move_number === 0 && !view.pending;
  const field = named
    ? `<label>${esc(t("web.your_name"))} <input id="join-name" maxlength="64" autocomplete="nickname"></label>` : "";
  box.innerHTML = `<h2>${esc(t("web.join_title"))}</h2>
    <form id="join-form">${field}
    <button type="submit" class="primary">${esc(t("web.join"))}</button></form>`;
  if (named) {
    $("join-name").value = typed; // keep what is being typed
    if (hadFocus) $("join-name").focus();
  }
  box.querySelector("form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const r = await api("POST", `/api/games/${encodeURIComponent(gameId)}/join`, {
      token, body: { name: named ? ($("join-name").value.trim() || null) : null },
    });
    if (!r.ok) $("error").textContent = errorText(r.data);
    else { box.hidden = true; box.innerHTML = ""; }
  });
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
    ${log.length > 12 ? `<button type="button" id="log-toggle" data-key="log-toggle">${esc(showAllLog ? t("ui.recent") : t("ui.all_moves"))}</button>` : ""}
    ${hintsHTML()}`;
  const b = $("log-toggle");
  if (b) b.addEventListener("click", () => { showAllLog = !showAllLog; renderLog(); });
  const h = $("hint");
  if (h) h.addEventListener("click", askHint);
}

// -- hints (a game created with hints allowed): the bot's suggested move for my own seat;
// everyone sees in the log that a hint was used --
let hint = null; // {move_number, move, words}

function hintsHTML() {
  const used = (view.hints_used || []).map((h) => `<li>${esc(t("web.hint_used", { name: name(h.seat), n: h.index + 1 }))}</li>`);
  const list = used.length ? `<ul class="hints-used" data-testid="hints-used">${used.join("")}</ul>` : "";
  if (!view.game.hints || !myTurn()) return list;
  const shown = hint && hint.move_number === view.move_number
    ? `<p class="hint" data-testid="hint-text" role="status">${esc(t("web.hint_is", { words: hint.words }))} <code>${esc(hint.move)}</code></p>` : "";
  return `${list}<p><button type="button" id="hint" data-key="hint" data-testid="hint">${esc(t("web.hint"))}</button></p>${shown}`;
}

async function askHint() {
  const r = await api("POST", `/api/games/${encodeURIComponent(gameId)}/hint?lang=${currentLang()}`, { token });
  if (!r.ok) { $("error").textContent = errorText(r.data); return; }
  hint = r.data;
  renderLog();
  announce(t("web.hint_is", { words: hint.words }));
}

function renderResult() {
  const box = $("result");
  const r = view.result;
  if (!r) { box.hidden = true; return; }
  box.hidden = false;
  const more = game.resultHTML ? game.resultHTML(table) : (r.why ? `<p>${esc(r.why)}</p>` : "");
  const rematch = view.seat !== null
    ? `<button type="button" id="rematch" data-key="rematch">${esc(view.game.rematch_id ? t("web.open_rematch") : t("web.rematch"))}</button>` : "";
  box.innerHTML = `<h2>${esc(t("ui.game_over"))}</h2>
    ${outcomeHTML(view)}<p class="winners" data-testid="winners">${esc(r.winners_text)}</p>
    ${more}${handsHTML(view, name)}
    <p><a class="button" href="/api/games/${encodeURIComponent(gameId)}/record" download data-testid="download">${esc(t("web.download_record"))}</a> <a class="button" href="/review/${encodeURIComponent(gameId)}" data-testid="review-link">${esc(t("web.review.open"))}</a> ${rematch}</p>`;
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
  // the moves still to show are in the language before: the latest at once (its words come
  // again in the new language)
  if (queue.length) skipMoves();
  if (view) render();
});
onGuide(() => { if (view) render(); });
// -- a phone's tabs (table.html, app.css): during play one region at a time (the hand with the
// markets or tracks, the boards, who leads with the log), the status above and the action bar
// fixed under them; WAI-ARIA tabs (the arrows, Home and End move between them and select). Only
// where the tabs are shown are the regions tab panels. --
const tabList = document.querySelector(".tabs");
const tabs = tabList ? [...tabList.querySelectorAll('[role="tab"]')] : [];
const phone = matchMedia("(max-width: 600px)");
let tabNow = "mine";

function selectTab(which, focus) {
  tabNow = which;
  for (const b of tabs) {
    const on = b.dataset.tab === which;
    b.setAttribute("aria-selected", String(on));
    b.tabIndex = on ? 0 : -1;
    if (on && focus) b.focus();
  }
  root.dataset.tab = which;
}

function setupTabs() {
  if (!tabList) return;
  const on = phone.matches && root.classList.contains("playing");
  tabList.hidden = !on;
  for (const b of tabs) {
    const panel = document.getElementById(b.getAttribute("aria-controls"));
    if (!panel) continue;
    if (on) {
      panel.setAttribute("role", "tabpanel");
      panel.setAttribute("aria-labelledby", b.id);
    } else {
      panel.removeAttribute("role");
      panel.removeAttribute("aria-labelledby");
    }
  }
  if (on) syncTabs();
  else delete root.dataset.tab;
}

/** A region the game hides (a spectator's hand) has no tab; the one selected is shown. */
function syncTabs() {
  if (!tabList || tabList.hidden) return;
  for (const b of tabs) {
    const panel = document.getElementById(b.getAttribute("aria-controls"));
    b.hidden = !panel || panel.hidden;
  }
  const shown = tabs.filter((b) => !b.hidden);
  selectTab(shown.some((b) => b.dataset.tab === tabNow) || !shown.length ? tabNow : shown[0].dataset.tab, false);
}

// a decision taken in another tab's region (civ4: the plot where to build; CIV: a seat's board)
// opens that tab once; the tab the player chooses afterwards is kept over the redraws. When the
// decision is over (taken, cancelled), the tab the player was on comes back, unless they chose
// one since.
let followed = null; // the key of the decision whose tab was opened
let back = null; // the tab to come back to
function followDecision() {
  if (!tabList || tabList.hidden || !game.wants) return;
  const w = game.wants(table);
  if (!w) {
    if (back !== null) selectTab(back, false);
    back = null;
    followed = null; // (the same choice made again is a new decision)
    return;
  }
  if (w.key === followed) return;
  followed = w.key;
  const b = tabs.find((x) => x.getAttribute("aria-controls") === w.region && !x.hidden);
  if (b && b.dataset.tab !== tabNow) {
    if (back === null) back = tabNow;
    selectTab(b.dataset.tab, false);
  }
}

/** The player selects a tab (a click, the arrows, the skip link). */
function chooseTab(which, focus) {
  back = null;
  selectTab(which, focus);
}

for (const b of tabs) b.addEventListener("click", () => chooseTab(b.dataset.tab, true));
if (tabList) {
  tabList.addEventListener("keydown", (e) => {
    const shown = tabs.filter((b) => !b.hidden);
    const i = shown.findIndex((b) => b.dataset.tab === tabNow);
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: shown.length - 1 }[e.key];
    if (next === undefined || !shown.length) return;
    e.preventDefault();
    chooseTab(shown[(next + shown.length) % shown.length].dataset.tab, true);
  });
}
phone.addEventListener("change", setupTabs);
// the skip link (table.html) goes to the hand (on a phone, its tab); the address keeps its #seat=
const skip = document.querySelector('.skip[href="#mine"]');
if (skip) {
  skip.addEventListener("click", (e) => {
    e.preventDefault();
    if (tabList && !tabList.hidden) chooseTab("mine", false);
    $("mine").focus();
  });
}
// a phone's action bar is fixed at the bottom (app.css): the page keeps room for it
new ResizeObserver(() => {
  const bar = $("actions");
  const fixed = getComputedStyle(bar).position === "fixed" && !bar.hidden;
  document.documentElement.style.setProperty("--bar", `${fixed ? bar.offsetHeight : 0}px`);
}).observe($("actions"));
$("skip-moves").addEventListener("click", skipMoves);
mountSound();
initTips();
await initLang();
await whoAmI();
if (badLink) $("error").textContent = t("web.bad_link");
connect();
