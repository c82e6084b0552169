// The lobby: choose a game and its options, create it, share the seat links, list your
// games, watch others. The games, their options and bots come from the server (/api/kinds).
import { api, currentLang, errorText, esc, forgetGame, initLang, mySeats, onLang, rememberSeat, seatName, t } from "./common.js";

import { bindSeatButtons, clockBody, clockForm, clockLabel, seatButtons } from "./clock.js";

const form = document.getElementById("new-game");
const gameSel = document.getElementById("game");
const playersSel = document.getElementById("players");
const optionsBox = document.getElementById("game-options");
const seatsList = document.getElementById("seats");
const errorBox = document.getElementById("lobby-error");
const createdBox = document.getElementById("created");

let kinds = JSON.parse(document.getElementById("kinds").textContent);
const MAX_SEATS = 16;
let seatState = Array.from({ length: MAX_SEATS }, (_, i) => ({ kind: i === 0 ? "human" : null, name: "" }));
let optionValues = {}; // game name -> option name -> value
let lastCreated = null;
let checkSeq = 0;

// the label of the game select (a text of its own where the catalogue has one)
const GAME_KEY = "web.game";
function gameLabel() {
  const s = t(GAME_KEY);
  document.getElementById("game-label").textContent = s === GAME_KEY ? "Game" : s;
}

function kind() {
  return kinds.find((k) => k.name === gameSel.value) || kinds[0];
}

function renderNote() {
  // a game's own line beside its title (civ4: a reconstructed card set)
  let el = document.getElementById("game-note");
  if (!el) {
    el = document.createElement("p");
    el.id = "game-note";
    el.className = "game-note";
    el.dataset.testid = "game-note";
    gameSel.closest(".row").after(el);
  }
  el.textContent = kind().note ? `⚠ ${kind().note}` : "";
  el.hidden = !kind().note;
}

function renderPlayers() {
  renderNote();
  const k = kind();
  const want = Number(playersSel.value) || Math.min(Math.max(2, k.min_players), k.max_players);
  playersSel.innerHTML = "";
  for (let n = k.min_players; n <= k.max_players; n++) {
    const o = document.createElement("option");
    o.value = String(n);
    o.textContent = String(n);
    playersSel.appendChild(o);
  }
  playersSel.value = String(Math.min(Math.max(want, k.min_players), k.max_players));
}

/** An option's default at the player count chosen: the game's default for that count
 * where it has one (``player_defaults``, e.g. civ4's finish_round on at 2 players), else
 * its plain default. A value the player chose stays whatever the count. */
function defaultOf(o) {
  const n = String(Number(playersSel.value));
  return o.player_defaults && n in o.player_defaults ? o.player_defaults[n] : o.default;
}

function currentOptions() {
  const k = kind();
  const vals = optionValues[k.name] || (optionValues[k.name] = {});
  const out = {};
  for (const o of k.options) out[o.name] = o.name in vals ? vals[o.name] : defaultOf(o);
  return out;
}

function renderOptions() {
  const k = kind();
  const vals = currentOptions();
  optionsBox.innerHTML = k.options.map((o) => {
    const id = `opt-${esc(o.name)}`;
    const title = `title="${esc(o.help)}"`;
    if (o.kind === "bool") {
      return `<label class="check" ${title}><input type="checkbox" id="${id}" data-opt="${esc(o.name)}"${vals[o.name] ? " checked" : ""}>
        <span>${esc(o.label)}</span></label>`;
    }
    if (o.kind === "choice") {
      const opts = o.choices.map((c) => `<option value="${esc(c)}"${c === vals[o.name] ? " selected" : ""}>${esc((o.labels || {})[c] || c)}</option>`);
      // a line explaining the choice made (civ4: each card set), where the game has one
      const about = o.choice_helps
        ? `<small class="opt-about" id="${id}-about" data-testid="opt-about-${esc(o.name)}">${esc(o.choice_helps[vals[o.name]] || "")}</small>`
        : "";
      return `<label ${title}><span>${esc(o.label)}</span> <select id="${id}" data-opt="${esc(o.name)}">${opts.join("")}</select>${about}</label>`;
    }
    const lo = o.minimum ?? "";
    const hi = o.maximum ?? "";
    return `<label ${title}><span>${esc(o.label)}</span> <input type="number" id="${id}" data-opt="${esc(o.name)}" min="${lo}" max="${hi}" value="${esc(vals[o.name])}"></label>`;
  }).join("");
  for (const el of optionsBox.querySelectorAll("[data-opt]")) {
    el.addEventListener("change", () => {
      const spec = k.options.find((o) => o.name === el.dataset.opt);
      const v = spec.kind === "bool" ? el.checked : spec.kind === "int" ? Number(el.value) : el.value;
      if (spec.choice_helps) document.getElementById(`${el.id}-about`).textContent = spec.choice_helps[v] || "";
      currentOptions();
      // a number field cleared: the option's default again (e.g. no hand limit), never 0
      if (spec.kind === "int" && el.value.trim() === "") delete optionValues[k.name][spec.name];
      else optionValues[k.name][spec.name] = v;
      checkSetup();
    });
  }
}

