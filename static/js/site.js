// Small progressive enhancements. Pages work without this file.
"use strict";
// Move focus to the main region after an htmx navigation that replaced it,
// so keyboard and screen-reader users land on the new content.
document.addEventListener("htmx:afterSettle", (event) => {
  const target = event.detail && event.detail.target;
  if (target && target.hasAttribute("data-focus-after-swap")) {
    target.focus({ preventScroll: true });
  }
});
