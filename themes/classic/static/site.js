// paperpress default theme: the light/dark toggle and KaTeX typesetting.
// The chosen scheme is set on <html> by a tiny script in <head> before the
// page paints (no flash); this file only handles the button and the math.
(function () {
  "use strict";
  var root = document.documentElement;

  document.querySelectorAll(".theme-toggle").forEach(function (button) {
    var attr = button.getAttribute("data-theme-attr") || "data-theme";
    var key = button.getAttribute("data-theme-key") || "paperpress-theme";
    function current() {
      var value = root.getAttribute(attr);
      if (value === "light" || value === "dark") return value;
      return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
    }
    function label() {
      var next = current() === "dark" ? "light" : "dark";
      button.setAttribute("aria-label", "Switch to the " + next + " theme");
      button.setAttribute("aria-pressed", current() === "dark" ? "true" : "false");
    }
    button.addEventListener("click", function () {
      var next = current() === "dark" ? "light" : "dark";
      root.setAttribute(attr, next);
      try { localStorage.setItem(key, next); } catch (e) { /* private mode: this page only */ }
      label();
    });
    label();
  });

  // Math: $…$ and \(…\) inline, $$…$$ and \[…\] displayed, in titles and
  // abstracts (not in the usage table's dollar amounts or the prompt).
  var options = {
    delimiters: [
      { left: "$$", right: "$$", display: true },
      { left: "\\[", right: "\\]", display: true },
      { left: "$", right: "$", display: false },
      { left: "\\(", right: "\\)", display: false }
    ],
    throwOnError: false,
    ignoredClasses: ["usage", "prompt", "no-math"]
  };
  function typeset(element) {
    if (typeof window.renderMathInElement !== "function" || !element) return;
    window.renderMathInElement(element, options);
  }
  window.paperpressTypeset = typeset;
  document.querySelectorAll(".paper, .toc, .titles, .math").forEach(typeset);
})();
