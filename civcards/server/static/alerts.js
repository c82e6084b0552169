// Turn alerts (issue 21): when the viewer's turn comes, the tab's title and icon change, an
// optional sound plays (WebAudio, no sound file), and, with the browser's permission, a
// notification arrives while the tab is hidden. Each can be turned off in the table's small
// settings panel, the sounds (off at first; your turn, an attack on you: issue 39) with the
// table header's toggle (table.js); the settings live in this browser's localStorage.
// Nothing here knows a game.
import { esc, onLang, t } from "./common.js";
import { guideOn, onGuide, setGuide } from "./help.js";

const KEY = "civcards.alerts";
const DEFAULTS = { title: true, sound: false, notify: false };

export function settings() {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { ...DEFAULTS, ...(v && typeof v === "object" ? v : {}) };
  } catch {
    return { ...DEFAULTS };
  }
}

function save(s) {
  try { localStorage.setItem(KEY, JSON.stringify(s)); } catch { /* private mode */ }
}

// -- the tab: title and icon --

const baseTitle = document.title;
let wasMine = null;
let gameTitle = "";

function icon(mine) {
  // a card, and a bright dot when it is your turn (an SVG data URL: no file to serve)
  const dot = mine ? '<circle cx="24" cy="8" r="7" fill="#e8590c" stroke="#fff" stroke-width="2"/>' : "";
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="5" y="3" width="18" height="26" rx="3" fill="#0a6b2d"/>${dot}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function setIcon(mine) {
  let link = document.querySelector('link[rel="icon"]');
  if (!link) {
    link = document.createElement("link");
    link.rel = "icon";
    document.head.appendChild(link);
  }
  link.href = icon(mine);
  link.dataset.mine = mine ? "1" : "0";
}

function showTab(mine) {
  const on = mine && settings().title;
  document.title = on ? `▶ ${t("web.alert.your_turn")} · ${baseTitle}` : baseTitle;
  setIcon(on);
}

// -- the beep --

let audio = null;

function unlockAudio() {
  // browsers start audio only after a gesture: make the context on the first one
  try {
    if (!audio) audio = new (window.AudioContext || window.webkitAudioContext)();
    if (audio.state === "suspended") audio.resume();
  } catch { audio = null; }
}
document.addEventListener("pointerdown", unlockAudio, { once: true });
document.addEventListener("keydown", unlockAudio, { once: true });

// each sound: its notes [frequency in Hz, start in s, length in s], its wave and loudness
const SOUNDS = {
  turn: { notes: [[660, 0, 0.14], [880, 0.16, 0.14]], wave: "sine", gain: 0.2 }, // rising: your turn
  attack: { notes: [[330, 0, 0.1], [247, 0.12, 0.1], [185, 0.24, 0.22]], wave: "triangle", gain: 0.3 }, // falling
};

/** Play a short sound ("turn" when it is not asked); false where the browser has no audio. */
export function beep(kind = "turn") {
  const sound = SOUNDS[kind] || SOUNDS.turn;
  try {
    if (!audio) audio = new (window.AudioContext || window.webkitAudioContext)();
    const now = audio.currentTime;
    for (const [freq, at, len] of sound.notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = sound.wave;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, now + at);
      gain.gain.exponentialRampToValueAtTime(sound.gain, now + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + at + len);
      osc.connect(gain).connect(audio.destination);
      osc.start(now + at);
      osc.stop(now + at + len + 0.01);
    }
    return true;
  } catch {
    return false;
  }
}

/** Whether the sounds are on (the table header's toggle; off at first). */
export function soundOn() {
  return settings().sound;
}

/** Turn the sounds on or off (remembered); turned on, the turn's sound plays: what it sounds like. */
export function setSound(on) {
  save({ ...settings(), sound: !!on });
  if (on) beep("turn");
}

/** Play `kind` ("turn", "attack") if the sounds are on; each one played is counted in the
 * page's data-sound-KIND (what a test observes). */
export function playSound(kind) {
  if (!settings().sound) return false;
  const key = `sound${kind[0].toUpperCase()}${kind.slice(1)}`;
  const root = document.documentElement;
  root.dataset[key] = String(Number(root.dataset[key] || 0) + 1);
  return beep(kind);
}

function notify() {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  try {
    const n = new Notification(t("web.alert.your_turn"), {
      body: t("web.alert.notify_body", { game: gameTitle }),
      tag: "civcards-turn",
    });
    n.onclick = () => { window.focus(); n.close(); };
  } catch { /* some browsers allow notifications from service workers only */ }
}

/** The table calls this with each view: `mine` is whether the viewer is to decide now. */
export function turnChanged(mine, title = "") {
  gameTitle = title || gameTitle;
  showTab(mine);
  if (mine && wasMine === false) { // it has just become the viewer's turn
    const s = settings();
    document.documentElement.dataset.alerted = String(Number(document.documentElement.dataset.alerted || 0) + 1);
    playSound("turn");
    if (s.notify && document.hidden) notify();
  }
  wasMine = mine;
}

document.addEventListener("visibilitychange", () => { if (wasMine !== null) showTab(wasMine); });

// -- the settings panel --

let panel = null;

function renderPanel() {
  const s = settings();
  const open = panel.querySelector("details") ? panel.querySelector("details").open : false;
  const denied = "Notification" in window && Notification.permission === "denied";
  const box = (key, label, on) => `<li><label class="check"><input type="checkbox" data-setting="${key}" data-testid="setting-${key}"${on ? " checked" : ""}> ${esc(label)}</label></li>`;
  panel.innerHTML = `<details${open ? " open" : ""}><summary data-testid="settings">⚙ ${esc(t("web.settings"))}</summary>
    <ul class="settings-list">
      ${box("title", t("web.settings.title"), s.title)}
      ${box("notify", t("web.settings.notify"), s.notify && !denied)}
      ${box("guide", t("web.settings.guide"), guideOn())}
    </ul>
    ${denied ? `<p class="muted">${esc(t("web.settings.notify_denied"))}</p>` : ""}
    ${panel.dataset.rules ? `<p><a href="${esc(panel.dataset.rules)}" target="_blank" rel="noopener" data-testid="rules-link">${esc(t("web.rules.link"))}</a></p>` : ""}
  </details>`;
  for (const input of panel.querySelectorAll("input[data-setting]")) {
    input.addEventListener("change", async () => {
      const key = input.dataset.setting;
      if (key === "guide") { setGuide(input.checked); return; }
      const next = { ...settings(), [key]: input.checked };
      if (key === "notify" && input.checked && "Notification" in window && Notification.permission === "default") {
        try { await Notification.requestPermission(); } catch { /* refused */ }
        if (Notification.permission !== "granted") next.notify = false;
      }
      save(next);
      renderPanel();
      if (wasMine !== null) showTab(wasMine);
    });
  }
}

/** Put the settings panel (alerts, the guide, a link to the rules) at the top of `container`. */
export function mountSettings(container, rulesHref = "") {
  if (panel || !container) return;
  panel = document.createElement("section");
  panel.className = "panel settings";
  panel.id = "settings";
  panel.dataset.rules = rulesHref;
  container.prepend(panel);
  renderPanel();
  onLang(() => renderPanel());
  onGuide(() => renderPanel());
}