/** Ask the game whether the set-up can be played; its sentence shows while it cannot. */
async function checkSetup() {
  const mine = ++checkSeq;
  // the game's sentence comes in the reader's language (?lang=)
  const r = await api("POST", `/api/kinds/${encodeURIComponent(kind().name)}/check?lang=${currentLang()}`, {
    body: { players: Number(playersSel.value), options: currentOptions() },
  });
  if (mine !== checkSeq) return;
  errorBox.textContent = r.ok ? "" : errorText(r.data);
}

function botLabel(b) {
  return b.label || b.name;
}

function renderSeats() {
  const n = Number(playersSel.value);
  const k = kind();
  const bots = k.bots.map((b) => b.name);
  seatsList.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const s = seatState[i];
    if (s.kind === null || (s.kind !== "human" && !bots.includes(s.kind.slice(4)))) s.kind = `bot:${k.default_bot}`;
    const li = document.createElement("li");
    li.className = "seat-row";
    li.innerHTML = `
      <span class="seat-label">${esc(t("web.seat_n", { n: i + 1 }))}</span>
      <select data-seat="${i}" class="seat-kind" aria-label="${esc(t("web.seat_n", { n: i + 1 }))}">
        <option value="human">${esc(t("web.human"))}</option>
        ${k.bots.map((b) => `<option value="bot:${esc(b.name)}">${esc(botLabel(b))}</option>`).join("")}
      </select>
      <input data-seat="${i}" class="seat-name" maxlength="64" autocomplete="off"
        aria-label="${esc(t("web.name_of", { n: i + 1 }))}"
        placeholder="${esc(i === 0 ? t("web.your_name") : t("web.name_of", { n: i + 1 }))}">`;
    li.querySelector("select").value = s.kind;
    li.querySelector("input").value = s.name;
    li.querySelector("select").addEventListener("change", (e) => { s.kind = e.target.value; });
    li.querySelector("input").addEventListener("input", (e) => { s.name = e.target.value; });
    seatsList.appendChild(li);
  }
  clockForm(seatsList, k); // the clock and the bot for absent players (clock.js)
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  errorBox.textContent = "";
  const n = Number(playersSel.value);
  const seats = seatState.slice(0, n).map((s) => {
    const name = s.name.trim() || null;
    if (s.kind === "human") return { kind: "human", name };
    return { kind: "bot", bot: s.kind.slice(4), name };
  });
  const body = { game: kind().name, players: n, options: currentOptions(), seats,
    ...clockBody(), private: !document.getElementById("public").checked,
    hints: !!(document.getElementById("hints") && document.getElementById("hints").checked) };
  if (document.getElementById("rated")?.checked) body.rated = true; // accounts only
  const r = await api("POST", `/api/games?lang=${currentLang()}`, { body });
  if (!r.ok) {
    errorBox.textContent = errorText(r.data);
    return;
  }
  lastCreated = r.data;
  // the first human seat is the creator's own: its invitation is claimed here, for the
  // seat's own token; the others are invitations to send (whoever opens one first takes it)
  const mine = r.data.seats.find((s) => s.token);
  if (mine) {
    const j = await api("POST", `/api/games/${r.data.id}/join`, { token: mine.token, body: { name: mine.name || null } });
    if (j.ok) {
      rememberSeat(r.data.id, mine.seat, j.data.token);
      mine.invite = `/game/${r.data.id}#seat=${mine.seat}`;
      mine.claimed = true;
    }
  }
  renderCreated();
  renderMine();
  renderAll();
});

function renderCreated() {
  const g = lastCreated;
  if (!g) return;
  const mine = g.seats.find((s) => s.token);
  const rows = g.seats.filter((s) => s.token).map((s) => {
    const name = s.name || t("web.seat_n", { n: s.seat + 1 });
    const url = `${location.origin}${s.invite}`;
    const own = mine && s.seat === mine.seat;
    if (own && s.claimed) {
      return `<li><a class="button primary" href="${esc(s.invite)}" data-testid="play-mine">${esc(t("web.play_seat", { name }))}</a></li>`;
    }
    return `<li>
      <label>${esc(t("web.invite_for", { name }))}
        <input readonly value="${esc(url)}" class="link" data-testid="invite-${s.seat}"></label>
      <button type="button" class="copy" data-url="${esc(url)}">${esc(t("web.copy"))}</button>
      ${own ? `<a class="button primary" href="${esc(s.invite)}" data-testid="play-mine">${esc(t("web.play_seat", { name }))}</a>` : ""}
    </li>`;
  });
  createdBox.hidden = false;
  createdBox.innerHTML = `<p>${esc(t("web.created"))}</p><ul class="links">${rows.join("")}</ul>
    ${mine ? "" : `<a class="button" href="${esc(g.watch)}#watch">${esc(t("web.watch"))}</a>`}`;
  for (const b of createdBox.querySelectorAll(".copy")) {
    b.addEventListener("click", async () => {
      try { await navigator.clipboard.writeText(b.dataset.url); } catch { /* not allowed: the field is selectable */ }
      b.textContent = t("web.copied");
    });
  }
}

