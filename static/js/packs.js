// Booster pages: a small enhancement. Every page works without this file.
"use strict";
// The open form: once sent, its button says so and cannot be pressed again (the server
// also opens one pack for a form sent twice).
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute("data-open-pack")) {
    return;
  }
  const button = form.querySelector("button[type=submit]");
  if (button) {
    window.setTimeout(() => {
      button.disabled = true;
      button.setAttribute("aria-busy", "true");
    }, 0);
  }
});
// The client seed: the browser fills a random one (crypto.getRandomValues) into an
// empty field; the person may type their own. Without this file the field stays empty
// and the form's note points to a page where the server proposes one. The pool page's
// form comes as an htmx fragment (it holds the visitor's CSRF token, and the page is
// shared by every visitor): it is filled when htmx has put it in ("htmx:load").
function fillClientSeeds(root) {
  for (const input of root.querySelectorAll("input[data-client-seed]")) {
    if (input.value) {
      continue;
    }
    const bytes = new Uint8Array(12);
    window.crypto.getRandomValues(bytes);
    input.value = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }
}
document.addEventListener("DOMContentLoaded", () => fillClientSeeds(document));
document.addEventListener("htmx:load", (event) => {
  const root = event.target;
  if (root instanceof Element) {
    fillClientSeeds(root.parentElement || root);
  }
});
