// Rules at hand, at the table and on the rules pages (issue 21). Nothing here knows a game:
//   tips     every element with data-tip="…" explains itself: on hover, on keyboard focus, and
//            on a long press on a phone (the press shows the tip instead of clicking); the tip
//            is a small popover (#tip, role=tooltip) the element points at with aria-describedby;
//   guide    the guided mode: the control to use next is highlighted and a one-line hint sits
//            by it; on in a guided first game (started from a rules page) and for a player who
//            has never finished a game in this browser, off otherwise; the player's own choice
//            (the guide turned off, or on in the settings) is remembered in localStorage;
//   standing the live panel of who leads (the game's web_view gives it: view.board.standing);
//   ending   plainly whether you won or lost and why, and every final hand.
// On a rules page (/rules/...) it also starts a guided game against a bot.
import { api, esc, initLang, onLang, rememberSeat, t } from "./common.js";

// -- tips ---------------------------------------------------------------------------------------

let tipBox = null;
let tipFor = null;
let pressTimer = null;
let pressed = false;
let suppressUntil = 0;
const LONG_PRESS_MS = 450;

function box() {
  if (!tipBox) {
    tipBox = document.createElement("div");
    tipBox.id = "tip";
    tipBox.className = "tip";
    tipBox.setAttribute("role", "tooltip");
    tipBox.hidden = true;
    tipBox.dataset.testid = "tip";
    document.body.appendChild(tipBox);
  }
  return tipBox;
}

/** `el`'s aria-describedby with the tip's id added (`on`) or taken away, its own ids kept. */
function describedBy(el, on) {
  const ids = (el.getAttribute("aria-describedby") || "").split(/\s+/).filter((x) => x && x !== "tip");
  if (on) ids.push("tip");
  if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
  else el.removeAttribute("aria-describedby");
}

/** Show the tip of `el` (its data-tip) by it, inside the page's width. */
export function showTip(el) {
  const text = el && el.dataset ? el.dataset.tip : "";
  if (!text) return;
  const b = box();
  if (tipFor && tipFor !== el) describedBy(tipFor, false);
  b.textContent = text;
  b.hidden = false;
  tipFor = el;
  describedBy(el, true);
  placeTip();
}

/** The tip by its element: below it, or above it where there is no room below. */
function placeTip() {
  const b = box();
  const el = tipFor;
  if (!el) return;
  // measured where it has the page's whole width (its last place would narrow it)
  b.style.left = "0px";
  b.style.top = "0px";
  const r = el.getBoundingClientRect();
  const width = document.documentElement.clientWidth;
  const w = b.offsetWidth;
  const h = b.offsetHeight;
  const left = Math.max(4, Math.min(r.left, width - w - 4));
  const below = r.bottom + 6 + h < window.innerHeight || r.top < h + 6;
  b.style.left = `${left + window.scrollX}px`;
  b.style.top = `${(below ? r.bottom + 6 : r.top - h - 6) + window.scrollY}px`;
}

export function hideTip() {
  if (tipBox) tipBox.hidden = true;
  if (tipFor) describedBy(tipFor, false);
  tipFor = null;
}

// what a keyboard reaches by itself; any other element with a tip is made focusable (Tab
// shows its tip as a hover does)
const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

function tabbable(root) {
  const all = root.matches && root.matches("[data-tip]") ? [root] : [];
  for (const el of [...all, ...root.querySelectorAll("[data-tip]")]) {
    if (!el.matches(FOCUSABLE)) el.tabIndex = 0;
  }
}

