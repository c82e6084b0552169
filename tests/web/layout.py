"""The layout guard's checks, for any page of the web table (issue 38): a helper that takes a
Playwright page and answers its layout problems as sentences (an empty list: none).

:func:`layout_problems` checks what a player sees at the viewport's size:

* ``wide``: no element reaches past the viewport's sides (nothing to scroll sideways to),
  unless a box that scrolls or clips it holds it;
* ``icon``: no icon (``svg``, ``img``) is taller or wider than twice the font size of the
  text around it (its parent's);
* ``spill``: no block's content spills out of its box sideways (a long word over its
  neighbour: a plot name over the next plot);
* ``word``: no word of a heading, table header, label or button is broken across two lines
  (a header that breaks mid-word);
* ``overlap``: no two children of a grid or flex box overlap each other;
* ``cover``: no control (a button, a select…) is drawn over visible text of another element
  (a sticky button over the line under it: boxes that are not siblings of one grid or flex
  box, which ``overlap`` does not compare).

:func:`control_near` checks that a decision's control is visible without scrolling away from
the choice that opened it: not cut off by a box that scrolls (a region of a one-screen table),
and in the viewport or within one viewport height of the opener.

The table's redesign (issue 39) builds on these: they know no game.
"""

from __future__ import annotations

from typing import Any

Page = Any

#: an icon may be at most this many times its parent's font size (height and width)
ICON_RATIO = 2.0

