// Accessible names for two controls that other scripts add to the admin's change forms
// (issue 18), loaded by templates/admin/change_form.html:
// - django-modeltranslation's language switch, a <select> with no label of its own, gets
//   the translated name the template passes in data-translation-switch-label;
// - Django's filter_horizontal widget (SelectFilter2.js) adds help icons as <span>s with
//   an aria-label, which ARIA prohibits on an element without a role: they become images.
// Both appear after the page is parsed (on jQuery's ready and the window's load), so a
// MutationObserver names them as they arrive.
"use strict";
(() => {
  const script = document.currentScript;
  const switchLabel = script ? script.dataset.translationSwitchLabel : "";
  const name = (root) => {
    const select = root.querySelector("#modeltranslation-main-switch");
    if (select && switchLabel && !select.hasAttribute("aria-label")) {
      select.setAttribute("aria-label", switchLabel);
    }
    for (const icon of root.querySelectorAll(".help-tooltip[aria-label]:not([role])")) {
      icon.setAttribute("role", "img");
    }
  };
  const start = () => {
    name(document);
    new MutationObserver(() => name(document)).observe(document.body, {
      childList: true,
      subtree: true,
    });
  };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
