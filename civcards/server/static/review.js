// The review of a finished game: the win-chance graph (inline SVG, one line per seat), the
// moves one by one (buttons, slider, arrow keys), the position as a seat saw it (drawn by the
// game's own module) or whole, the marked moves with the bot's preferred move (the graph's
// text alternative), each seat's accuracy, a link to the move shown. Nothing here knows a
// game. /review without an id: paste or upload a record.
import { announce, api, currentLang, errorText, esc, initLang, onLang, t } from "./common.js";

const root = document.getElementById("review");
const rid = root.dataset.review;
const $ = (id) => document.getElementById(id);
const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];
const MARKED = ["inaccuracy", "mistake", "blunder"];

let data = null; // GET /api/review/{id}
let cursor = 0; // moves made in the position shown (0..N)
let seatShown = null; // null: the whole position
let game = null; // the game's front-end module
let poll = null;
let posSeq = 0;

function pct(x) {
  return x === null || x === undefined ? "–" : `${Math.round(100 * x)} %`;
}

function name(s) {
  return (data && data.names[s]) || t("web.seat_n", { n: s + 1 });
}

function movesN() {
  return data ? data.moves.length : 0;
}

function analysisOf(index) {
  const a = data && data.analysis.data;
  if (!a) return null;
  return a.moves.find((m) => m.index === index) || null;
}

function labelText(label) {
  return t(`web.review.label.${label}`);
}

// -- the paste page --

async function pastePage() {
  const form = $("paste-form");
  $("record-file").addEventListener("change", async (e) => {
    const f = e.target.files[0];
    if (f) $("record-text").value = await f.text();
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    $("error").textContent = "";
    let record;
    try {
      record = JSON.parse($("record-text").value);
    } catch {
      $("error").textContent = t("web.review.bad_json");
      return;
    }
    const r = await api("POST", "/api/review", { body: { record } });
    if (!r.ok) { $("error").textContent = errorText(r.data); return; }
    location.href = r.data.link;
  });
}

// -- loading --

async function load() {
  const r = await api("GET", `/api/review/${encodeURIComponent(rid)}?lang=${currentLang()}`);
  if (!r.ok) {
    $("error").textContent = errorText(r.data);
    return false;
  }
  data = r.data;
  const st = data.analysis.status;
  if ((st === "queued" || st === "running") && !poll) {
    poll = setInterval(async () => {
      await load();
      if (data && !["queued", "running"].includes(data.analysis.status)) {
        clearInterval(poll);
        poll = null;
      }
      renderAnalysis();
    }, 1500);
  }
  return true;
}

// -- the analysis: progress, graph, marked moves, accuracy --

function renderProgress() {
  const a = data.analysis;
  const bar = $("progress");
  bar.max = Math.max(1, a.total);
  bar.value = a.done;
  let text;
  if (a.status === "done") text = t("web.review.done");
  else if (a.status === "queued") text = t("web.review.queued");
  else if (a.status !== "failed") text = t("web.review.progress", { done: a.done, total: a.total });
  // a failure in the reader's words; the analysis's own sentence (English) as a technical detail
  if (a.status === "failed") $("progress-text").innerHTML = `${esc(t("web.review.failed_plain"))} <code>${esc(a.error || "")}</code>`;
  else $("progress-text").textContent = text;
  const dl = $("annotated");
  dl.hidden = a.status !== "done";
  dl.href = `/api/review/${encodeURIComponent(rid)}/annotated`;
  root.dataset.status = a.status;
}