_PROBLEMS_JS = r"""
([iconRatio, root]) => {
  const out = [];
  const vw = document.documentElement.clientWidth;
  const scope = root ? document.querySelector(root) : document.body;
  if (!scope) return [`no element ${root}`];
  // each element's computed style, asked once (the page does not change while it is measured)
  const styles = new Map();
  const style = (el) => {
    let cs = styles.get(el);
    if (!cs) { cs = getComputedStyle(el); styles.set(el, cs); }
    return cs;
  };
  // drawn: not in a closed <details>, not hidden
  const shown = (el) => el.getClientRects().length > 0
    && el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true });
  const desc = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += `#${el.id}`;
    const tid = el.dataset && (el.dataset.testid || el.dataset.key);
    if (tid) s += `[${tid}]`;
    else if (el.classList && el.classList.length) s += `.${[...el.classList].slice(0, 2).join(".")}`;
    const text = (el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 30);
    return text ? `${s} "${text}"` : s;
  };
  // the box that scrolls or clips an element (its overflow is not a page's overflow)
  const clipped = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const cs = style(p);
      if (cs.overflowX !== "visible" || cs.overflowY !== "visible") return true;
      if (cs.clip !== "auto" && cs.position === "absolute") return true;
    }
    return false;
  };
  const offscreen = (el) => {
    // deliberately out of sight (a skip link until focused, a screen reader's text)
    const r = el.getBoundingClientRect();
    return r.right <= 0 || r.width <= 1 || r.height <= 1;
  };
  const all = [...scope.querySelectorAll("*")].filter((el) => {
    if (el.closest("#tip, .sr-only, script, style, template, option, datalist")) return false;
    if (el.closest("svg") && el.tagName.toLowerCase() !== "svg") return false;
    return shown(el);
  });
  if (!root && document.documentElement.scrollWidth > vw + 1) {
    out.push(`wide: the page is ${document.documentElement.scrollWidth} px wide in a ${vw} px viewport`);
  }
  for (const el of all) {
    const r = el.getBoundingClientRect();
    if (offscreen(el)) continue;
    if ((r.right > vw + 1 || r.left < -1) && !clipped(el)) {
      out.push(`wide: ${desc(el)} spans ${Math.round(r.left)}..${Math.round(r.right)} px in a ${vw} px viewport`);
    }
  }
  for (const el of all) {
    const tag = el.tagName.toLowerCase();
    if (tag !== "svg" && tag !== "img") continue;
    if (el.closest(".chart")) continue; // a drawing (the review's graph), not an icon
    const parent = el.parentElement;
    const fs = parseFloat(style(parent).fontSize) || 16;
    const r = el.getBoundingClientRect();
    if (r.height > iconRatio * fs + 0.5 || r.width > iconRatio * fs + 0.5) {
      out.push(`icon: ${desc(parent)} has an icon of ${Math.round(r.width)}x${Math.round(r.height)} px by text of ${fs} px`);
    }
  }
  for (const el of all) {
    if (!(el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)) continue;
    const tag = el.tagName.toLowerCase();
    if (["svg", "select", "input", "textarea", "img", "table", "tbody", "thead", "tr"].includes(tag)) continue;
    const cs = style(el);
    if (cs.display.startsWith("inline") && cs.display !== "inline-block" && cs.display !== "inline-flex") continue;
    if (cs.overflowX !== "visible" || clipped(el)) continue;
    out.push(`spill: ${desc(el)} holds ${el.scrollWidth} px of content in ${el.clientWidth} px`);
  }
  const wordsOf = (el) => {
    const broken = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement.closest(".sr-only")) continue;
      const text = n.textContent;
      for (const m of text.matchAll(/[^\s\u00a0]{2,}/g)) {
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
    return broken;
  };
  for (const el of all) {
    if (!el.matches("th, h1, h2, h3, h4, label, legend, summary, button, .button")) continue;
    const broken = wordsOf(el);
    if (broken.length) out.push(`word: ${desc(el)} breaks ${broken.map((w) => `"${w}"`).join(", ")} across lines`);
  }
  for (const el of all) {
    const d = style(el).display;
    if (!/(^|-)(flex|grid)$/.test(d)) continue;
    const kids = [...el.children].filter((k) => shown(k) && !["absolute", "fixed"].includes(style(k).position))
      .map((k) => [k, k.getBoundingClientRect()]).filter(([, q]) => q.width > 1 && q.height > 1);
    for (let i = 0; i < kids.length; i++) {
      for (let j = i + 1; j < kids.length; j++) {
        const [a, p] = kids[i];
        const [b, q] = kids[j];
        const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
        const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
        if (w > 2 && h > 2) out.push(`overlap: ${desc(a)} and ${desc(b)} overlap by ${Math.round(w)}x${Math.round(h)} px`);
      }
    }
  }
  // cover: a control drawn over the visible text of another element (a sticky or placed
  // button over a line it does not hold), where both are in sight in their scrolling boxes
  // (a text's own element clips it too: a line clamped away is not seen)
  const sight = (el, self) => {
    let r = { left: -1e9, top: -1e9, right: 1e9, bottom: 1e9 };
    for (let p = self ? el : el.parentElement; p && p !== document.documentElement; p = p.parentElement) {
      const cs = style(p);
      if (cs.overflowX === "visible" && cs.overflowY === "visible") continue;
      const q = p.getBoundingClientRect();
      r = { left: Math.max(r.left, q.left), top: Math.max(r.top, q.top),
            right: Math.min(r.right, q.right), bottom: Math.min(r.bottom, q.bottom) };
    }
    return r;
  };
  const cut = (p, q) => ({ left: Math.max(p.left, q.left), top: Math.max(p.top, q.top),
    right: Math.min(p.right, q.right), bottom: Math.min(p.bottom, q.bottom) });
  // a bar fixed or stuck on the screen (a phone's action bar, its tabs) hides the page scrolled
  // under it: the text of the same such box (or of none) is compared with a control
  // (each element's answer kept: its parent's answer is its own unless it is such a box)
  const fixed = new Map();
  const fixedOf = (el) => {
    if (!el || el === document.documentElement) return null;
    if (fixed.has(el)) return fixed.get(el);
    const bar = ["fixed", "sticky"].includes(style(el).position) ? el : fixedOf(el.parentElement);
    fixed.set(el, bar);
    return bar;
  };
  const controls = all.filter((el) => el.matches("button, select, input, textarea, [role=button]"));
  if (controls.length) {
    const drawn = new Set(all);
    const texts = [];
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const host = n.parentElement;
      if (!n.textContent.trim() || !host || !drawn.has(host)) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const view = sight(host, true);
      const rects = [...range.getClientRects()].map((q) => cut(q, view))
        .filter((q) => q.right - q.left > 1 && q.bottom - q.top > 1);
      if (rects.length) texts.push([host, rects, n.textContent.trim()]);
    }
    for (const c of controls) {
      const box = cut(c.getBoundingClientRect(), sight(c, false));
      const bar = fixedOf(c);
      for (const [host, rects, text] of texts) {
        // where the boxes meet (measured first: most texts are nowhere near the control)
        const hit = rects.map((q) => cut(q, box)).find((q) => q.right - q.left > 2 && q.bottom - q.top > 2);
        if (!hit || c.contains(host) || host.contains(c) || fixedOf(host) !== bar) continue;
        // drawn over it: the control is what is seen there (not a bar over both, the text's own)
        const top = document.elementFromPoint((hit.left + hit.right) / 2, (hit.top + hit.bottom) / 2);
        if (top && c.contains(top)) {
          out.push(`cover: ${desc(c)} is drawn over the text "${text.replace(/\s+/g, " ").slice(0, 40)}" of ${desc(host)}`);
        }
      }
    }
  }
  return [...new Set(out)];
}
"""


