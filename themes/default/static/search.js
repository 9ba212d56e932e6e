// paperpress search: client-side, over the archive's month data files.
// data/index.json lists the months newest first; a query loads months one
// by one, newest first, and stops once it has a page of results ("Search
// older months" goes on). Every query word must occur in the paper's date,
// arXiv ID, title, authors, topics, comment or abstract (the month data holds
// the last two only with `data: full` or `day`); results link to the paper on its
// day page. A query with a date (2025-02-03) or a new-style arXiv ID
// (2502.01234) searches only the months it can be in: the date's month, or
// the ID's month and later, oldest first. A month (data/YYYY-MM.json:
// docs/data.md) is fetched once and kept for later queries.
// Both sides are folded as the word index folds them (search-index.js):
// "Scholkopf" finds "Schölkopf". Results come as you type.
(function () {
  "use strict";
  var script = document.currentScript;
  var indexUrl = new URL(script.getAttribute("data-index"), location.href);
  var base = script.getAttribute("data-base") || "/";
  var PAGE = 50, WAIT = 250;

  var form = document.querySelector(".search-form");
  var input = document.getElementById("search-query");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var more = document.getElementById("search-more");
  if (!form || !input || !list) return;

  var index = null;       // promise of data/index.json
  var months = {};        // name -> promise of prepared entries
  var run = 0;            // the current query; older ones stop
  var state = null;       // {words, next, found, shown, months}

  // NFKD, marks stripped, lower case, ø ł đ ð þ æ ı to a base letter (search/words.h).
  var BASE = { "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "t", "æ": "a", "ı": "i", "ß": "ss", "ς": "σ" };
  function fold(s) {
    return s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase().replace(/[øłđðþæıßς]/g, function (c) { return BASE[c]; });
  }

  function loadIndex() {
    if (!index) index = fetch(indexUrl).then(function (r) {
      if (!r.ok) throw new Error("data index: HTTP " + r.status);
      return r.json();
    });
    return index;
  }

  // A month file's JSON text; gunzipped here when it comes gzip'd without
  // Content-Encoding (the .json.gz month files of a site built by an older
  // paperpress, whose index a cached page may still read).
  function monthText(response) {
    return response.arrayBuffer().then(function (bytes) {
      var head = new Uint8Array(bytes, 0, Math.min(2, bytes.byteLength));
      if (head.length < 2 || head[0] !== 0x1f || head[1] !== 0x8b) return new TextDecoder().decode(bytes);
      var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      return new Response(stream).text();
    });
  }

  // A month's papers, newest day first, each in page order.
  function loadMonth(month) {
    if (!months[month.month]) {
      months[month.month] = fetch(new URL(month.url, indexUrl)).then(function (r) {
        if (!r.ok) throw new Error(month.url + ": HTTP " + r.status);
        return monthText(r);
      }).then(function (text) {
        var entries = [];
        JSON.parse(text).days.slice().reverse().forEach(function (day) {
          (day.papers || []).forEach(function (p) {
            var shown = p.unicode || p; // TeX in names and titles decoded by the build
            var authors = (shown.authors || []).join(", ");
            entries.push({ date: day.date, id: p.id, title: shown.title, authors: authors,
                           text: fold([day.date, p.id, p.title, authors, p.comment, p.topic, (p.also_topics || []).join("\n"),
                                   p.topic_note, p.abstract, shown.title]
                             .join("\n")) });
          });
        });
        return entries;
      });
    }
    return months[month.month];
  }

  function queryWords(query) {
    return fold(query).replace(/\barxiv:/g, " ").split(/\s+/).filter(function (w) { return w.length > 0; });
  }

  function matches(entry, words) {
    for (var i = 0; i < words.length; ++i) if (entry.text.indexOf(words[i]) < 0) return false;
    return true;
  }

  // The months a query can match: all, newest first; or only the month a
  // date names; or, for an arXiv ID, its month and later, oldest first.
  function monthsFor(words, all) {
    for (var i = 0; i < words.length; ++i) {
      var date = /^(\d{4}-\d{2})(-\d{2})?$/.exec(words[i]);
      if (date) return all.filter(function (m) { return m.month === date[1]; });
      var id = /^(\d{2})(\d{2})\.\d{4,5}(v\d+)?$/.exec(words[i]);
      if (id) {
        var first = "20" + id[1] + "-" + id[2];
        return all.filter(function (m) { return m.month >= first; }).reverse();
      }
    }
    return all;
  }

  function dayHref(entry) {
    var d = entry.date.split("-");
    return base + d[0] + "/" + d[1] + "/" + d[2] + "/#p-" + entry.id.replace(/\//g, "-");
  }

  function show(entry) {
    var li = document.createElement("li");
    li.className = "search-result";
    var a = document.createElement("a");
    a.href = dayHref(entry);
    a.className = "math";
    a.textContent = entry.title;
    var meta = document.createElement("p");
    meta.className = "meta";
    var time = document.createElement("time");
    time.dateTime = entry.date;
    time.textContent = entry.date;
    meta.appendChild(time);
    meta.appendChild(document.createTextNode(" · arXiv:" + entry.id));
    li.appendChild(a);
    li.appendChild(meta);
    if (entry.authors) {
      var authors = document.createElement("p");
      authors.className = "authors";
      authors.textContent = entry.authors;
      li.appendChild(authors);
    }
    list.appendChild(li);
    if (window.paperpressTypeset) window.paperpressTypeset(a);
  }

  function say(text) { if (status) status.textContent = text; }

  // Scans months from state.next on until PAGE more results or the end.
  function proceed(token) {
    more.hidden = true;
    return loadIndex().then(function (idx) {
      var all = idx.months || [];
      var target = state.shown + PAGE;
      if (!state.months) state.months = monthsFor(state.words, all);
      var todo = state.months;
      function step() {
        if (token !== run) return;
        while (state.shown < state.found.length && state.shown < target) { show(state.found[state.shown]); state.shown += 1; }
        if (state.found.length >= target || state.next >= todo.length) {
          var done = state.next >= todo.length && state.shown >= state.found.length;
          var n = state.found.length;
          var searched = state.next + " of " + all.length + (all.length === 1 ? " month" : " months") +
              (todo.length < all.length ? " (the only ones it can be in)" : "");
          say(n === 0 && done ? "No paper matches every word (searched " + searched + ")." :
              n + (n === 1 ? " paper" : " papers") + " found in " + searched + (state.next >= todo.length ? "." : " so far."));
          more.hidden = done;
          return;
        }
        var month = todo[state.next];
        say("Searching " + month.month + "…");
        return loadMonth(month).then(function (entries) {
          if (token !== run) return;
          state.next += 1;
          for (var i = 0; i < entries.length; ++i)
            if (matches(entries[i], state.words)) state.found.push(entries[i]);
          return step();
        });
      }
      return step();
    }).catch(function (error) { say("Search failed: " + error.message); });
  }

  function search(query) {
    run += 1;
    list.textContent = "";
    var words = queryWords(query);
    if (words.length === 0) { say("Type words of a title, an author's name or an arXiv ID."); more.hidden = true; return; }
    state = { words: words, next: 0, found: [], shown: 0, months: null };
    return proceed(run);
  }

  more.addEventListener("click", function () { if (state) proceed(run); });

  // The query goes into the address (a result page can be shared or reloaded).
  function searchNow() {
    var query = input.value.trim();
    var url = new URL(location.href);
    url.searchParams.set("q", query);
    history.replaceState(null, "", url);
    search(query);
  }
  var typing = 0;
  input.addEventListener("input", function () {
    clearTimeout(typing);
    typing = setTimeout(searchNow, WAIT);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(typing);
    searchNow();
  });

  var initial = new URLSearchParams(location.search).get("q");
  if (initial) { input.value = initial; search(initial); }
  window.paperpressSearch = search;
})();
