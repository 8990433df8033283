// The pool admin's live odds preview: recomputed as cards are picked or the pack size
// changes. Without this file the preview still shows the saved pool's odds.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("pool-odds-preview");
  const select = document.getElementById("id_cards");
  const size = document.getElementById("id_pack_size");
  const token = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (!box || !select || !size || !token) {
    return;
  }
  let timer = null;
  let serial = 0;
  const refresh = () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const body = new URLSearchParams();
      for (const option of select.selectedOptions) {
        body.append("cards", option.value);
      }
      body.set("pack_size", size.value);
      const mine = ++serial;
      box.setAttribute("aria-busy", "true");
      try {
        const response = await fetch(box.dataset.previewUrl, {
          method: "POST",
          body,
          credentials: "same-origin",
          headers: { "X-CSRFToken": token.value },
        });
        const html = await response.text();
        if (mine === serial) {
          box.innerHTML = html;
        }
      } catch (error) {
        // Offline or refused: keep the last preview; saving still shows the odds.
      } finally {
        if (mine === serial) {
          box.removeAttribute("aria-busy");
        }
      }
    }, 250);
  };
  size.addEventListener("input", refresh);
  select.addEventListener("change", refresh);
  // The autocomplete widget (select2) tells jQuery listeners, not native ones.
  if (window.django && window.django.jQuery) {
    window.django.jQuery(select).on("change", refresh);
  }
});
