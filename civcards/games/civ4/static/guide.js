// The guided mode of civ4 (help.js shows it): per decision, what to do now and why, by the
// control that does it. civ4.js calls guideFor with what the seat is composing; the words
// are the catalogue's (ccg.guide.*), the moves that would end the game with the seat behind
// are the server's (decide.ending), so the guide never points at one.
import { t } from "/static/common.js";

const q = (sel) => document.querySelector(sel);

/** {el, text} for the control `sel` (its first enabled match), or null. */
function at(sel, key, params = {}) {
  const el = [...document.querySelectorAll(sel)].find((x) => !x.disabled);
  return el ? { el, text: t(key, params) } : null;
}

/** The purchase step: the first thing the seat can buy (a technology that would end the
 * game with it behind excepted), else the end of the purchases. */
function purchase(s) {
  if (s.ui.pay) return at('#actions button[data-key="go-pay"]', "ccg.guide.pay", { cost: s.d.plot_cost });
  if (s.ui.build) return at('#players button[data-key^="build-at-"], #actions button[data-key^="build-p"]', "ccg.guide.build_where");
  if (s.ui.attack) return at('#actions button[data-key^="inc-attack."]', "ccg.guide.attack");
  const ending = s.d.ending || {};
  const tech = [...document.querySelectorAll('#mine button[data-key^="buy-tech-"]')].find((b) => !ending[b.dataset.send]);
  if (tech) return { el: tech, text: t("ccg.guide.purchase_tech") };
  return at("#mine button[data-build-card]", "ccg.guide.purchase_build")
    || at('#players button[data-key^="pop-"]', "ccg.guide.purchase_pop")
    || at('#mine button[data-key^="buy-plot-"]', "ccg.guide.purchase_plot")
    || at('#actions button[data-key="end"]', "ccg.guide.purchase_end");
}

/** `s`: {step, d (the server's decision), ui (what is being composed), opened (a step is
 * open)}. */
export function guideFor(s) {
  if (s.ui.confirm) return at('#actions button[data-key="cancel"]', "ccg.guide.confirm");
  if (s.opened) return at('#actions button[data-key^="open-"]', "ccg.guide.open");
  switch (s.step) {
    case "draft": return at('#actions button[data-key^="pick-"]', "ccg.guide.draft");
    case "settle": return at('#players button[data-key^="settle-"]', "ccg.guide.settle");
    case "collect": return at('#actions button[data-key="go-collect"]', "ccg.guide.collect");
    case "start_discard":
    case "discard": return at('#actions button[data-key="go-discard"]', "ccg.guide.discard", { k: s.d.k || 0 });
    case "purchase": return purchase(s);
    case "walls": return at('#actions button[data-key^="walls-"]', "ccg.guide.walls");
    case "defend": return at('#actions button[data-key="go-defend"]', "ccg.guide.defend");
    case "damage": return at('#actions button[data-key="go-damage"]', "ccg.guide.damage");
    case "place": return at('#actions button[data-key="go-place"]', "ccg.guide.place");
    default: return q("#actions button") ? at("#actions button", "web.guide.generic") : null;
  }
}