function statusText(g) {
  return g.status === "finished" ? t("web.status_finished") : t("web.status_playing", { n: g.move_number });
}

function reviewLink(g) {
  return g.status === "finished"
    ? ` <a class="button" href="/review/${esc(g.id)}" data-testid="review-${esc(g.id)}">${esc(t("web.review.open"))}</a>` : "";
}

function seatNames(g) {
  return g.seats.map((s) => seatName(s)).join(" · ");
}

function gameTitle(g) {
  const k = kinds.find((x) => x.name === g.game);
  const note = k && k.note ? ` <small class="game-note" title="${esc(k.note)}">⚠</small>` : "";
  return `<strong class="game-kind" data-game="${esc(g.game)}">${esc(k ? k.title : g.title || g.game)}</strong>${note}`;
}

async function renderMine() {
  const ul = document.getElementById("my-games");
  const seats = mySeats();
  if (!seats.length) {
    ul.innerHTML = `<li class="muted">${esc(t("web.no_games"))}</li>`;
    return;
  }
  const items = await Promise.all(seats.slice(0, 30).map(async (e) => {
    const r = await api("GET", `/api/games/${encodeURIComponent(e.id)}`);
    if (!r.ok) return "";
    const g = r.data;
    const name = g.seats[e.seat] ? seatName(g.seats[e.seat]) : "";
    return `<li><span>${gameTitle(g)} · ${esc(seatNames(g))} — <em>${esc(statusText(g))}</em></span>
      <a class="button" href="/game/${esc(e.id)}#seat=${e.seat}" data-testid="resume-${esc(e.id)}">${esc(t("web.resume"))}: ${esc(name)}</a>${reviewLink(g)}
      <button type="button" class="forget" data-id="${esc(e.id)}">${esc(t("web.forget"))}</button></li>`;
  }));
  ul.innerHTML = items.join("") || `<li class="muted">${esc(t("web.no_games"))}</li>`;
  for (const b of ul.querySelectorAll(".forget")) {
    b.addEventListener("click", () => { forgetGame(b.dataset.id); renderMine(); });
  }
}

async function renderAll() {
  const ul = document.getElementById("all-games");
  const r = await api("GET", "/api/games?limit=30");
  if (!r.ok || !r.data.length) {
    ul.innerHTML = `<li class="muted">${esc(t("web.no_games"))}</li>`;
    return;
  }
  ul.innerHTML = r.data.map((g) => `<li><span>${gameTitle(g)} · ${esc(seatNames(g))} — <em>${esc(statusText(g))}</em>${clockLabel(g)}</span>
    ${seatButtons(g)} <a class="button" href="/game/${esc(g.id)}#watch">${esc(t("web.watch"))}</a>${reviewLink(g)}</li>`).join("");
  // an open table's free seat: anyone may take it (clock.js)
  bindSeatButtons(ul, rememberSeat, (text) => { errorBox.textContent = text; });
}

gameSel.addEventListener("change", () => { renderPlayers(); renderOptions(); renderSeats(); checkSetup(); });
playersSel.addEventListener("change", () => { renderOptions(); renderSeats(); checkSetup(); });
onLang(async () => {
  // the games' words (option labels, bots) in the new language
  const r = await api("GET", `/api/kinds?lang=${currentLang()}`);
  if (r.ok) kinds = r.data.games;
  gameLabel(); renderOptions(); renderSeats(); renderCreated(); renderMine(); renderAll();
});
await initLang();
gameLabel();
renderPlayers();
renderOptions();
renderSeats();
renderMine();
renderAll();
// a rated game (docs/accounts.md) is offered to a logged-in player
const who = await api("GET", "/api/account/me");
if (who.ok && who.data.account) {
  const label = document.createElement("label");
  label.className = "check";
  label.innerHTML = `<input type="checkbox" id="rated" data-testid="rated">
    <span data-i18n="web.acct.rated_game">${esc(t("web.acct.rated_game"))}</span>`;
  document.getElementById("public").closest("label").after(label);
}
