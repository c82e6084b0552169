// The rules page's card reference drawn with its game's own card faces (issue 39): the
// server names the game's faces module (data-faces on #cards, only where the game's front-end
// files hold a faces.js); the module's upgradeReference(root) draws each reference card
// (data-card, data-face) as the table does. A game without one, or a module that fails to
// load, keeps the text reference.
const root = document.getElementById("cards");
const src = root ? root.dataset.faces : "";
if (root && src && src.startsWith("/static/games/")) {
  import(src)
    .then((m) => { if (typeof m.upgradeReference === "function") m.upgradeReference(root); root.dataset.faced = "1"; })
    .catch(() => { root.dataset.faced = "0"; });
}
