// A minimal stand-in for jQuery UI's tabs widget, which modeltranslation's tabbed admin
// fields expect. jQuery UI would come from a CDN, and our Content Security Policy only
// allows our own scripts. Supports what tabbed_translation_fields.js uses:
// .tabs({active: n}), .tabs("option", "active", n) and the "tabsactivate" event.
(function ($) {
  "use strict";
  if (!$ || $.fn.tabs) {
    return;
  }

  function activate($container, index) {
    var $tabs = $container.children("ul").children("li");
    var $panels = $container.children("div");
    if (!(index >= 0 && index < $tabs.length)) {
      index = 0;
    }
    var previous = $container.data("wikiTabsActive");
    $tabs.each(function (i) {
      var active = i === index;
      $(this).toggleClass("ui-tabs-active ui-state-active", active);
      $(this).children("a").attr({ "aria-selected": active ? "true" : "false", tabindex: active ? "0" : "-1" });
    });
    $panels.each(function (i) {
      $(this).toggleClass("ui-tabs-hide", i !== index);
    });
    $container.data("wikiTabsActive", index);
    if (previous !== undefined && previous !== index) {
      $container.trigger("tabsactivate", [{ newTab: $tabs.eq(index), oldTab: $tabs.eq(previous) }]);
    }
  }

  $.fn.tabs = function (options, name, value) {
    if (options === "option") {
      if (name !== "active") {
        return this;
      }
      if (value === undefined) {
        return this.first().data("wikiTabsActive");
      }
      return this.each(function () {
        activate($(this), value);
      });
    }
    var active = (options && options.active) || 0;
    return this.each(function () {
      var $container = $(this).addClass("ui-tabs ui-widget ui-widget-content ui-corner-all");
      var $list = $container.children("ul")
        .addClass("ui-tabs-nav ui-helper-reset ui-helper-clearfix ui-widget-header ui-corner-all")
        .attr("role", "tablist");
      $list.children("li").each(function (i) {
        var $link = $(this).addClass("ui-state-default ui-corner-top").attr("role", "presentation")
          .children("a").attr("role", "tab");
        $link.on("click", function (event) {
          event.preventDefault();
          activate($container, i);
        });
      });
      $container.children("div").addClass("ui-tabs-panel ui-widget-content ui-corner-bottom").attr("role", "tabpanel");
      activate($container, active);
    });
  };
})(window.jQuery || (window.django && window.django.jQuery));
