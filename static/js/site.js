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

// The language switch leads to the same page in the other language; keep the place on
// it too (the #fragment, which the server never sees). Without this file the switch
// still works and lands at the top of the page.
document.addEventListener("click", (event) => {
  const link = event.target instanceof Element && event.target.closest(".lang-switch a[href]");
  if (!link || !window.location.hash) {
    return;
  }
  const url = new URL(link.href, window.location.href);
  if (!url.hash) {
    url.hash = window.location.hash;
    link.href = url.href;
  }
});

// An htmx answer that pushed a new address (a what-if, a search, a page of results) left
// the language switch pointing at the address the page was loaded with: point it at the
// new one, so switching language keeps the what-if or the search. (Every address of the
// site is /<language>/…, the same after the prefix in every language.)
function followPushedAddress() {
  const prefix = `/${document.documentElement.lang}/`;
  const here = window.location;
  if (!here.pathname.startsWith(prefix)) {
    return;
  }
  const rest = here.pathname.slice(prefix.length) + here.search;
  for (const link of document.querySelectorAll(".lang-switch a[hreflang]")) {
    link.href = `/${link.getAttribute("hreflang")}/${rest}`;
  }
}
document.addEventListener("htmx:pushedIntoHistory", followPushedAddress);
document.addEventListener("htmx:replacedInHistory", followPushedAddress);
