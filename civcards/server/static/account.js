// The account page (optional accounts, docs/accounts.md): register, log in and out, your
// games from any browser with their results, your ratings, changing the password (the other
// browsers' sessions end), deleting the account.
// The session is an HttpOnly cookie this script never sees; its CSRF token (from
// /api/account/me) goes with every change, in the X-CSRF-Token header.
import { api, currentLang, errorText, esc, initLang, mySeats, onLang, rememberSeat, t } from "./common.js";

const $ = (id) => document.getElementById(id);
let me = { account: null, csrf: null };

/** A change made with the session: the CSRF token in its header. */
async function change(path, body = undefined, seatToken = null) {
  const headers = { "X-CSRF-Token": me.csrf || "" };
  if (seatToken) headers["X-Seat-Token"] = seatToken;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let r;
  try {
    r = await fetch(path, { method: "POST", headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    return { ok: false, status: 0, data: { detail: String(e) } };
  }
  let data = null;
  try { data = await r.json(); } catch { data = { detail: r.statusText }; }
  return { ok: r.ok, status: r.status, data };
}

function showError(data) {
  $("acct-error").textContent = data ? errorText(data) : "";
}

function seatLabel(names, i) {
  return names[i] || t("web.seat_n", { n: i + 1 });
}

function resultText(g) {
  if (g.status !== "finished") return t("web.acct.playing");
  return g.result ? t(`web.acct.${g.result}`) : t("web.status_finished");
}

function rating(x) {
  return (Math.round(x * 10) / 10).toFixed(1);
}

/** The seats this browser remembers that are not the account's yet: a button adds them. */
function renderLinkHere(known) {
  const here = mySeats().filter((e) => !known.has(e.id));
  const b = $("link-here");
  b.hidden = !here.length;
  b.textContent = t("web.acct.link_here", { n: here.length });
  b.onclick = async () => {
    showError(null);
    for (const e of here) {
      const r = await change(`/api/account/games/${encodeURIComponent(e.id)}/link`, undefined, e.token);
      if (!r.ok && r.status !== 404) showError(r.data); // a game gone: nothing to add
    }
    renderHistory();
  };
}

/** Each game's title in the page's language (GET /api/kinds), fetched once a language;
 * the account's lists carry the game's own title, kept where a game is not listed. */
const titlesByLang = new Map();
async function titles() {
  const lang = currentLang();
  if (!titlesByLang.has(lang)) {
    titlesByLang.set(lang, api("GET", `/api/kinds?lang=${encodeURIComponent(lang)}`).then((r) =>
      new Map(r.ok ? r.data.games.map((k) => [k.name, k.title]) : [])));
  }
  return titlesByLang.get(lang);
}

async function renderHistory() {
  const ul = $("history");
  const [r, kindTitles] = await Promise.all([api("GET", "/api/account/games?limit=100"), titles()]);
  renderLinkHere(new Set(r.ok ? r.data.map((g) => g.id) : []));
  if (!r.ok || !r.data.length) {
    ul.innerHTML = `<li class="muted">${esc(r.ok ? t("web.acct.no_games") : errorText(r.data))}</li>`;
    return;
  }
  ul.innerHTML = r.data.map((g) => {
    const names = g.names.map((_, i) => (i === g.seat ? `<strong>${esc(seatLabel(g.names, i))}</strong>` : esc(seatLabel(g.names, i))));
    const rated = g.rated ? ` <span class="badge" data-testid="rated-badge">${esc(t("web.acct.rated"))}</span>` : "";
    const change = g.rating_after !== null && g.rating_before !== null
      ? ` <span class="muted" data-testid="rating-change">${esc(t("web.acct.rating_change", { before: rating(g.rating_before), after: rating(g.rating_after) }))}</span>` : "";
    const label = g.status === "finished" ? t("web.acct.view") : t("web.acct.open");
    return `<li data-testid="history-${esc(g.id)}" data-result="${esc(g.result || "")}">
      <span><strong class="game-kind" data-game="${esc(g.game)}">${esc(kindTitles.get(g.game) || g.title)}</strong> · ${names.join(" · ")} —
        <em data-testid="result">${esc(resultText(g))}</em>${rated}${change}</span>
      <button type="button" class="open" data-id="${esc(g.id)}" data-testid="open-${esc(g.id)}">${esc(label)}</button></li>`;
  }).join("");
  for (const b of ul.querySelectorAll("button.open")) {
    b.addEventListener("click", () => openGame(b.dataset.id));
  }
}

/** Your seat in one of your games, in this browser: its token comes from the account. */
async function openGame(id) {
  const r = await change(`/api/account/games/${encodeURIComponent(id)}/seat`);
  if (!r.ok) { showError(r.data); return; }
  rememberSeat(id, r.data.seat, r.data.token);
  location.href = `/game/${encodeURIComponent(id)}#seat=${r.data.seat}`;
}

async function renderRatings() {
  const body = $("ratings").querySelector("tbody");
  const [r, kindTitles] = await Promise.all([api("GET", "/api/account/ratings"), titles()]);
  if (!r.ok || !r.data.length) {
    body.innerHTML = `<tr><td colspan="4" class="muted">${esc(r.ok ? t("web.acct.no_ratings") : errorText(r.data))}</td></tr>`;
    return;
  }
  body.innerHTML = r.data.map((x) => `<tr data-testid="rating-${esc(x.game)}" data-ordinal="${x.ordinal}" data-games="${x.games}">
    <th scope="row">${esc(kindTitles.get(x.game) || x.title)}</th>
    <td title="μ ${esc(rating(x.mu))} · σ ${esc(rating(x.sigma))}">${esc(rating(x.ordinal))}</td>
    <td>${x.games}</td><td>${x.wins}</td></tr>`).join("");
}

function render() {
  const logged = !!me.account;
  $("acct-status").textContent = logged ? t("web.acct.logged_in_as", { name: me.account.name }) : t("web.acct.not_logged_in");
  $("acct-status").dataset.account = logged ? me.account.name : "";
  $("acct-forms").hidden = logged;
  $("acct-mine").hidden = !logged;
  if (logged) { renderRatings(); renderHistory(); }
}

async function refresh() {
  const r = await api("GET", "/api/account/me");
  me = r.ok ? r.data : { account: null, csrf: null };
  render();
}

async function credentials(path, nameEl, passwordEl) {
  showError(null);
  const r = await api("POST", path, { body: { name: nameEl.value.trim(), password: passwordEl.value } });
  passwordEl.value = "";
  if (!r.ok) { showError(r.data); return; }
  me = r.data;
  render();
}

$("login-form").addEventListener("submit", (e) => {
  e.preventDefault();
  credentials("/api/account/login", $("login-name"), $("login-password"));
});
$("register-form").addEventListener("submit", (e) => {
  e.preventDefault();
  credentials("/api/account/register", $("register-name"), $("register-password"));
});
$("logout").addEventListener("click", async () => {
  showError(null);
  const r = await change("/api/account/logout");
  if (!r.ok) showError(r.data);
  await refresh();
});
$("password-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  showError(null);
  const r = await change("/api/account/password", {
    password: $("current-password").value, new_password: $("new-password").value,
  });
  $("current-password").value = "";
  $("new-password").value = "";
  if (!r.ok) { showError(r.data); return; }
  me = r.data;
  render();
  $("acct-status").textContent = t("web.acct.password_changed");
});
$("delete-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  showError(null);
  const r = await change("/api/account/delete", { password: $("delete-password").value });
  $("delete-password").value = "";
  if (!r.ok) { showError(r.data); return; }
  await refresh();
  $("acct-status").textContent = t("web.acct.deleted");
});

onLang(() => render());
await initLang();
await refresh();
