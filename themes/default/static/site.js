// paperpress themes (default, and classic through static_from): the
// controls that need JavaScript (light/dark toggle, search box, keys' hint),
// the day page's contents list, KaTeX typesetting, keyboard shortcuts and the
// reading list. The chosen scheme is set on <html> by a tiny script in <head>
// before the page paints (no flash).
(function () {
  "use strict";
  var root = document.documentElement;

  // What works only with JavaScript comes with it, not on every page: the
  // light/dark button (into an element marked data-theme-toggle), the search
  // box and the keyboard hint (into an element marked data-keys).
  document.querySelectorAll("[data-theme-toggle]").forEach(function (place) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "theme-toggle";
    button.title = "Light / dark";
    button.textContent = "\u25D0"; // ◐
    place.append(" ", button);
  });
  // The search box: a link to the search page, which needs JavaScript too.
  document.querySelectorAll("a.search-box").forEach(function (link) {
    var form = document.createElement("form");
    form.className = "search-box";
    form.setAttribute("role", "search");
    form.setAttribute("aria-label", "Site search"); // distinct from the search page's own form
    form.action = link.href;
    var input = document.createElement("input");
    input.type = "search";
    input.name = "q";
    input.placeholder = "Search papers";
    input.setAttribute("aria-label", "Search papers");
    form.appendChild(input);
    link.replaceWith(form);
  });
  document.querySelectorAll("[data-keys]").forEach(function (place) {
    var hint = document.createElement("p");
    hint.className = "keys";
    hint.innerHTML = "Keys: <kbd>\u2190</kbd>/<kbd>k</kbd> previous \u00B7 <kbd>\u2192</kbd>/<kbd>j</kbd> next \u00B7 <kbd>/</kbd> search";
    place.appendChild(hint);
  });

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
    // The head's script sets only a stored choice; the system's shows as such.
    if (!root.getAttribute(attr)) root.setAttribute(attr, current());
    button.addEventListener("click", function () {
      var next = current() === "dark" ? "light" : "dark";
      root.setAttribute(attr, next);
      try { localStorage.setItem(key, next); } catch (e) { /* private mode: this page only */ }
      label();
    });
    label();
  });

  // Math: $…$ and \(…\) inline, $$…$$ and \[…\] displayed, in titles and
  // abstracts (not in the usage line's dollar amounts or the prompt).
  var options = {
    delimiters: [
      { left: "$$", right: "$$", display: true },
      { left: "\\[", right: "\\]", display: true },
      { left: "$", right: "$", display: false },
      { left: "\\(", right: "\\)", display: false }
    ],
    // Commands arXiv's abstracts use that KaTeX lacks, as what they mean.
    macros: { "\\Tilde": "\\tilde" },
    throwOnError: false,
    // What KaTeX cannot read shows as written in errorColor (default #cc0000, too dark on a dark
    // background: katex.org/docs/options); KaTeX writes it into a style, so the scheme's own red.
    errorColor: "var(--bad-fg, #cc0000)",
    ignoredClasses: ["usage", "prompt", "no-math", "banner", "counts"]
  };
  // KaTeX (270 KB of script) is not in the page's head: it is loaded when a
  // part with math comes near the viewport, after the page's first paint, so a
  // big day is drawn and usable before it (Lighthouse mobile: the script's
  // evaluation and the typesetting delayed the largest paint by a second).
  // The script tag's data-katex and data-auto-render name it; a layout of
  // before that loads it itself still works.
  var thisScript = document.currentScript;
  var katexWaiting = null; // what waits for KaTeX, once it is asked for
  function withKatex(then) {
    if (typeof window.renderMathInElement === "function") return then();
    if (katexWaiting) return katexWaiting.push(then);
    var sources = thisScript ? [thisScript.getAttribute("data-katex"), thisScript.getAttribute("data-auto-render")] : [];
    if (!sources[0] || !sources[1]) return; // no math on this page
    katexWaiting = [then];
    sources.forEach(function (src, i) {
      var script = document.createElement("script");
      script.src = src;
      script.async = false; // in order: auto-render needs katex
      if (i === sources.length - 1) script.onload = function () { katexWaiting.forEach(function (f) { f(); }); };
      document.head.appendChild(script);
    });
  }
  function typeset(element) {
    if (element) withKatex(function () { window.renderMathInElement(element, options); });
  }
  window.paperpressTypeset = typeset;

  // Typesetting a big day whole blocks a phone for most of a second (Lighthouse mobile on a
  // 51-paper day: total blocking time 780 ms), so each part with math is typeset when it comes
  // within a screen of the viewport: those of the first screen just after the first paint (as
  // KaTeX arrives), the others before they are scrolled to. Printing typesets the rest.
  var mathText = /\$|\\\(|\\\[/;
  var skipped = new RegExp("^(SCRIPT|NOSCRIPT|STYLE|TEXTAREA|PRE|CODE|OPTION)$");
  var mathBlock = "p, li, dd, dt, td, th, h1, h2, h3, h4, h5, h6, summary, blockquote, figcaption";
  // The smallest blocks of `roots` whose text has a delimiter, outside what typesetting skips.
  function mathParts(roots) {
    var parts = new Set(); // in document order
    roots.forEach(function (root) {
      var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (var node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!mathText.test(node.data) || ignored(node.parentElement, root)) continue;
        var block = node.parentElement.closest(mathBlock);
        parts.add(block && root.contains(block) ? block : root);
      }
    });
    return Array.from(parts);
  }
  function ignored(element, root) {
    for (var e = element; e && e !== root.parentElement; e = e.parentElement) {
      if (skipped.test(e.tagName)) return true;
      for (var i = 0; i < options.ignoredClasses.length; ++i) if (e.classList.contains(options.ignoredClasses[i])) return true;
    }
    return false;
  }
  function typesetNearViewport(parts) {
    if (!("IntersectionObserver" in window)) return parts.forEach(typeset);
    var waiting = new Set(parts);
    function typesetPart(part) {
      if (waiting.delete(part)) typeset(part);
    }
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (entry.isIntersecting) { observer.unobserve(entry.target); typesetPart(entry.target); }
      });
    }, { rootMargin: "100% 0px" });
    parts.forEach(function (part) { observer.observe(part); });
    window.addEventListener("beforeprint", function () {
      observer.disconnect();
      waiting.forEach(typesetPart);
    });
  }

  // A paper is its heading (the anchor: in the default theme a day article's
  // h2 that is not a topic's; .paper in the classic theme) and the elements up
  // to the next heading. paperPart: the first of them that matches `selector`, or null.
  var paperHeadings = "article.day > h2:not(.topic-head)";
  var bigDay = 20; // papers; more and the contents list starts closed
  function paperPart(heading, selector) {
    for (var e = heading.nextElementSibling; e && !/^H[1-6]$/.test(e.tagName); e = e.nextElementSibling) {
      if (e.matches(selector)) return e;
      var inside = e.querySelector(selector);
      if (inside) return inside;
    }
    return null;
  }

  // The contents list, from the papers' headings (and topic headings). The
  // page carries a short day's list, and a big day's closed and empty
  // <details>: filled here, behind its summary, nothing on screen moves
  // (issue 43), and the page does not carry every title twice. An empty
  // nav.toc (a theme from before) gets the whole list.
  document.querySelectorAll("nav.toc").forEach(function (toc) {
    var closed = toc.querySelector("details");
    if (closed && closed.children.length === 1) toc = closed;
    else if (toc.children.length) return;
    else {
      var heading = document.createElement("h2");
      heading.textContent = "Contents";
      toc.appendChild(heading);
      // A big day's list would push its papers off the first screens: closed, it says how many.
      var papers = document.querySelectorAll(paperHeadings).length;
      if (papers > bigDay) {
        var details = toc.appendChild(document.createElement("details"));
        details.appendChild(document.createElement("summary")).textContent = "All " + papers + " papers";
        toc = details;
      }
    }
    var topics = null, list = null; // the topics' <ul> when grouped; the <ol> papers go into
    function item(parent, href, text) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = href;
      a.textContent = text;
      li.appendChild(a);
      parent.appendChild(li);
      return li;
    }
    document.querySelectorAll(".topic-head, " + paperHeadings).forEach(function (element) {
      if (element.classList.contains("topic-head")) {
        if (!topics) {
          topics = toc.appendChild(document.createElement("ul"));
          topics.className = "topics";
        }
        var count = element.querySelector(".count");
        var name = count ? element.textContent.slice(0, -count.textContent.length).trim() : element.textContent;
        var li = item(topics, "#" + element.id, name);
        if (count) li.append(" ", count.cloneNode(true));
        li.appendChild(list = document.createElement("ol"));
        return;
      }
      var link = element.querySelector('a[href*="arxiv.org/abs/"]');
      if (!link) return;
      if (!list) toc.appendChild(list = document.createElement("ol"));
      var entry = item(list, "#" + element.id, link.textContent);
      var number = parseInt(element.textContent, 10);
      if (number > 0) entry.value = number; // runs on across the topics' lists
      if (paperPart(element, ".meta .match")) {
        var star = document.createElement("span");
        star.className = "match";
        star.title = "Author match";
        star.textContent = "★";
        entry.append(" ", star);
      }
    });
  });

  // Only the papers scoring at least N (author matches, unscored, always show): a choice
  // after the contents list, of the day's own scores with how many papers each keeps.
  (function () {
    var scored = document.querySelectorAll("[data-score]");
    var anchor = document.querySelector("nav.toc, details.contents");
    if (!scored.length || !anchor) return;
    var papers = document.querySelectorAll(".paper, " + paperHeadings);
    var scores = [];
    scored.forEach(function (p) { scores.push(Number(p.getAttribute("data-score"))); });
    var choice = document.createElement("select");
    choice.id = "score-filter";
    choice.add(new Option("every paper (" + papers.length + ")", "0"));
    scores.slice().sort(function (a, b) { return b - a; }).forEach(function (s, i, all) {
      if (i > 0 && all[i - 1] === s) return;
      var kept = papers.length - scores.filter(function (t) { return t < s; }).length;
      choice.add(new Option("score " + s + " or more (" + kept + ")", String(s)));
    });
    var label = document.createElement("label");
    label.append("Show ", choice);
    // Into the line the page keeps for it (no shift), else a new one after the contents.
    var line = document.querySelector("p.score-filter");
    if (!line) {
      line = document.createElement("p");
      line.className = "score-filter";
      anchor.after(line);
    }
    line.appendChild(label);
    // A paper's elements: classic's section, or the default theme's heading and what follows it.
    function parts(paper) {
      var list = [paper];
      if (/^H[1-6]$/.test(paper.tagName))
        for (var e = paper.nextElementSibling; e && !/^H[1-6]$/.test(e.tagName); e = e.nextElementSibling) list.push(e);
      return list;
    }
    choice.addEventListener("change", function () {
      var least = Number(choice.value);
      papers.forEach(function (paper) {
        var score = paper.getAttribute("data-score");
        var hide = score !== null && Number(score) < least;
        parts(paper).forEach(function (e) { e.hidden = hide; });
        var entry = document.querySelector('.toc a[href="#' + paper.id + '"]');
        if (entry) entry.parentNode.hidden = hide;
      });
    });
  })();

  // Keyboard: ←/k previous, →/j next (the page's rel=prev/next links), "/"
  // search; not while typing in a field or with a modifier held.
  var base = (function () {
    var src = document.currentScript && document.currentScript.src;
    var at = src ? src.indexOf("static/site.js") : -1;
    return at >= 0 ? new URL(src.slice(0, at)).pathname : "/";
  })();
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var rel = { ArrowLeft: "prev", k: "prev", ArrowRight: "next", j: "next" }[event.key];
    if (rel && document.querySelector(".keys")) {
      var link = document.querySelector('a[rel="' + rel + '"]');
      if (link) { event.preventDefault(); window.location.href = link.href; }
    } else if (event.key === "/") {
      // The search page's own box, else the header's.
      var box = document.getElementById("search-query") || document.querySelector('input[type="search"]');
      if (box) { event.preventDefault(); box.focus(); }
    }
  });

  // The reading list: starred papers ("more like this") and papers marked "not for me", each
  // in localStorage with the date of the judgement, one list per site (its base path). A paper
  // has one judgement at a time, as in content/feedback/ (docs/content-format.md): starring a
  // hidden paper un-hides it, hiding a starred one un-stars it.
  var key = "paperpress-starred:" + base, hiddenKey = "paperpress-hidden:" + base;
  function load(which) {
    try { var list = JSON.parse(localStorage.getItem(which || key) || "[]"); return Array.isArray(list) ? list : []; }
    catch (e) { return []; }
  }
  function save(list, which) {
    try { localStorage.setItem(which || key, JSON.stringify(list)); } catch (e) { /* private mode: not kept */ }
  }
  function kept(id, which) { return load(which).some(function (p) { return p.id === id; }); }
  function starred(id) { return kept(id, key); }
  function without(id, which) { save(load(which).filter(function (p) { return p.id !== id; }), which); }
  // Judged today, in UTC: the day the feedback file's line carries.
  function today() { return new Date().toISOString().slice(0, 10); }
  var dayTime = document.querySelector("h1 time");
  var refreshers = []; // each paper's buttons, redrawn when either list changes
  function refreshAll() { // each list read once, however many papers the page has
    var ids = function (which) { return new Set(load(which).map(function (p) { return p.id; })); };
    var stars = ids(key), hides = ids(hiddenKey);
    refreshers.forEach(function (f) { f(stars, hides); });
  }
  function makeButton(className) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = className;
    return button;
  }
  // A paper's heading and link: a day's papers, and the not-picked list's items (title and link only).
  document.querySelectorAll(".paper, " + paperHeadings + ", details.unpicked li").forEach(function (paper) {
    var heading = /^(H[1-6]|LI)$/.test(paper.tagName) ? paper : paper.querySelector("h2");
    var link = heading && heading.querySelector('a[href*="arxiv.org/abs/"]');
    if (!link) return;
    var id = link.getAttribute("href").split("/abs/")[1];
    // As written: the TeX the build wrote in Unicode ("$\ell_1$-norm" shown as "ℓ₁-norm") is in data-tex;
    // the rest is read before KaTeX typesets it (below): "$\mathcal{O}(1)$", not "O(1)O(1)O(1)".
    var title = link.getAttribute("data-tex") || link.textContent;
    var picked = paper.tagName !== "LI";
    var entry = function () {
      var authors = heading === paper ? paperPart(heading, ".authors") : paper.querySelector(".authors");
      return { id: id, title: title, authors: authors ? authors.textContent.replace(/^Authors:\s*/, "") : "",
               date: dayTime ? dayTime.getAttribute("datetime") : "", judged: today(),
               href: picked ? location.pathname + "#" + paper.id : link.href };
    };
    var star = makeButton("star");
    star.addEventListener("click", function () {
      var list = load().filter(function (p) { return p.id !== id; });
      if (!starred(id)) { list.push(entry()); without(id, hiddenKey); }
      save(list);
      refreshAll();
    });
    link.parentNode.insertBefore(star, link);
    // "Not for me" beside the star, for a pick: the paper collapses to its struck-out heading until undone.
    var hide = picked ? makeButton("not-for-me") : null;
    if (hide) {
      hide.title = "Not for me";
      hide.addEventListener("click", function () {
        var list = load(hiddenKey).filter(function (p) { return p.id !== id; });
        if (!kept(id, hiddenKey)) {
          var made = entry();
          list.push({ id: id, title: title, date: made.date, judged: made.judged, href: made.href });
          without(id, key);
        }
        save(list, hiddenKey);
        refreshAll();
      });
      star.after(hide);
    }
    // The elements that collapse: classic's section but its heading; the default theme's heading's followers.
    var parts = [];
    if (hide && heading !== paper) parts = [].filter.call(paper.children, function (e) { return e !== heading; });
    else if (hide) for (var e = heading.nextElementSibling; e && !/^H[1-6]$/.test(e.tagName); e = e.nextElementSibling) parts.push(e);
    refreshers.push(function (stars, hides) {
      var on = stars.has(id);
      star.textContent = on ? "★" : "☆";
      star.setAttribute("aria-pressed", on ? "true" : "false");
      star.setAttribute("aria-label", on ? "Unstar this paper" : "Star this paper");
      if (!hide) return;
      var hidden = hides.has(id);
      hide.textContent = hidden ? "Undo" : "\u2715"; // ✕
      hide.setAttribute("aria-pressed", hidden ? "true" : "false");
      hide.setAttribute("aria-label", hidden ? "Show this paper again (marked not for me)" : "Not for me: hide this paper");
      heading.classList.toggle("dismissed", hidden);
      parts.forEach(function (part) { part.classList.toggle("collapsed", hidden); });
    });
  });
  refreshAll();

  // Math last: the reading list above keeps the titles' TeX.
  var mathRoots = "article.day, .paper, .toc, .titles, .best-list, .math, .unpicked"; // .paper, .toc: the classic theme
  var parts = mathParts([].filter.call(document.querySelectorAll(mathRoots), function (element) {
    return !(element.parentElement && element.parentElement.closest(mathRoots));
  }));
  typesetNearViewport(parts);

  var list = document.getElementById("starred-list");
  if (!list) return;
  function download(name, type, text) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: type }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
  }
  // "Kaiming He (MIT, CSAIL), Lenka Zdeborová" -> ["Kaiming He", "Lenka Zdeborová"]: arXiv's feed
  // writes each author's affiliations in parentheses (core/paper.h, split_author), which BibTeX
  // must not take for names; commas inside them do not separate authors.
  function authorNames(text) {
    var names = [], depth = 0, start = 0;
    text = String(text);
    for (var i = 0; i <= text.length; i++) {
      var c = text.charAt(i);
      if (c === "(") depth++;
      else if (c === ")") depth = Math.max(0, depth - 1);
      else if (i === text.length || (c === "," && depth === 0)) {
        var name = text.slice(start, i).trim();
        if (name.charAt(name.length - 1) === ")") { // the group that ends it, back to its own "("
          for (var j = name.length - 1, level = 0; j > 0; j--) {
            level += name.charAt(j) === ")" ? 1 : name.charAt(j) === "(" ? -1 : 0;
            if (level === 0) { name = name.slice(0, j).trim(); break; }
          }
        }
        if (name) names.push(name);
        start = i + 1;
      }
    }
    return names;
  }
  function bibtex(p) {
    // TeX stays (a title's $\ell_1$); braces only when they pair up, as BibTeX needs.
    var clean = function (s) {
      s = String(s);
      var depth = 0;
      for (var i = 0; i < s.length && depth >= 0; i++) depth += s[i] === "{" ? 1 : s[i] === "}" ? -1 : 0;
      return depth === 0 ? s : s.replace(/[{}]/g, "");
    };
    return "@misc{arxiv:" + p.id.replace(/[^\w.:-]/g, "_") + ",\n  title = {" + clean(p.title) + "},\n  author = {" +
      clean(authorNames(p.authors).join(" and ")) + "},\n  year = {" + String(p.date).slice(0, 4) +
      "},\n  eprint = {" + p.id + "},\n  archivePrefix = {arXiv},\n  url = {https://arxiv.org/abs/" + p.id + "}\n}\n";
  }
  // One list of the page: its papers, each with the button that takes it off the list.
  function renderList(element, which, symbol, verb) {
    var papers = load(which);
    element.textContent = "";
    papers.forEach(function (p) {
      var li = document.createElement("li");
      var a = document.createElement("a");
      a.href = p.href || "https://arxiv.org/abs/" + p.id;
      a.textContent = p.title || p.id;
      var remove = document.createElement("button");
      remove.type = "button";
      remove.className = which === key ? "star" : "not-for-me";
      remove.textContent = symbol;
      remove.setAttribute("aria-label", verb + " " + (p.title || p.id));
      remove.addEventListener("click", function () {
        without(p.id, which);
        render();
      });
      var meta = document.createElement("span");
      meta.className = "meta";
      meta.textContent = " arXiv:" + p.id + (p.date ? " · " + p.date : "") + (p.authors ? " · " + p.authors : "");
      li.append(remove, a, meta);
      element.appendChild(li);
      typeset(a); // the title as written, with its TeX
    });
    return papers.length;
  }
  var hiddenList = document.getElementById("hidden-list");
  function render() {
    document.getElementById("starred-empty").hidden = renderList(list, key, "★", "Unstar") > 0;
    if (hiddenList) hiddenList.parentNode.hidden = renderList(hiddenList, hiddenKey, "Undo", "Show again") === 0;
    renderFeedback();
  }
  // The feedback file (content/feedback/, docs/content-format.md): a line a judgement,
  // "DATE star|hide ID  # title", oldest first. A star kept before the judgement's date was
  // recorded carries its day's date.
  function feedbackText() {
    var lines = [];
    [[key, "star"], [hiddenKey, "hide"]].forEach(function (kind) {
      load(kind[0]).forEach(function (p) {
        var date = /^\d{4}-\d\d-\d\d$/.test(p.judged) ? p.judged : /^\d{4}-\d\d-\d\d$/.test(p.date) ? p.date : today();
        var title = String(p.title || "").replace(/\s+/g, " ").trim();
        lines.push(date + " " + kind[1] + " " + p.id + (title ? "  # " + title : ""));
      });
    });
    return lines.sort().map(function (line) { return line + "\n"; }).join("");
  }
  // reader-YYYY-MM-DD-HHMMSS.txt, in UTC: each export a file of its own, so none overwrites another.
  function feedbackName() {
    var stamp = new Date().toISOString(); // 2026-11-28T12:34:56.789Z
    return "reader-" + stamp.slice(0, 10) + "-" + stamp.slice(11, 19).replace(/:/g, "") + ".txt";
  }
  // With the site's repository known (data-repository: the config's `repository`, or the
  // Actions run's GITHUB_REPOSITORY), GitHub's "new file" page with the name and the text filled
  // in by its `filename` and `value` parameters (github.com/isaacs/github/issues/1527); else a
  // download of the same file. The reader commits it; the page holds no token.
  var feedback = document.getElementById("starred-feedback");
  function renderFeedback() {
    if (!feedback) return;
    var repository = feedback.getAttribute("data-repository");
    feedback.textContent = repository ? "Send feedback to " + repository + " on GitHub" : "Download feedback";
    feedback.hidden = feedbackText() === "";
  }
  if (feedback) feedback.addEventListener("click", function () {
    var repository = feedback.getAttribute("data-repository"), text = feedbackText(), name = feedbackName();
    if (repository) { // the address is made at the click, so the stamp is the click's
      var branch = (feedback.getAttribute("data-branch") || "main").split("/").map(encodeURIComponent).join("/");
      feedback.href = "https://github.com/" + repository.split("/").map(encodeURIComponent).join("/") + "/new/" +
        branch + "?filename=" + encodeURIComponent("content/feedback/" + name) + "&value=" + encodeURIComponent(text);
      feedback.target = "_blank";
      feedback.rel = "noopener";
    } else {
      if (feedback.href) URL.revokeObjectURL(feedback.href);
      feedback.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
      feedback.download = name;
    }
  });
  document.getElementById("starred-bibtex").addEventListener("click", function () {
    download("starred.bib", "application/x-bibtex", load().map(bibtex).join("\n"));
  });
  document.getElementById("starred-ids").addEventListener("click", function () {
    download("starred.txt", "text/plain", load().map(function (p) { return p.id + "\n"; }).join(""));
  });
  document.getElementById("starred-clear").addEventListener("click", function () {
    if (window.confirm("Remove every starred paper from this browser?")) { save([]); render(); }
  });
  render();
})();