/** Listen once for the whole page (the tables redraw their elements: events are delegated). */
export function initTips() {
  if (document.body.dataset.tips) return;
  document.body.dataset.tips = "1";
  const target = (e) => (e.target && e.target.closest ? e.target.closest("[data-tip]") : null);
  let shownAt = 0; // when a tip last opened by a pointer or the keyboard
  document.addEventListener("pointerover", (e) => {
    if (e.pointerType === "touch") return;
    const el = target(e);
    if (el) { showTip(el); shownAt = performance.now(); }
    else if (tipFor && !(e.target.closest && e.target.closest("#tip"))) hideTip();
  });
  document.addEventListener("focusin", (e) => {
    const el = target(e);
    if (el) { showTip(el); shownAt = performance.now(); } else hideTip();
  });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideTip(); });
  // the window changed its size (the table's regions moved): the tip goes along, inside it
  window.addEventListener("resize", () => { if (tipFor) placeTip(); });
  // the page moved: the tip would stand over other text, so it goes (the scroll that brings an
  // element into view, focused or pointed at, moves its tip along instead: that scroll's event
  // comes a frame after the tip opened); inner scrolling boxes too
  document.addEventListener("scroll", () => {
    if (!tipFor) return;
    if (document.contains(tipFor) && performance.now() - shownAt < 400) placeTip();
    else hideTip();
  }, { passive: true, capture: true });
  window.addEventListener("resize", hideTip); // (a phone turned: the tip would stand out of the page)
  tabbable(document.body);
  new MutationObserver((changes) => {
    for (const c of changes) {
      if (c.type === "attributes") tabbable(c.target);
      else for (const n of c.addedNodes) if (n.nodeType === 1) tabbable(n);
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-tip"] });
  // a long press on a phone shows the tip, and is not a click
  document.addEventListener("pointerdown", (e) => {
    clearTimeout(pressTimer);
    pressed = false;
    if (e.pointerType === "mouse") return;
    const el = target(e);
    if (!el) { hideTip(); return; }
    // (the scroll that showing its tip may cause moves the tip along, as for a hover's)
    pressTimer = setTimeout(() => { pressed = true; showTip(el); shownAt = performance.now(); }, LONG_PRESS_MS);
  });
  for (const ev of ["pointerup", "pointercancel"]) {
    document.addEventListener(ev, () => {
      clearTimeout(pressTimer);
      if (pressed) suppressUntil = performance.now() + 700; // the clicks the press ends with
      pressed = false;
    });
  }
  document.addEventListener("click", (e) => {
    if (pressed || performance.now() < suppressUntil) { e.preventDefault(); e.stopPropagation(); }
  }, true);
  document.addEventListener("contextmenu", (e) => { if (target(e)) e.preventDefault(); });
}

/** After a redraw: a tip whose element went away goes too. */
export function refreshTip() {
  if (tipFor && !document.contains(tipFor)) hideTip();
}

// -- the guide ------------------------------------------------------------------------------------

const GUIDE_KEY = "civcards.guide"; // the player's own choice: "on", "off" or none
const GUIDED_KEY = "civcards.guide.game"; // the guided first game (its id)
const FINISHED_KEY = "civcards.finished"; // a game was finished in this browser
const guideListeners = [];

function stored(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

/** The game of this page (/game/{id}), or null. */
function pageGame() {
  const m = location.pathname.match(/^\/game\/([^/]+)/);
  return m ? decodeURIComponent(m[1]) : null;
}

/** Off when the player turned it off; on when they turned it on; else on only in a guided
 * first game and for a player who has never finished a game in this browser. */
export function guideOn() {
  const own = stored(GUIDE_KEY);
  if (own === "off") return false;
  if (own === "on") return true;
  const game = pageGame();
  return (game !== null && stored(GUIDED_KEY) === game) || stored(FINISHED_KEY) === null;
}

/** Mark `id` as a guided first game (the guide is on there unless the player turns it off). */
export function guideGame(id) {
  try {
    localStorage.setItem(GUIDED_KEY, id);
    // asking for a guided game is asking for the guide again
    if (localStorage.getItem(GUIDE_KEY) === "off") localStorage.removeItem(GUIDE_KEY);
  } catch { /* private mode */ }
}

/** A game was finished in this browser (by a seat of it, not a spectator). */
export function noteFinished() {
  if (stored(FINISHED_KEY) !== null) return;
  try { localStorage.setItem(FINISHED_KEY, String(Date.now())); } catch { /* private mode */ }
}

export function setGuide(on) {
  try { localStorage.setItem(GUIDE_KEY, on ? "on" : "off"); } catch { /* private mode */ }
  for (const f of guideListeners) f(on);
}

export function onGuide(f) {
  guideListeners.push(f);
}

/** The shell's guess at the control to use when the game's module says nothing. */
function genericHint() {
  const el = document.querySelector("#actions button.primary:not([disabled]), #mine button.playable, #actions button:not([disabled])");
  return el ? { el, text: t("web.guide.generic") } : null;
}

/** Point at what to do next: `hint` is {el, text} (or null: nothing to point at). */
export function showGuide(hint) {
  for (const el of document.querySelectorAll(".guide-target")) el.classList.remove("guide-target");
  const old = document.getElementById("guide");
  if (old) old.remove();
  if (!guideOn() || !hint || !hint.el || !document.contains(hint.el)) return;
  hint.el.classList.add("guide-target");
  const g = document.createElement("div");
  g.id = "guide";
  g.className = "guide";
  g.setAttribute("role", "note");
  g.dataset.testid = "guide";
  g.dataset.for = hint.el.dataset.key || hint.el.dataset.move || "";
  g.innerHTML = `<p><strong>${esc(t("web.guide.label"))}:</strong> <span data-testid="guide-text">${esc(hint.text)}</span></p>
    <button type="button" class="guide-off" data-testid="guide-off">${esc(t("web.guide.off"))}</button>`;
  g.querySelector("button").addEventListener("click", () => { setGuide(false); showGuide(null); });
  // by the control, after its row: the order of the controls (Tab) is unchanged before it
  const anchor = hint.el.closest("ul, ol, .choices, .effects") || hint.el;
  anchor.after(g);
}

/** The guide for the table after a redraw: the game's own hint, else the shell's guess. */
export function guideTable(table, game) {
  if (table.view && table.view.result && table.view.seat !== null && table.view.seat !== undefined) noteFinished();
  if (!guideOn() || !table.view || table.view.seat === null || !table.myTurn() || table.view.result) {
    showGuide(null);
    return;
  }
  let hint = null;
  try { hint = game.guide ? game.guide(table) : null; } catch { hint = null; }
  showGuide(hint || genericHint());
}

// -- who leads, and the end ------------------------------------------------------------------------

/** The live panel of who leads (the game's `standing`, from the seat's own view). */
export function renderStanding(view, name) {
  let sec = document.getElementById("standing");
  // while the game is on (the end says who won, and why)
  const st = view && view.board && !view.result ? view.board.standing : null;
  if (!st) { if (sec) sec.hidden = true; return; }
  if (!sec) {
    sec = document.createElement("section");
    sec.id = "standing";
    sec.className = "panel standing";
    sec.dataset.testid = "standing";
    // at the top of the side column (table.html), else under the status
    const side = document.getElementById("col-side");
    if (side) side.prepend(sec); else document.getElementById("status").after(sec);
  }
  const open = sec.querySelector("details") ? sec.querySelector("details").open : true;
  sec.hidden = false;
  const rows = (st.rows || []).map((r) => `<li class="${r.lead ? "lead" : ""}" data-testid="standing-${r.seat}">
    <strong>${r.lead ? "★ " : ""}${esc(name(r.seat))}${r.seat === view.seat ? ` (${esc(t("web.standing.you"))})` : ""}</strong>: ${esc(r.text)}</li>`);
  sec.innerHTML = `<details${open ? " open" : ""}><summary>${esc(st.title)}</summary>
    <p class="lead-line" data-testid="standing-lead">${esc(st.lead)}</p>
    <ul class="standing-rows">${rows.join("")}</ul>
    ${st.note ? `<p class="muted">${esc(st.note)}</p>` : ""}</details>`;
}

/** The end for the viewer: won or lost, plainly (a spectator gets only who resigned). A
 * player who resigned lost, whatever the bot that took the seat over did: the people's
 * winners, as the accounts count them. */
export function outcomeHTML(view) {
  const r = view.result;
  if (!r) return "";
  const note = r.resigned_text ? `<p class="muted" data-testid="resigned-note">${esc(r.resigned_text)}</p>` : "";
  if (view.seat === null || view.seat === undefined) return note;
  const winners = r.people_winners || r.winners || [];
  const shared = r.people_winners ? r.people_shared : r.shared;
  const won = winners.includes(view.seat);
  const key = won ? (winners.length > 1 && shared ? "web.you_shared" : "web.you_won") : "web.you_lost";
  return `<p class="outcome ${won ? "won" : "lost"}" data-testid="outcome">${esc(t(key))}</p>${note}`;
}

/** Every final hand (public once the game is over). */
export function handsHTML(view, name) {
  const hands = view.result && view.result.hands;
  if (!hands || !hands.length) return "";
  const items = hands.map((h) => `<li data-testid="final-hand-${h.seat}"><strong>${esc(name(h.seat))}</strong>: ${esc(h.words)}</li>`);
  return `<h3>${esc(t("web.final_hands"))}</h3><ul class="final-hands" data-testid="final-hands">${items.join("")}</ul>`;
}

// -- the rules page: a guided first game against a bot ---------------------------------------------

async function startGuided(btn) {
  const err = document.getElementById("guided-error");
  btn.disabled = true;
  const kinds = await api("GET", "/api/kinds");
  const kind = kinds.ok ? kinds.data.games.find((k) => k.name === btn.dataset.game) : null;
  const players = kind ? Math.max(2, kind.min_players) : 2;
  const seats = [{ kind: "human" }];
  for (let i = 1; i < players; i++) seats.push({ kind: "bot", bot: kind ? kind.default_bot : undefined });
  const r = await api("POST", "/api/games", { body: { game: btn.dataset.game, players, seats } });
  if (!r.ok) { btn.disabled = false; err.textContent = t("web.error", { detail: r.data.detail || "" }); return; }
  const mine = r.data.seats.find((s) => s.token);
  const c = await api("POST", `/api/games/${encodeURIComponent(r.data.id)}/claim`, { token: mine.token });
  if (!c.ok) { btn.disabled = false; err.textContent = t("web.error", { detail: c.data.detail || "" }); return; }
  rememberSeat(r.data.id, c.data.seat, c.data.token);
  await api("POST", `/api/games/${encodeURIComponent(r.data.id)}/join`, { token: c.data.token, body: { name: null } });
  guideGame(r.data.id);
  location.href = `/game/${encodeURIComponent(r.data.id)}#seat=${c.data.seat}`;
}

const rulesPage = document.getElementById("rules-page");
if (rulesPage) {
  initTips();
  // a language asked for in the address wins over the one remembered
  if (new URLSearchParams(location.search).has("lang")) {
    try { localStorage.setItem("civcards.lang", rulesPage.dataset.lang); } catch { /* private mode */ }
  }
  onLang((code) => {
    // the rules are written per language: load the page in the new one (the same game's
    // set-up: its ?option= stay)
    if (code !== rulesPage.dataset.lang) {
      const q = new URLSearchParams(location.search);
      q.set("lang", code);
      location.search = `?${q}`;
    }
  });
  await initLang();
  const b = document.getElementById("guided-start");
  if (b) b.addEventListener("click", () => startGuided(b));
}