function renderGraph() {
  const W = 640, H = 220, L = 40, R = 10, T = 10, B = 28;
  const n = Math.max(1, movesN());
  const x = (k) => L + (k * (W - L - R)) / n;
  const y = (p) => T + (1 - p) * (H - T - B);
  const a = data.analysis.data;
  const parts = [];
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line x1="${L}" x2="${W - R}" y1="${y(p)}" y2="${y(p)}" stroke="#ccc" stroke-width="0.5"/>`);
    parts.push(`<text x="${L - 4}" y="${y(p) + 4}" text-anchor="end" font-size="10" fill="#555">${Math.round(100 * p)}%</text>`);
  }
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    const k = Math.round(f * n);
    parts.push(`<text x="${x(k)}" y="${H - B + 12}" text-anchor="middle" font-size="10" fill="#555">${k}</text>`);
  }
  parts.push(`<text x="${(L + W - R) / 2}" y="${H - 2}" text-anchor="middle" font-size="10" fill="#555">${esc(t("web.review.slider"))}</text>`);
  const legend = [];
  if (a) {
    for (let s = 0; s < data.players; s++) {
      const color = COLORS[s % COLORS.length];
      const pts = a.moves.filter((m) => m.seat === s && m.after !== null);
      if (pts.length) {
        const d = pts.map((m) => `${x(m.index + 1).toFixed(1)},${y(m.after).toFixed(1)}`).join(" ");
        parts.push(`<polyline points="${d}" fill="none" stroke="${color}" stroke-width="2" data-seat="${s}"/>`);
      }
      for (const m of pts.filter((q) => MARKED.includes(q.label))) {
        const r = m.label === "blunder" ? 6 : m.label === "mistake" ? 5 : 4;
        parts.push(`<circle class="mark ${m.label}" cx="${x(m.index + 1).toFixed(1)}" cy="${y(m.after).toFixed(1)}" r="${r}" fill="${color}" stroke="#000" data-move="${m.index + 1}" data-testid="mark"><title>${esc(markText(m))}</title></circle>`);
      }
      legend.push(`<span class="legend-item"><span class="swatch" data-color="${color}"></span>${esc(name(s))}</span>`);
    }
  }
  parts.push(`<line x1="${x(cursor)}" x2="${x(cursor)}" y1="${T}" y2="${H - B}" stroke="#000" stroke-dasharray="3 3" data-testid="cursor"/>`);
  $("graph").innerHTML = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="graph-title graph-desc" class="chart">
    <desc id="graph-desc">${esc(t("web.review.graph_desc"))}</desc>${parts.join("")}</svg>
    <p class="legend">${legend.join(" ")}</p>`;
  for (const sw of $("graph").querySelectorAll(".swatch")) sw.style.background = sw.dataset.color;
  for (const c of $("graph").querySelectorAll("circle.mark")) {
    c.addEventListener("click", () => go(Number(c.dataset.move)));
  }
}

function markText(m) {
  return t("web.review.marked_item", {
    n: m.index + 1, name: name(m.seat), played: words(m.index, m.move), after: pct(m.after),
    best: said(m.best), before: pct(m.before), label: labelText(m.label),
  });
}

function said(text) {
  return (data.words && data.words[text]) || text;
}

function words(index, text) {
  const mv = data.moves[index];
  return mv && mv.text === text ? mv.words : text;
}

function renderMarked() {
  const a = data.analysis.data;
  const ol = $("marked");
  const marked = a ? a.moves.filter((m) => MARKED.includes(m.label)) : [];
  if (!marked.length) {
    ol.innerHTML = `<li class="muted">${esc(a && data.analysis.status === "done" ? t("web.review.no_marked") : t("web.review.pending"))}</li>`;
    return;
  }
  ol.innerHTML = marked.map((m) => `<li class="${m.label}"><button type="button" class="link-button" data-move="${m.index + 1}">${esc(markText(m))}</button></li>`).join("");
  for (const b of ol.querySelectorAll("button")) b.addEventListener("click", () => go(Number(b.dataset.move)));
}

