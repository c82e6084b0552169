// The clocks of a table (issue 21): each seat's time, counted down in the browser to the
// deadline the server gave (the server alone decides when a time runs out, and a bot takes
// the seat over), the takeovers so far, resigning, and the vote on a seat that keeps the
// table waiting. table.js calls renderClock(table, token) at every render.
import { api, errorText, esc, t } from "./common.js";

let box = null;
let timer = null;
let confirming = false;
let current = { table: null, token: null };

/** Seconds as h:mm:ss (or m:ss). */
export function fmt(sec) {
  const s = Math.max(0, Math.ceil(sec));
  const two = (x) => String(x).padStart(2, "0");
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${two(m)}:${two(s % 60)}` : `${m}:${two(s % 60)}`;
}

/** Seconds left to seat ``i`` now (the running seat's counted down to the deadline). */
function left(c, i) {
  if (c.running === i && c.deadline) return (Date.parse(c.deadline) - Date.now()) / 1000;
  return c.remaining[i];
}

function kindText(c) {
  if (c.type === "move") return t("web.clock_move", { n: c.seconds });
  if (c.type === "game") return t("web.clock_game", { base: fmt(c.base), inc: c.increment });
  if (c.type === "days") return t("web.clock_days", { n: c.days });
  return "";
}

function voteHTML(table, c) {
  const v = table.view;
  const vote = c.vote;
  if (!vote || v.game.status === "finished" || v.seat === null || vote.seat === v.seat) return "";
  if (v.game.seats[v.seat].kind !== "human") return "";
  const who = table.name(vote.seat);
  const wait = (Date.parse(vote.opens_at) - Date.now()) / 1000;
  if (wait > 0) {
    return `<p class="muted" data-testid="vote-wait" data-opens="${esc(vote.opens_at)}">${esc(t("web.vote_wait", { name: who, left: fmt(wait) }))}</p>`;
  }
  const text = t("web.vote_open", { name: who, votes: vote.votes.length, needed: vote.needed });
  const button = vote.can_vote
    ? `<button type="button" id="vote-out" data-key="vote-out" data-testid="vote">${esc(t("web.vote_button", { name: who }))}</button>` : "";
  return `<p data-testid="vote-open">${esc(text)}</p>${button}`;
}

function resignHTML(table, token) {
  const v = table.view;
  if (!token || v.seat === null || v.game.status === "finished") return "";
  if (v.game.seats[v.seat].kind !== "human") return "";
  if (confirming) {
    const bot = v.clock ? v.clock.takeover_bot : "";
    return `<p role="alert">${esc(t("web.resign_confirm", { bot }))}</p>
      <button type="button" id="resign-yes" data-key="resign-yes" data-testid="resign-yes">${esc(t("web.resign_yes"))}</button>
      <button type="button" id="resign-no" data-key="resign-no">${esc(t("web.cancel"))}</button>`;
  }
  return `<button type="button" id="resign" data-key="resign" data-testid="resign">${esc(t("web.resign"))}</button>`;
}

/** A seat a bot took over when its time ran out: its player may take it back (issue 38). */
function reclaimHTML(c, token) {
  const r = c.reclaim;
  if (!token || !r) return "";
  if (r.pending) return `<p class="muted" data-testid="reclaim-pending">${esc(t("web.reclaim_pending"))}</p>`;
  return `<button type="button" id="reclaim" data-key="reclaim" data-testid="reclaim">${esc(t("web.reclaim"))}</button>`;
}

function say(text) {
  const el = document.getElementById("error");
  if (el) el.textContent = text;
}

/** Draw the clocks, the takeovers, the vote and the resign button of ``table``'s view. */
export function renderClock(table, token) {
  current = { table, token };
  const v = table.view;
  const c = v && v.clock;
  if (!box) {
    box = document.createElement("section");
    box.id = "clock";
    box.className = "panel clock";
    box.dataset.testid = "clock";
    // in the side column (table.html), under who leads; else under the status
    const side = document.getElementById("col-side");
    const lead = document.getElementById("standing");
    const status = document.getElementById("status");
    if (lead && lead.parentElement === side) lead.after(box);
    else if (side) side.prepend(box);
    else if (status) status.after(box); else document.getElementById("table").prepend(box);
  }
  if (!c) { box.hidden = true; return; }
  box.setAttribute("aria-label", t("web.clock_title"));
  const playing = v.game.status !== "finished";
  const rows = [];
  c.remaining.forEach((r, i) => {
    if (r === null || r === undefined) return;
    const running = playing && c.running === i;
    rows.push(`<li data-testid="clock-${i}" data-seat="${i}"${running ? ' class="running" aria-current="true"' : ""}>
      <span>${esc(table.name(i))}</span> <time data-left="${i}">${running ? "▶ " : ""}${fmt(left(c, i))}</time></li>`);
  });
  const taken = c.takeovers.map((x) => `<li data-testid="takeover-${x.seat}">${esc(x.reason === "reclaimed"
    ? t("web.reclaimed", { name: table.name(x.seat), n: x.move + 1 })
    : t("web.takeover", { name: table.name(x.seat), bot: x.bot, n: x.move + 1, why: t(`web.why_${x.reason}`) }))}</li>`);
  const vote = voteHTML(table, c);
  const resign = resignHTML(table, token);
  const reclaim = reclaimHTML(c, token);
  box.hidden = !(rows.length || taken.length || vote || resign || reclaim);
  box.dataset.running = c.running === null ? "" : String(c.running);
  box.innerHTML = `${rows.length ? `<h2>${esc(t("web.clock_title"))} <small class="muted">${esc(kindText(c))}</small></h2>
    <ul class="clocks">${rows.join("")}</ul>` : ""}
    ${taken.length ? `<ul class="takeovers" data-testid="takeovers">${taken.join("")}</ul>` : ""}
    ${vote}<p>${resign}${reclaim}</p>`;
  const on = (id, f) => { const b = document.getElementById(id); if (b) b.addEventListener("click", f); };
  on("resign", () => { confirming = true; renderClock(table, token); document.getElementById("resign-yes").focus(); });
  on("resign-no", () => { confirming = false; renderClock(table, token); });
  on("resign-yes", async () => {
    confirming = false;
    const r = await api("POST", `/api/games/${encodeURIComponent(table.gameId)}/resign`, { token });
    if (!r.ok) say(errorText(r.data));
    renderClock(table, token);
  });
  on("reclaim", async () => {
    const r = await api("POST", `/api/games/${encodeURIComponent(table.gameId)}/reclaim`, { token });
    if (!r.ok) say(errorText(r.data));
  });
  on("vote-out", async () => {
    const r = await api("POST", `/api/games/${encodeURIComponent(table.gameId)}/vote`, {
      token, body: { seat: c.vote.seat },
    });
    if (!r.ok) say(errorText(r.data));
  });
  if (!timer) timer = setInterval(tick, 250);
}

function tick() {
  const { table, token } = current;
  if (!table || !table.view || !table.view.clock || !box || box.hidden) return;
  const c = table.view.clock;
  for (const el of box.querySelectorAll("time[data-left]")) {
    const i = Number(el.dataset.left);
    const running = table.view.game.status !== "finished" && c.running === i;
    el.textContent = `${running ? "▶ " : ""}${fmt(left(c, i))}`;
  }
  const wait = box.querySelector("[data-testid=vote-wait]");
  if (wait) {
    // the vote opens: draw it (its button); else count down to it
    if (Date.parse(wait.dataset.opens) <= Date.now()) renderClock(table, token);
    else wait.textContent = t("web.vote_wait", {
      name: table.name(c.vote.seat), left: fmt((Date.parse(wait.dataset.opens) - Date.now()) / 1000),
    });
  }
}

// -- the lobby: a new game's clock, the clock of a listed game, an open table's free seats --

const form = { type: "none", seconds: 60, minutes: 10, increment: 5, days: 3, bot: null };

/** Draw (again) the new game's clock settings after ``after`` (the seats' list); ``kind``
 * is the chosen game (its bots and default bot, GET /api/kinds). */
export function clockForm(after, kind) {
  let el = document.getElementById("clock-form");
  if (!el) {
    el = document.createElement("fieldset");
    el.id = "clock-form";
    el.className = "row clock-form";
    after.after(el);
  }
  if (!form.bot || !kind.bots.some((b) => b.name === form.bot)) form.bot = kind.default_bot;
  const kinds = ["none", "move", "game", "days"].map((k) => `<option value="${k}"${form.type === k ? " selected" : ""}>${esc(t(k === "none" ? "web.clock_none" : `web.clock_kind_${k}`))}</option>`);
  const num = (id, key, label, min, max) => `<label><span>${esc(t(label))}</span>
    <input type="number" id="${id}" data-clock="${key}" min="${min}" max="${max}" value="${esc(form[key])}" data-testid="${id}"></label>`;
  const fields = {
    none: "",
    move: num("clock-seconds", "seconds", "web.clock_seconds", 1, 86400),
    game: num("clock-minutes", "minutes", "web.clock_minutes", 1, 10080) + num("clock-increment", "increment", "web.clock_increment", 0, 3600),
    days: num("clock-days", "days", "web.clock_days_n", 1, 30),
  }[form.type];
  const bots = kind.bots.map((b) => `<option value="${esc(b.name)}"${b.name === form.bot ? " selected" : ""}>${esc(b.label || b.name)}</option>`);
  el.innerHTML = `<legend>${esc(t("web.clock_label"))}</legend>
    <select id="clock-type" data-testid="clock-type" aria-label="${esc(t("web.clock_label"))}">${kinds.join("")}</select>
    ${fields}
    <label><span>${esc(t("web.takeover_bot"))}</span> <select id="takeover-bot" data-testid="takeover-bot">${bots.join("")}</select></label>`;
  el.querySelector("#clock-type").addEventListener("change", (e) => { form.type = e.target.value; clockForm(after, kind); });
  el.querySelector("#takeover-bot").addEventListener("change", (e) => { form.bot = e.target.value; });
  for (const input of el.querySelectorAll("[data-clock]")) {
    input.addEventListener("change", () => { form[input.dataset.clock] = input.value; });
  }
}

/** The new game's clock fields of POST /api/games (the server checks them). */
export function clockBody() {
  const whole = (x) => (String(x).trim() === "" ? null : Number(x));
  const clock = { type: form.type };
  if (form.type === "move") clock.seconds = whole(form.seconds);
  if (form.type === "game") {
    const m = whole(form.minutes);
    clock.base = m === null ? null : Math.round(m * 60);
    clock.increment = whole(form.increment);
  }
  if (form.type === "days") clock.days = whole(form.days);
  return { clock, takeover_bot: form.bot };
}

/** A listed game's clock, in words ("" without one). */
export function clockLabel(g) {
  const c = g.clock;
  if (!c || c.type === "none") return "";
  return ` · ${esc(kindText(c))}`;
}

/** The buttons taking the free seats of a public game being played. */
export function seatButtons(g) {
  if (g.private || g.status !== "playing") return "";
  const free = g.seats.filter((s) => s.free).map((s) => `<button type="button" class="sit primary" data-game="${esc(g.id)}" data-seat="${s.seat}" data-testid="sit-${esc(g.id)}-${s.seat}">${esc(t("web.take_seat", { n: s.seat + 1 }))}</button>`);
  return free.length ? `<span class="free-seats">${free.join(" ")}</span>` : "";
}

/** Make the free-seat buttons under ``root`` take their seat, then open the table. */
export function bindSeatButtons(root, remember, onError) {
  for (const b of root.querySelectorAll("button.sit")) {
    b.addEventListener("click", async () => {
      const seat = Number(b.dataset.seat);
      const r = await api("POST", `/api/games/${encodeURIComponent(b.dataset.game)}/sit`, { body: { seat } });
      if (!r.ok) { onError(errorText(r.data)); return; }
      remember(b.dataset.game, r.data.seat, r.data.token);
      location.href = `/game/${encodeURIComponent(b.dataset.game)}#seat=${r.data.seat}`;
    });
  }
}
