// gno web UI: the few things a server-rendered page cannot do itself.
// "/" focuses search, N opens a new note (writes on only), Esc leaves a field; the cited line of a document is scrolled into view.
"use strict";
(function () {
  function typing(el) {
    if (!el) return false;
    var tag = el.tagName;
    return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT" || el.isContentEditable;
  }
  function searchBox() {
    return document.querySelector("[data-primary-search]") || document.getElementById("quick-q");
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape") {
      if (typing(document.activeElement)) document.activeElement.blur();
      return;
    }
    if (typing(document.activeElement)) return;
    var link = document.querySelector('a[data-shortcut="' + event.key.toLowerCase() + '"]');
    if (link && event.key.length === 1) {
      event.preventDefault();
      link.click();
      return;
    }
    if (event.key === "/") {
      var box = searchBox();
      if (box) {
        event.preventDefault();
        box.focus();
        box.select();
      }
    }
  });
  function showCited() {
    var cited = document.getElementById("cited");
    if (cited) cited.scrollIntoView({ block: "center" });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", showCited);
  } else {
    showCited();
  }
})();