function renderSummary() {
  const a = data.analysis.data;
  if (!a) { $("summary").innerHTML = ""; return; }
  const labels = ["best", "good", "inaccuracy", "mistake", "blunder"];
  const head = `<tr><th scope="col">${esc(t("web.review.player"))}</th><th scope="col">${esc(t("web.review.accuracy"))}</th>${labels.map((l) => `<th scope="col">${esc(labelText(l))}</th>`).join("")}</tr>`;
  const rows = a.summary.map((s) => `<tr><th scope="row">${esc(name(s.seat))}</th><td>${s.accuracy === null ? "–" : `${s.accuracy} %`}</td>${labels.map((l) => `<td>${s.counts[l]}</td>`).join("")}</tr>`);
  $("summary").innerHTML = `<table class="summary" data-testid="summary">${head}${rows.join("")}</table>`;
}

function renderAnalysis() {
  if (!data) return;
  renderProgress();
  renderGraph();
  renderMarked();
  renderSummary();
  renderCurrent();
}

// -- the move shown --

function renderCurrent() {
  const n = movesN();
  const box = $("current");
  if (cursor === 0) {
    box.innerHTML = `<p><strong>${esc(t("web.review.start"))}</strong></p>`;
    return;
  }
  const mv = data.moves[cursor - 1];
  const m = analysisOf(cursor - 1);
  const lines = [`<p><strong>${esc(t("web.review.move_of", { n: cursor, total: n }))}</strong> — ${esc(t("web.review.played", { name: name(mv.seat), move: mv.words }))} <code>${esc(mv.text)}</code></p>`];
  const hint = (data.hints || []).find((h) => h.index === cursor - 1);
  if (hint) lines.push(`<p class="hint-used">${esc(t("web.hint_used", { name: name(hint.seat), n: cursor }))}</p>`);
  if (!m) lines.push(`<p class="muted">${esc(t("web.review.pending"))}</p>`);
  else if (m.forced) lines.push(`<p>${esc(t("web.review.forced"))}</p>`);
  else {
    lines.push(`<p class="label ${m.label}" data-testid="label">${esc(labelText(m.label))}</p>`);
    lines.push(`<p>${esc(t("web.review.chance", { before: pct(m.before), after: pct(m.after) }))}</p>`);
    if (m.best !== mv.text) lines.push(`<p data-testid="preferred">${esc(t("web.review.preferred", { move: said(m.best), chance: pct(m.before) }))} <code>${esc(m.best)}</code></p>`);
  }
  box.innerHTML = lines.join("");
}

async function renderPosition() {
  const mine = ++posSeq;
  const q = `move=${cursor}&lang=${currentLang()}${seatShown === null ? "" : `&seat=${seatShown}`}`;
  const r = await api("GET", `/api/review/${encodeURIComponent(rid)}/position?${q}`);
  if (mine !== posSeq) return; // a newer one was asked for
  if (!r.ok) { $("error").textContent = errorText(r.data); return; }
  const whole = $("whole");
  try {
    if (r.data.seats) {
      // the whole position: each seat's own panel as the game's module draws it for that
      // seat, then the public board as it draws it for a spectator (what all seats share
      // is shown once, on the board)
      const panels = r.data.seats.map((v) => { draw(v); return ownPanel(); });
      draw(r.data.view);
      const shared = new Set($("mine").hidden ? [] : [...$("mine").children].map((el) => el.outerHTML));
      whole.innerHTML = `<h3 class="whole-title">${esc(t("web.review.whole"))}</h3>${panels.map((p, s) => `<section class="whole-seat" data-testid="whole-seat" data-seat="${s}"><h3>${esc(name(s))}</h3><div class="whole-own"></div></section>`).join("")}`;
      // the module's own marks on the table (its style's scope, e.g. a class) hold for its copies
      const marks = [...$("table").classList].filter((c) => !["table", "review-table"].includes(c));
      whole.querySelectorAll(".whole-own").forEach((box, s) => {
        box.classList.add(...marks);
        for (const el of panels[s]) if (!shared.has(el.outerHTML)) box.appendChild(inert(el));
      });
      whole.hidden = false;
    } else {
      whole.hidden = true;
      whole.innerHTML = "";
      draw(r.data.view);
    }
    delete root.dataset.renderError;
  } catch (e) {
    root.dataset.renderError = String(e);
    $("status").textContent = String(e);
  }
}

