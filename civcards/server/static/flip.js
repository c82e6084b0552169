// Every move seen (issue 39): what a move carries from one place to another glides there.
// The shell (table.js) takes a snapshot() of the page just before it draws the position of a
// single new move and calls play() with it just after: each card face (any element with
// data-card=<code>, the games' faces.js) that stands in a new place and stood elsewhere before
// (hand → plot, one empire → another, market → hand) moves from its old place to its new one
// (FLIP: First, Last, Invert, Play), a card that left and stands nowhere now fades toward the
// discard pile (#discard) if the move changed it (else where it was), and a population token
// (.tokens[data-n], one more than before) comes from its empire's supply. At most MS ms, with
// the Web Animations API (id "flip"); nothing moves when the reader prefers less motion. Cost:
// one querySelectorAll and the rects of what it finds before, the same after; every rect is
// read before any animation is started.

const MS = 350;
const SELECTOR = "[data-card], .tokens[data-n]";

/** Less motion asked for (the system's setting): no animation at all. */
export function still() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The page rect of `el` (document coordinates, so that a scroll between does not count). */
function pageRect(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height };
}

/** Where a card face stands: its nearest element named by data-testid (a hand's card, a
 * plot's slot, a market's card), else nowhere in particular. */
function placeOf(el) {
  const p = el.closest("[data-testid]");
  return p ? p.dataset.testid : "";
}

/** The cards and tokens of the page under `root` with their places (null: less motion). */
export function snapshot(root) {
  if (still()) return null;
  const cards = new Map(); // code → [{place, rect, el}]
  const tokens = new Map(); // the tokens' data-testid → their number
  for (const el of root.querySelectorAll(SELECTOR)) {
    if (el.dataset.card !== undefined) {
      const r = pageRect(el);
      if (!r.w && !r.h) continue; // not shown (a closed panel)
      const list = cards.get(el.dataset.card) || [];
      list.push({ place: placeOf(el), rect: r, el, text: el.textContent });
      cards.set(el.dataset.card, list);
    } else if (el.dataset.testid) {
      tokens.set(el.dataset.testid, Number(el.dataset.n));
    }
  }
  const pile = document.getElementById("discard");
  return { cards, tokens, pile: pile ? pile.textContent : null };
}

/** Of `list`'s entries, those beyond the number of their place in `other` (count by place). */
function beyond(list, other) {
  const have = new Map();
  for (const e of other) have.set(e.place, (have.get(e.place) || 0) + 1);
  const out = [];
  for (const e of list) {
    const n = have.get(e.place) || 0;
    if (n > 0) have.set(e.place, n - 1);
    else out.push(e);
  }
  return out;
}

/** `el` (now at `to`) played from `from` to its place. */
function glide(el, from, to) {
  const sx = to.w && from.w ? from.w / to.w : 1;
  const sy = to.h && from.h ? from.h / to.h : 1;
  el.animate([
    { transformOrigin: "0 0", transform: `translate(${from.x - to.x}px, ${from.y - to.y}px) scale(${sx}, ${sy})` },
    { transformOrigin: "0 0", transform: "none" },
  ], { duration: MS, easing: "ease-out", id: "flip" });
}

/** After the new position is drawn: each card and token that moved, from where it was. */
export function play(snap, root) {
  if (!snap || still()) return;
  // -- read: every rect first --
  const now = new Map();
  const grown = [];
  for (const el of root.querySelectorAll(SELECTOR)) {
    if (el.dataset.card !== undefined) {
      const list = now.get(el.dataset.card) || [];
      list.push({ place: placeOf(el), el, text: el.textContent });
      now.set(el.dataset.card, list);
    } else if (el.dataset.testid && snap.tokens.has(el.dataset.testid)
      && Number(el.dataset.n) > snap.tokens.get(el.dataset.testid)) {
      const token = el.lastElementChild;
      const supply = el.closest(".player")?.querySelector(".supply");
      if (token && supply) grown.push({ el: token, from: pageRect(supply), to: pageRect(token) });
    }
  }
  const moves = []; // [el, from, to]
  const gone = []; // old entries that stand nowhere now
  for (const code of new Set([...snap.cards.keys(), ...now.keys()])) {
    const before = snap.cards.get(code) || [];
    const after = now.get(code) || [];
    const arrived = beyond(after, before);
    const left = beyond(before, after);
    arrived.forEach((e, i) => {
      // from the place it left, else from a stack of copies it came off (the same place, its
      // face changed: ×2 → ×1); a card new to the page (drawn) comes from nowhere
      const from = left[i] || before.find((b) => after.some((a) => a.place === b.place && a.text !== b.text));
      if (from) moves.push([e.el, from.rect, pageRect(e.el)]);
    });
    gone.push(...left.slice(arrived.length));
  }
  // toward the discard pile where the move changed it (a card played elsewhere only fades)
  const pile = gone.length ? document.getElementById("discard") : null;
  const pileRect = pile && !pile.hidden && pile.textContent !== snap.pile ? pageRect(pile) : null;
  // -- write: the animations --
  for (const [el, from, to] of moves) glide(el, from, to);
  for (const { el, from, to } of grown) {
    glide(el, { x: from.x + from.w / 2, y: from.y + from.h / 2, w: to.w, h: to.h }, to);
  }
  for (const g of gone) {
    const c = g.el.cloneNode(true);
    c.setAttribute("aria-hidden", "true");
    c.removeAttribute("data-card"); // not a card of the page
    Object.assign(c.style, {
      position: "absolute", left: `${g.rect.x}px`, top: `${g.rect.y}px`, width: `${g.rect.w}px`,
      height: `${g.rect.h}px`, margin: "0", pointerEvents: "none", zIndex: "50",
    });
    document.body.appendChild(c);
    const to = pileRect && pileRect.w ? { x: pileRect.x, y: pileRect.y, w: g.rect.w * 0.4, h: g.rect.h * 0.4 } : null;
    const a = to
      ? c.animate([{ transformOrigin: "0 0", transform: "none", opacity: 1 },
        { transformOrigin: "0 0", transform: `translate(${to.x - g.rect.x}px, ${to.y - g.rect.y}px) scale(.4)`, opacity: 0 }],
      { duration: MS, easing: "ease-in", id: "flip" })
      : c.animate([{ opacity: 1 }, { opacity: 0 }], { duration: MS, id: "flip" });
    a.onfinish = () => c.remove();
    a.oncancel = () => c.remove();
  }
}
