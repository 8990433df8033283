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