/** Draw ``view`` (a seat's or a spectator's) in the table's sections with the game's module. */
function draw(view) {
  const table = {
    view, gameId: rid, name: (s) => (view.names && view.names[s]) || name(s), myTurn: () => false,
    send: () => {}, render: () => {}, words: (x) => (view.words && view.words[x]) || null,
  };
  if (game.onView) game.onView(table, true);
  game.render(table);
}

/** The seat's own panel just drawn (its hand, what only it knows), copied. */
function ownPanel() {
  return [...$("mine").children].map((el) => el.cloneNode(true));
}

/** A copy that is only shown: no ids of its own, nothing to press. */
function inert(el) {
  for (const x of [el, ...el.querySelectorAll("[id]")]) x.removeAttribute("id");
  for (const x of el.querySelectorAll("button, input, select, textarea")) x.disabled = true;
  for (const x of el.querySelectorAll("[aria-labelledby]")) x.removeAttribute("aria-labelledby");
  return el;
}

function go(k) {
  const n = movesN();
  cursor = Math.max(0, Math.min(n, k));
  $("slider").value = String(cursor);
  history.replaceState(null, "", `#move=${cursor}${seatShown === null ? "" : `&seat=${seatShown}`}`);
  $("share").value = `${location.origin}/review/${rid}#move=${cursor}${seatShown === null ? "" : `&seat=${seatShown}`}`;
  root.dataset.cursor = String(cursor);
  renderGraph();
  renderCurrent();
  renderPosition();
  const mv = cursor > 0 ? data.moves[cursor - 1] : null;
  announce(mv ? `${t("web.review.move_of", { n: cursor, total: n })}: ${name(mv.seat)}, ${mv.words}` : t("web.review.start"));
}

function renderSeatSelect() {
  const sel = $("seat-select");
  const opts = [`<option value="">${esc(t("web.review.whole"))}</option>`];
  for (let s = 0; s < data.players; s++) opts.push(`<option value="${s}">${esc(name(s))}</option>`);
  sel.innerHTML = opts.join("");
  sel.value = seatShown === null ? "" : String(seatShown);
}

function onKey(e) {
  const tag = e.target && e.target.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return; // they use the keys
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
  if (e.key in moves) go(cursor + moves[e.key]);
  else if (e.key === "Home") go(0);
  else if (e.key === "End") go(movesN());
  else return;
  e.preventDefault();
}

async function reviewPage() {
  game = await import(root.dataset.module);
  if (!(await load())) return;
  const frag = new URLSearchParams(location.hash.slice(1));
  if (frag.has("seat") && /^\d+$/.test(frag.get("seat")) && Number(frag.get("seat")) < data.players) {
    seatShown = Number(frag.get("seat"));
  }
  const start = frag.has("move") && /^\d+$/.test(frag.get("move")) ? Number(frag.get("move")) : movesN();
  $("slider").max = String(movesN());
  renderSeatSelect();
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(cursor - 1));
  $("next").addEventListener("click", () => go(cursor + 1));
  $("last").addEventListener("click", () => go(movesN()));
  $("slider").addEventListener("input", () => go(Number($("slider").value)));
  $("seat-select").addEventListener("change", () => {
    const v = $("seat-select").value;
    seatShown = v === "" ? null : Number(v);
    go(cursor);
  });
  $("copy").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("share").value); } catch { /* the field is selectable */ }
    $("copy").textContent = t("web.copied");
  });
  document.addEventListener("keydown", onKey);
  renderAnalysis();
  go(start);
  root.dataset.ready = "1";
}

onLang(async () => {
  if (!rid) return;
  await load();
  renderSeatSelect();
  renderAnalysis();
  renderPosition();
});
await initLang();
if (rid) await reviewPage();
else await pastePage();
