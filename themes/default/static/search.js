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
// Both sides are folded as the word index folds them, by static/search-words.js
// (the build's own tables): "Scholkopf" finds "Schölkopf", "Saebo" "Sæbø".
// Results come as you type; each says in which of its fields the words were
// found, and a paper listed on several days is shown once, at its newest day.
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
  var state = null;       // {words, next, found, shown, months, ids}

  // fold(): static/search-words.js, loaded here when the layout did not load it first.
  var wordsLoaded = new Promise(function (ok, fail) {
    if (globalThis.paperpressWords) return ok(globalThis.paperpressWords);
    var tag = document.createElement("script");
    tag.src = new URL("search-words.js", script.src).href;
    tag.onload = function () { ok(globalThis.paperpressWords); };
    tag.onerror = function () { fail(new Error("static/search-words.js did not load")); };
    document.head.appendChild(tag);
  });
  var fold = null; // paperpressWords.fold, once loaded

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
            // Each field a reader is told a word was found in, folded.
            var fields = [["title", [p.title, shown.title]], ["authors", [authors, (p.authors || []).join(", ")]],
                          ["arXiv ID", [p.id]], ["date", [day.date]], ["topic", [p.topic].concat(p.also_topics || [])],
                          ["comment", [p.comment]], ["topic note", [p.topic_note]], ["abstract", [p.abstract]]];
            entries.push({ date: day.date, id: p.id, title: shown.title, authors: authors,
                           fields: fields.map(function (f) { return [f[0], fold(f[1].filter(Boolean).join("\n"))]; })
                             .filter(function (f) { return f[1]; }) });
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

  // The names of the fields that hold the words, when each word is in one; else null.
  function foundIn(entry, words) {
    var names = [];
    for (var i = 0; i < words.length; ++i) {
      var hit = false;
      entry.fields.forEach(function (f) {
        if (f[1].indexOf(words[i]) < 0) return;
        hit = true;
        if (names.indexOf(f[0]) < 0) names.push(f[0]);
      });
      if (!hit) return null;
    }
    return names;
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

  function show(entry, li) {
    if (!li) list.appendChild(li = document.createElement("li"));
    li.textContent = "";
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
    var why = document.createElement("p");
    why.className = "found-in";
    why.textContent = "Found in the " + entry.found.join(", ");
    li.appendChild(why);
    entry.li = li;
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
          for (var i = 0; i < entries.length; ++i) add(entries[i]);
          return step();
        });
      }
      return step();
    }).catch(function (error) { say("Search failed: " + error.message); });
  }

  // A match, once per paper: a paper listed again is kept at its newest day.
  function add(entry) {
    var found = foundIn(entry, state.words);
    if (!found) return;
    var result = { date: entry.date, id: entry.id, title: entry.title, authors: entry.authors, found: found };
    var at = state.ids.get(entry.id);
    if (at === undefined) { state.ids.set(entry.id, state.found.length); state.found.push(result); return; }
    var kept = state.found[at];
    if (entry.date <= kept.date) return;
    state.found[at] = result;
    if (kept.li) show(result, kept.li);
  }

  function search(query) {
    run += 1;
    var token = run;
    list.textContent = "";
    return wordsLoaded.then(function (loaded) {
      if (token !== run) return;
      fold = loaded.fold;
      var words = queryWords(query);
      if (words.length === 0) { say("Type words of a title, an author's name or an arXiv ID."); more.hidden = true; return; }
      state = { words: words, next: 0, found: [], shown: 0, months: null, ids: new Map() };
      return proceed(token);
    }).catch(function (error) { say("Search failed: " + error.message); });
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
