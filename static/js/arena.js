// The slab arena's small enhancements: the turn countdown and the surrender confirmation.
// Pages work without this file: the server enforces the clock, and surrendering without
// JavaScript goes through a confirmation page.
"use strict";
(() => {
  const timers = new WeakMap();

  function startCountdown(el) {
    if (timers.has(el)) return;
    const seconds = parseFloat(el.dataset.secondsLeft || "0");
    const text = el.querySelector(".clock-text") || el;
    const end = performance.now() + seconds * 1000;
    const suffix = el.dataset.suffix || "s";
    const tick = () => {
      if (!el.isConnected) {
        clearInterval(timers.get(el));
        return;
      }
      const left = Math.max(0, (end - performance.now()) / 1000);
      if (left <= 0) {
        clearInterval(timers.get(el));
        text.textContent = el.dataset.expired || "";
        el.classList.add("clock-expired");
        const url = el.dataset.refreshUrl;
        // Ask the server (its clock decides) once the time is up; htmx swaps the board.
        if (url && window.htmx && document.getElementById("match")) {
          window.setTimeout(() => {
            window.htmx.ajax("GET", url, { target: "#match", swap: "outerHTML", select: "#match" });
          }, 600);
        }
        return;
      }
      text.textContent = Math.ceil(left) + " " + suffix;
      el.classList.toggle("clock-low", left <= 5);
    };
    tick();
    timers.set(el, window.setInterval(tick, 250));
  }

  function init(root) {
    root.querySelectorAll("[data-countdown]").forEach(startCountdown);
  }

  // Surrender: confirm on submit; a confirmed form skips the confirmation page.
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.dataset.confirm) return;
      if (!window.confirm(form.dataset.confirm)) {
        event.preventDefault();
        event.stopImmediatePropagation();
        return;
      }
      const field = form.querySelector('input[name="confirmed"]');
      if (field) field.value = "1";
    },
    true,
  );

  document.addEventListener("DOMContentLoaded", () => init(document));
  document.addEventListener("htmx:afterSettle", () => init(document));
})();
