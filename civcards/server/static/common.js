// Shared by the lobby, the table and the games' modules: texts, language, stored seats,
// API calls. Nothing here knows a game.

export const LANGS = ["en", "es", "de", "fr", "pt"];

let texts = JSON.parse(document.getElementById("catalogue").textContent);
let lang = document.documentElement.lang || "en";
const listeners = [];

export function t(key, params = {}) {
  let s = texts[key];
  if (s === undefined) return key;
  for (const [k, v] of Object.entries(params)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/** The words for a refusal of the server ({code, detail}) in the reader's language. */
export function errorText(data) {
  const code = data && typeof data.code === "string" ? data.code : "";
  if (code && texts[`web.err.${code}`] !== undefined) return t(`web.err.${code}`, { detail: (data && data.detail) || "" });
  return t("web.error", { detail: (data && data.detail) || "" });
}

/** A bot level's words ("greedy" -> "bot: greedy"), else its name; a catalogue key holds no
 * "+" (ismcts+net's words are web.bot_ismcts_net). */
export function botLabel(bot) {
  const key = `web.bot_${bot.replace("+", "_")}`;
  return texts[key] !== undefined ? t(key) : bot;
}

/** A seat's name (a public seat: {seat, kind, bot, name}) in the reader's language: the
 * player's own, else "Seat 2", or a bot's default name ("random bot 3", stored in English). */
export function seatName(s) {
  const n = s.seat + 1;
  if (s.kind === "bot" && s.bot && (!s.name || s.name === `${s.bot} bot ${n}`)) {
    const base = s.bot.split(":")[0];
    const key = `web.botlevel.${base.replace("+", "_")}`; // a key holds no "+"
    return t("web.bot_seat", { n, level: texts[key] !== undefined ? t(key) : base });
  }
  return s.name || t("web.seat_n", { n });
}

export function currentLang() {
  return lang;
}

/** Fill every [data-i18n] element of the page. */
export function applyStatic() {
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

export async function setLang(code) {
  if (!LANGS.includes(code)) code = "en";
  const r = await fetch(`/api/i18n/${code}`);
  if (!r.ok) return;
  texts = await r.json();
  lang = code;
  localStorage.setItem("civcards.lang", code);
  applyStatic();
  for (const f of listeners) f(code);
}

export function onLang(f) {
  listeners.push(f);
}

/** The language: stored choice, else the browser's, else the page's. */
export async function initLang() {
  const sel = document.getElementById("lang-select");
  for (const opt of sel.options) opt.textContent = LANG_NAMES[opt.value] || opt.value;
  sel.addEventListener("change", () => setLang(sel.value));
  let want = localStorage.getItem("civcards.lang");
  if (!want) {
    for (const l of navigator.languages || [navigator.language || "en"]) {
      const code = l.slice(0, 2).toLowerCase();
      if (LANGS.includes(code)) { want = code; break; }
    }
  }
  if (want && want !== lang) await setLang(want);
  sel.value = lang;
  applyStatic();
}

const LANG_NAMES = { en: "English", es: "Español", de: "Deutsch", fr: "Français", pt: "Português" };

// -- seats remembered in this browser (the token is the seat's credential) --

const KEY = "civcards.seats";

export function mySeats() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

export function rememberSeat(id, seat, token) {
  const all = mySeats().filter((e) => !(e.id === id && e.seat === seat));
  all.unshift({ id, seat, token, at: Date.now() });
  localStorage.setItem(KEY, JSON.stringify(all.slice(0, 100)));
}

export function forgetGame(id) {
  localStorage.setItem(KEY, JSON.stringify(mySeats().filter((e) => e.id !== id)));
}

export function seatFor(id, seat) {
  return mySeats().find((e) => e.id === id && (seat === null || e.seat === seat)) || null;
}

// -- API --

export async function api(method, path, { token = null, body = undefined } = {}) {
  const headers = {};
  if (token) headers["X-Seat-Token"] = token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let r;
  try {
    r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    return { ok: false, status: 0, data: { detail: String(e) } };
  }
  let data = null;
  try { data = await r.json(); } catch { data = { detail: r.statusText }; }
  return { ok: r.ok, status: r.status, data };
}

export function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export function announce(text) {
  const el = document.getElementById("announcer");
  if (el) el.textContent = text;
}
