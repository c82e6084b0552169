// The lobby: create a game, share the seat links, list your games, watch others.
import { api, errorText, esc, forgetGame, initLang, mySeats, onLang, rememberSeat, t } from "./common.js";

const form = document.getElementById("new-game");
const playersSel = document.getElementById("players");
const teams = document.getElementById("teams");
const seatsList = document.getElementById("seats");
const errorBox = document.getElementById("lobby-error");
const createdBox = document.getElementById("created");

let seatState = [
  { kind: "human", name: "" },
  { kind: "bot:greedy", name: "" },
  { kind: "bot:greedy", name: "" },
  { kind: "bot:greedy", name: "" },
];
let lastCreated = null;

function renderSeats() {
  const n = Number(playersSel.value);
  teams.disabled = n !== 4;
  if (n !== 4) teams.checked = false;
  seatsList.innerHTML = "";
  for (let i = 0; i < n; i++) {
    const s = seatState[i];
    const li = document.createElement("li");
    li.className = "seat-row";
    li.innerHTML = `
      <span class="seat-label">${esc(t("web.seat_n", { n: i + 1 }))}</span>
      <select data-seat="${i}" class="seat-kind" aria-label="${esc(t("web.seat_n", { n: i + 1 }))}">
        <option value="human">${esc(t("web.human"))}</option>
        <option value="bot:ismcts">${esc(t("web.bot_ismcts"))}</option>
        <option value="bot:greedy">${esc(t("web.bot_greedy"))}</option>
        <option value="bot:random">${esc(t("web.bot_random"))}</option>
      </select>
      <input data-seat="${i}" class="seat-name" maxlength="40" autocomplete="off"
        aria-label="${esc(t("web.name_of", { n: i + 1 }))}"
        placeholder="${esc(i === 0 ? t("web.your_name") : t("web.name_of", { n: i + 1 }))}">`;
    li.querySelector("select").value = s.kind;
    li.querySelector("input").value = s.name;
    li.querySelector("select").addEventListener("change", (e) => { s.kind = e.target.value; });
    li.querySelector("input").addEventListener("input", (e) => { s.name = e.target.value; });
    seatsList.appendChild(li);
  }
}

form.addEventListener("submit", async (e) => {
  e.preventDefault();
  errorBox.textContent = "";
  const n = Number(playersSel.value);
  const seats = seatState.slice(0, n).map((s) => {
    const name = s.name.trim() || null;
    if (s.kind === "human") return { kind: "human", name };
    return { kind: "bot", bot: s.kind.split(":")[1], name };
  });
  const body = { players: n, deal: document.getElementById("deal").value, teams: teams.checked, seats };
  const r = await api("POST", "/api/games", { body });
  if (!r.ok) {
    errorBox.textContent = errorText(r.data);
    return;
  }
  lastCreated = r.data;
  // the first human seat is the creator's own; the others are invitations to send
  const mine = r.data.seats.find((s) => s.token);
  if (mine) {
    rememberSeat(r.data.id, mine.seat, mine.token);
    if (mine.name) await api("POST", `/api/games/${r.data.id}/join`, { token: mine.token, body: { name: mine.name } });
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

function seatNames(g) {
  return g.seats.map((s) => s.name || t("web.seat_n", { n: s.seat + 1 })).join(" · ");
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
    const name = g.seats[e.seat] ? (g.seats[e.seat].name || t("web.seat_n", { n: e.seat + 1 })) : "";
    return `<li><span>${esc(seatNames(g))} — <em>${esc(statusText(g))}</em></span>
      <a class="button" href="/game/${esc(e.id)}#seat=${e.seat}" data-testid="resume-${esc(e.id)}">${esc(t("web.resume"))}: ${esc(name)}</a>
      <button type="button" class="forget" data-id="${esc(e.id)}">${esc(t("web.forget"))}</button></li>`;
  }));
  ul.innerHTML = items.join("") || `<li class="muted">${esc(t("web.no_games"))}</li>`;
  for (const b of ul.querySelectorAll(".forget")) {
    b.addEventListener("click", () => { forgetGame(b.dataset.id); renderMine(); });
  }
}

async function renderAll() {
  const ul = document.getElementById("all-games");
  const r = await api("GET", "/api/games");
  if (!r.ok || !r.data.length) {
    ul.innerHTML = `<li class="muted">${esc(t("web.no_games"))}</li>`;
    return;
  }
  ul.innerHTML = r.data.map((g) => `<li><span>${esc(seatNames(g))} — <em>${esc(statusText(g))}</em></span>
    <a class="button" href="/game/${esc(g.id)}#watch">${esc(t("web.watch"))}</a></li>`).join("");
}

playersSel.addEventListener("change", renderSeats);
onLang(() => { renderSeats(); renderCreated(); renderMine(); renderAll(); });
await initLang();
renderSeats();
renderMine();
renderAll();