def layout_problems(page: Page, root: str | None = None) -> list[str]:
    """The layout problems of ``page`` as it is drawn now (of the element ``root`` and what
    it holds, or of the whole page): one sentence each, an empty list when there are none."""
    out: list[str] = page.evaluate(_PROBLEMS_JS, [ICON_RATIO, root])
    return out


_NEAR_JS = r"""
([selector, openerTop]) => {
  const el = [...document.querySelectorAll(selector)].find((e) => e.getClientRects().length);
  if (!el) return `no visible control ${selector}`;
  const r = el.getBoundingClientRect();
  const vh = window.innerHeight;
  // a box of its own that scrolls or clips (a region of a one-screen table) must show it
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const cs = getComputedStyle(p);
    if (cs.overflowY === "visible" && cs.overflowX === "visible") continue;
    const q = p.getBoundingClientRect();
    if (r.top < q.top - 1 || r.bottom > q.bottom + 1 || r.left < q.left - 1 || r.right > q.right + 1) {
      const name = p.id ? `#${p.id}` : p.tagName.toLowerCase();
      return `hidden: ${selector} (${Math.round(r.top)}..${Math.round(r.bottom)} px) is cut off by its scrolling box ${name} (${Math.round(q.top)}..${Math.round(q.bottom)} px)`;
    }
  }
  if (r.top >= 0 && r.bottom <= vh) return "";
  const top = r.top + window.scrollY;
  if (openerTop !== null && Math.abs(top - openerTop) <= vh) return "";
  return `far: ${selector} is at ${Math.round(top)} px, out of the viewport (${vh} px high, scrolled to ${Math.round(window.scrollY)})` +
    (openerTop === null ? "" : ` and ${Math.round(Math.abs(top - openerTop))} px from the choice that opened it`);
}
"""


def page_top(page: Page, selector: str) -> float:
    """The top of the first visible element ``selector`` in the page's coordinates."""
    top: float = page.evaluate(
        """s => { const e = [...document.querySelectorAll(s)].find((x) => x.getClientRects().length);
                  return e ? e.getBoundingClientRect().top + window.scrollY : -1e9; }""",
        selector,
    )
    return top


def control_near(page: Page, selector: str, opener_top: float | None = None) -> list[str]:
    """Whether the control ``selector`` can be seen without scrolling away from the choice
    that opened it (at ``opener_top``, :func:`page_top` before the click): in the viewport,
    or within one viewport height of the opener. One sentence when not."""
    why: str = page.evaluate(_NEAR_JS, [selector, opener_top])
    return [why] if why else []
