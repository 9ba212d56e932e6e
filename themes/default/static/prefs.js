// paperpress themes (default, and classic through static_from): the reader's
// preferences, keywords and authors kept in localStorage (one set per site,
// its base path). Papers that match are marked with what matched and moved
// first on day pages and search results; the preferences page edits them
// and writes them as paperpress.yaml and topics-prompt lines; the date range
// page lists the picks of a range of days from the month data (docs/data.md).
// Without JavaScript every page is the plain page.
(function () {
  "use strict";
  var script = document.currentScript;
  var base = (function () {
    var src = script && script.src;
    var at = src ? src.indexOf("static/prefs.js") : -1;
    return at >= 0 ? new URL(src.slice(0, at)).pathname : "/";
  })();
  var key = "paperpress-prefs:" + base;

  // Keywords split at commas and line ends (a topics-prompt line is comma-separated); authors at line ends.
  function parseList(text, commas) {
    var seen = {};
    return text.split(commas ? /[,\n]/ : /\n/).map(function (s) { return s.replace(/\s+/g, " ").trim(); })
      .filter(function (s) { var f = fold(s); if (!s || seen[f]) return false; seen[f] = true; return true; });
  }
  function load() {
    try {
      var p = JSON.parse(localStorage.getItem(key) || "{}");
      var list = function (v) { return Array.isArray(v) ? v.filter(function (s) { return typeof s === "string" && s; }) : []; };
      return { keywords: list(p.keywords), authors: list(p.authors) };
    } catch (e) { return { keywords: [], authors: [] }; }
  }
  function save(prefs) {
    try { localStorage.setItem(key, JSON.stringify(prefs)); } catch (e) { /* private mode: not kept */ }
  }

  // Folded as the search folds (search.js): "Scholkopf" matches "Schölkopf".
  var BASE = { "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "t", "æ": "a", "ı": "i", "ß": "ss", "ς": "σ" };
  function fold(s) {
    return String(s).normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
      .replace(/[øłđðþæıßς]/g, function (c) { return BASE[c]; }).replace(/\s+/g, " ").trim();
  }
  // A keyword matches where a word starts ("prun" matches "pruning", not "sprung").
  function hasWord(text, word) {
    for (var at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1))
      if (at === 0 || !/[\p{L}\p{N}]/u.test(text[at - 1])) return true;
    return false;
  }
  // What matched: ["keyword “x”", "author “Y”"]; [] when nothing.
  function why(prefs, text, authors) {
    var found = [], folded = fold(text), names = authors.map(fold);
    prefs.keywords.forEach(function (k) { if (hasWord(folded, fold(k))) found.push("keyword \u201c" + k + "\u201d"); });
    prefs.authors.forEach(function (a) { if (names.indexOf(fold(a)) >= 0) found.push("author \u201c" + a + "\u201d"); });
    return found;
  }
  function note(found) {
    var p = document.createElement("p");
    p.className = "pref-why";
    p.textContent = "Matches your preferences: " + found.join(", ");
    return p;
  }
  // "A (MIT, CSAIL), B" -> ["A", "B"]: commas inside an affiliation's parentheses do not split, and the
  // affiliation is not the name (core/paper.h, split_author).
  function splitAuthors(text) {
    var names = [], depth = 0, start = 0;
    text = text.replace(/^\s*Authors:\s*/, "");
    for (var i = 0; i <= text.length; ++i) {
      var c = text[i];
      if (c === "(") ++depth;
      else if (c === ")") depth = Math.max(0, depth - 1);
      else if ((c === "," && depth === 0) || i === text.length) {
        names.push(text.slice(start, i).replace(/\s*\(.*\)\s*$/, "").trim());
        start = i + 1;
      }
    }
    return names.filter(Boolean);
  }

  var prefs = load();
  var active = prefs.keywords.length + prefs.authors.length > 0;

  // Day pages: a paper is classic's section.paper (and its <hr>), or the
  // default theme's heading and the elements up to the next heading.
  function dayPapers() {
    var found = [];
    document.querySelectorAll(".paper, article.day > h2:not(.topic-head)").forEach(function (head) {
      var parts = [head];
      if (/^H[1-6]$/.test(head.tagName)) {
        for (var e = head.nextElementSibling; e && !/^H[1-6]$/.test(e.tagName); e = e.nextElementSibling) parts.push(e);
      } else if (head.nextElementSibling && head.nextElementSibling.tagName === "HR") {
        parts.push(head.nextElementSibling);
      }
      var authors = head.querySelector(".authors") || parts.filter(function (e) { return e.matches(".authors"); })[0];
      found.push({ head: head, parts: parts, authors: authors ? splitAuthors(authors.textContent) : [] });
    });
    return found;
  }
  // One less in the count of the topic a moved paper leaves: "(5)" -> "(4)".
  function leaveTopic(head) {
    for (var e = head.previousElementSibling; e; e = e.previousElementSibling) {
      if (!e.classList.contains("topic-head")) continue;
      var count = e.querySelector(".count") || e;
      count.textContent = count.textContent.replace(/\((\d+)\)\s*$/, function (m, n) { return "(" + (n - 1) + ")"; });
      return;
    }
  }
  function markDay() {
    var papers = dayPapers();
    if (!papers.length) return;
    var first = papers[0].head;
    for (var e = first; e; e = e.previousElementSibling) if (e.classList.contains("topic-head")) first = e;
    var grouped = first.classList.contains("topic-head");
    var moved = [];
    papers.forEach(function (paper) {
      var text = paper.parts.map(function (e) { return e.textContent; }).join("\n");
      var found = why(prefs, text, paper.authors);
      if (!found.length) return;
      paper.head.classList.add("pref-match");
      var line = note(found);
      if (paper.head.tagName === "SECTION") {
        paper.head.querySelector("h2").after(line);
      } else {
        paper.head.after(line);
        paper.parts.splice(1, 0, line); // moves with its paper
      }
      if (grouped) leaveTopic(paper.head);
      moved.push(paper);
    });
    if (!moved.length) return;
    var parent = first.parentNode;
    if (grouped) {
      var head = document.createElement("h2");
      head.className = "topic-head";
      head.id = "t-preferences";
      head.innerHTML = "Your preferences <span class=count></span>";
      head.lastChild.textContent = "(" + moved.length + ")";
      parent.insertBefore(head, first);
    }
    // Stable: the matches keep the page's order among themselves.
    moved.forEach(function (paper) {
      paper.parts.forEach(function (e) { parent.insertBefore(e, first); });
    });
  }

  // Search and range results (li.search-result): marked, matches first.
  function markList(list) {
    var items = Array.prototype.filter.call(list.children, function (li) { return !li.hasAttribute("data-pref"); });
    var matched = [];
    items.forEach(function (li) {
      li.setAttribute("data-pref", "");
      var authors = li.querySelector(".authors");
      var found = why(prefs, li.textContent, authors ? splitAuthors(authors.textContent) : []);
      if (!found.length) return;
      li.classList.add("pref-match");
      li.appendChild(note(found));
      matched.push(li);
    });
    var first = list.querySelector("li:not(.pref-match)");
    matched.forEach(function (li) { list.insertBefore(li, first); });
  }
  function watchList(list) {
    var busy = false;
    new MutationObserver(function () {
      if (busy) return;
      busy = true;
      markList(list);
      busy = false;
    }).observe(list, { childList: true });
  }

  if (active) markDay(); // classic's day page has no article.day: dayPapers() finds either theme's papers
  var results = document.getElementById("search-results");
  if (active && results) watchList(results);

  window.paperpressPrefs = { load: load, why: why, fold: fold, markList: markList };
  preferencesPage();
  rangePage();

  // The preferences page: the lists to edit, and what to paste into
  // paperpress.yaml (scoring.authors, docs/configuration.md) and the
  // topics prompt (its "- Relevant:" line, docs/scoring.md).
  function preferencesPage() {
    var form = document.getElementById("prefs-form");
    if (!form) return;
    var keywords = document.getElementById("prefs-keywords"), authors = document.getElementById("prefs-authors");
    keywords.value = prefs.keywords.join("\n");
    authors.value = prefs.authors.join("\n");
    function show() {
      // A JSON string is a YAML double-quoted scalar (yaml.org/spec/1.2.2, "Relation to JSON"; its escapes, 5.7, are JSON's).
      document.getElementById("prefs-yaml").textContent =
        "scoring:\n  authors: [" + prefs.authors.map(function (a) { return JSON.stringify(a); }).join(", ") + "]\n";
      document.getElementById("prefs-topics").textContent = "- Relevant: " + prefs.keywords.join(", ") + "\n";
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      prefs = { keywords: parseList(keywords.value, true), authors: parseList(authors.value, false) };
      save(prefs);
      keywords.value = prefs.keywords.join("\n");
      authors.value = prefs.authors.join("\n");
      show();
      document.getElementById("prefs-status").textContent =
        "Saved: " + prefs.keywords.length + " keywords, " + prefs.authors.length + " authors.";
    });
    document.getElementById("prefs-export").hidden = false;
    show();
  }

  // The date range page: ?last=N (the newest day's N calendar days) or
  // ?from=&to= (ISO dates), &sort=score|date. The page names the newest day
  // and the months that have a data file; the range reads its months' files
  // (data/YYYY-MM.json: docs/data.md) and nothing else.
  function rangePage() {
    var form = document.getElementById("range-form");
    if (!form) return;
    var params = new URLSearchParams(location.search);
    var status = document.getElementById("range-status"), list = document.getElementById("range-results");
    var read = 0; // bytes fetched
    function get(url) {
      return fetch(url).then(function (r) {
        if (!r.ok) throw new Error(url + ": HTTP " + r.status);
        return r.arrayBuffer();
      }).then(function (bytes) {
        read += bytes.byteLength;
        var head = new Uint8Array(bytes, 0, Math.min(2, bytes.byteLength)); // gunzipped unless the server did
        if (head.length < 2 || head[0] !== 0x1f || head[1] !== 0x8b) return JSON.parse(new TextDecoder().decode(bytes));
        return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).json();
      });
    }
    function iso(time) { return new Date(time).toISOString().slice(0, 10); }
    var valid = function (d) { return /^\d{4}-\d{2}-\d{2}$/.test(d || "") && !isNaN(Date.parse(d)) ? d : null; };
    var newest = valid(form.getAttribute("data-newest")) || iso(Date.now());
    var last = parseInt(params.get("last") || "", 10);
    var to = last > 0 ? newest : valid(params.get("to")) || newest;
    var from = last > 0 ? iso(Date.parse(newest) - (Math.min(last, 3660) - 1) * 86400000)
                        : valid(params.get("from")) || iso(Date.parse(to) - 6 * 86400000);
    if (from > to) { var t = from; from = to; to = t; }
    var sort = params.get("sort") === "date" ? "date" : "score";
    document.getElementById("range-from").value = from;
    document.getElementById("range-to").value = to;
    document.getElementById("range-sort").value = sort;
    status.textContent = "Loading\u2026";
    var months = (form.getAttribute("data-months") || "").split(" ").filter(function (m) {
      return /^\d{4}-\d{2}$/.test(m) && m >= from.slice(0, 7) && m <= to.slice(0, 7);
    });
    Promise.all(months.map(function (m) { return get(base + "data/" + m + ".json"); })).then(function (files) {
      show(files, from, to, sort);
    }).catch(function (error) { status.textContent = "The data could not be read: " + error.message; });

    function show(files, from, to, sort) {
      var papers = [], days = 0;
      files.forEach(function (file) {
        (file.days || []).forEach(function (day) {
          if (day.date < from || day.date > to) return;
          ++days;
          (day.papers || []).forEach(function (p, i) {
            var scored = p.relevance != null || p.novelty != null;
            papers.push({ date: day.date, order: i, p: p,
                          score: scored ? (p.relevance || 0) + (p.novelty || 0) : -1 });
          });
        });
      });
      papers.sort(function (a, b) {
        if (sort === "score" && a.score !== b.score) return b.score - a.score;
        if (a.date !== b.date) return a.date < b.date ? 1 : -1;
        return a.order - b.order;
      });
      papers.forEach(function (e) { list.appendChild(item(e)); });
      if (active) markList(list);
      status.textContent = papers.length + " papers on " + days + " days from " + from + " to " + to +
        ", by " + sort + " (" + Math.round(read / 1024) + " KB read).";
    }
    function item(e) {
      var shown = e.p.unicode || e.p; // TeX in names and titles decoded by the build
      var li = document.createElement("li");
      li.className = "search-result";
      var a = document.createElement("a");
      a.className = "math";
      a.href = base + e.date.replace(/-/g, "/") + "/#p-" + e.p.id.replace(/\//g, "-");
      a.textContent = shown.title || e.p.title;
      var meta = document.createElement("p");
      meta.className = "meta";
      var time = document.createElement("time");
      time.dateTime = time.textContent = e.date;
      meta.append(time, " \u00b7 arXiv:" + e.p.id + (e.score >= 0 ? " \u00b7 score " + e.score : "") +
                  (e.p.author_match ? " \u00b7 \u2605 Author match" : "") + (e.p.topic ? " \u00b7 " + e.p.topic : ""));
      li.append(a, meta);
      var names = shown.authors || e.p.authors || [];
      if (names.length) {
        var authors = document.createElement("p");
        authors.className = "authors";
        authors.textContent = names.join(", ");
        li.appendChild(authors);
      }
      if (window.paperpressTypeset) window.paperpressTypeset(a);
      return li;
    }
  }
})();
