// Small progressive enhancements. Pages work without this file.
"use strict";
// After an htmx answer replaced a region marked data-focus-after-swap, keyboard and
// screen-reader users keep their place: focus goes to the first enabled control of the
// region's move panel ([data-move-panel]: the next move is one key press away, not 16–33
// Tab presses), or else to the region; and the page's polite live region (#move-news)
// says what happened, read from the region's [data-announce] parts.
const CONTROLS =
  "button:not([disabled]), input:not([type=hidden]):not([disabled]), select:not([disabled]), a[href]";

function swappedRegion(event) {
  // An outerHTML swap replaces the target: find its successor by id.
  for (const el of [event.target, event.detail && event.detail.target]) {
    if (!(el instanceof Element)) continue;
    const live = el.isConnected ? el : el.id && document.getElementById(el.id);
    if (live && live.hasAttribute("data-focus-after-swap")) return live;
  }
  return null;
}

function announcement(region) {
  const parts = [];
  for (const part of region.querySelectorAll("[data-announce]")) {
    const last = parseInt(part.dataset.announceLast || "0", 10);
    const items = last > 0 ? [...part.querySelectorAll("li")].slice(-last) : [part];
    for (const item of items) {
      const text = item.textContent.replace(/\s+/g, " ").trim();
      if (text) parts.push(text);
    }
  }
  return parts.join(" ");
}

document.addEventListener("htmx:afterSettle", (event) => {
  const region = swappedRegion(event);
  if (!region || region.dataset.settled === "1") return;
  region.dataset.settled = "1"; // one answer may settle several elements
  const panel = region.querySelector("[data-move-panel]");
  const control = panel && panel.querySelector(CONTROLS);
  if (control) {
    control.focus();
  } else {
    region.focus({ preventScroll: true });
  }
  const news = document.getElementById("move-news");
  const text = announcement(region);
  if (news && text) {
    news.textContent = "";
    // A moment later, so that the same words twice are still read out.
    window.setTimeout(() => {
      news.textContent = text;
    }, 100);
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
