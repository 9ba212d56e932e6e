// paperpress search: client-side, over the archive's word index (docs/data.md,
// "The search index"). search/index.json lists the periods (years; the
// newest month and its newest week), each with its days and the first word of each of its
// chunks (a chunk's file is named by its first word, chunkName()); a query
// fetches, in parallel, only the chunks that can hold its words, then the day
// files (search/days/DATE.json.gz) of the results shown.
// `paperpress search` reads the same files the same way (search/query.cpp).
//
// Words are folded and split as the build does it, by static/search-words.js,
// which the build writes from its own tables (search/words.h): "Scholkopf"
// finds "Schölkopf", "Saebo" "Sæbø". Every word must match; a word of three
// bytes or more matches as a prefix (as one types). A date (2025-02-03) or
// month (2025-02) limits the results to it. Ranked by where the words are
// (title, then authors/topics/ID, then abstract/comment), then newer, then
// higher-scored. A paper listed on several days is shown once, at its newest
// day, and each result says where its words were found.
(function () {
  "use strict";
  var script = document.currentScript;
  var indexUrl = new URL(script.getAttribute("data-index"), location.href);
  var base = script.getAttribute("data-base") || "/";
  var PAGE = 20, WAIT = 150, MIN_PREFIX = 3;
  var VERSION = 3; // of the index's format: search/index.h's format_version
  // A site can come from anyone's fork: the index is read as the build writes it (search/query.h's bounds).
  var MAX_PAPERS = 5000;        // a day's, core/paper.h's max_papers_per_day
  var MAX_FILE = 16 << 20;      // bytes unpacked of one file of the index
  var MAX_DIGITS = 6;           // a posting's before its capital: search/index.h's max_posting_digits
  var PERIOD = /^\d{4}(-\d{2}(-\d{2})?)?$/, DAY = /^(\d{4}):(\d{1,4})$/;

  var form = document.querySelector(".search-form");
  var input = document.getElementById("search-query");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var more = document.getElementById("search-more");
  if (!form || !input || !list) return;

  var files = {};   // site-relative URL -> promise of its text
  var run = 0;      // the current query; older ones stop
  var state = null; // {matches, shown}

  // A file's text, fetched once; a gzip'd one (a day's) unpacked, unless a server already has.
  // Read as it streams, and refused past MAX_FILE bytes: a site can come from anyone's fork.
  function text(path) {
    if (!files[path]) files[path] = fetch(new URL(path, indexUrl)).then(function (r) {
      if (!r.ok) throw new Error(path + ": HTTP " + r.status);
      return readAll(path, r.body);
    }).then(function (bytes) {
      if (bytes.length < 2 || bytes[0] !== 0x1f || bytes[1] !== 0x8b) return new TextDecoder().decode(bytes);
      return readAll(path, new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")))
        .then(function (plain) { return new TextDecoder().decode(plain); });
    });
    return files[path];
  }

  // A stream's bytes, refused past MAX_FILE (a small gzip'd file can unpack to gigabytes).
  function readAll(path, stream) {
    var reader = stream.getReader(), parts = [], size = 0;
    function next() {
      return reader.read().then(function (step) {
        if (step.done) return new Blob(parts).arrayBuffer().then(function (b) { return new Uint8Array(b); });
        size += step.value.length;
        if (size > MAX_FILE) { reader.cancel(); throw new Error(path + " is more than " + MAX_FILE + " bytes"); }
        parts.push(step.value);
        return next();
      });
    }
    return next();
  }

  var manifest = null;
  function periods() {
    if (!manifest) manifest = text("index.json").then(function (t) {
      var index = JSON.parse(t);
      if (index.version !== VERSION) throw new Error("the search index is of another version: reload the page");
      return index.periods.map(function (p) {
        // Names and days as the build writes them: a name with "../" would fetch outside the index.
        if (typeof p.name !== "string" || !PERIOD.test(p.name) || typeof p.days !== "string" || !Array.isArray(p.chunks))
          throw new Error("the search index lists a period the build does not write");
        var days = [], first = [], n = 0, entries = p.days ? p.days.split(",", 367) : [];
        if (entries.length > 366) throw new Error("the search index lists more days than period " + p.name + " has");
        entries.forEach(function (entry) {
          var day = DAY.exec(entry), papers = day ? parseInt(day[2], 10) : NaN;
          if (!(papers <= MAX_PAPERS)) throw new Error("the search index lists a day as " + entry.slice(0, 20));
          days.push(p.name.slice(0, 4) + "-" + day[1].slice(0, 2) + "-" + day[1].slice(2, 4));
          first.push(n);
          n += papers;
        });
        return { name: p.name, chunks: p.chunks, days: days, first: first, papers: n };
      });
    });
    return manifest;
  }

  // fold() and words(): static/search-words.js, loaded here when the layout did not load it first.
  var wordsLoaded = new Promise(function (ok, fail) {
    if (globalThis.paperpressWords) return ok(globalThis.paperpressWords);
    var tag = document.createElement("script");
    tag.src = new URL("search-words.js", script.src).href;
    tag.onload = function () { ok(globalThis.paperpressWords); };
    tag.onerror = function () { fail(new Error("static/search-words.js did not load")); };
    document.head.appendChild(tag);
  });
  var W = null; // paperpressWords, once loaded
  function bytes(word) { return new TextEncoder().encode(word).length; }

  function parseQuery(query) {
    var q = { words: [], date: "" };
    query.split(/\s+/).forEach(function (token) {
      token = token.replace(/^arxiv:/i, "");
      if (/^\d{4}-\d{2}(-\d{2})?$/.test(token)) q.date = token;
      else q.words = q.words.concat(W.words(token));
    });
    return q;
  }

  // Index of the last entry <= key in a sorted list (0 if none).
  function lastAtMost(sorted, key) {
    var lo = 0, hi = sorted.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (sorted[mid] <= key) lo = mid + 1; else hi = mid; }
    return Math.max(lo - 1, 0);
  }

  // The chunk numbers of a period that can hold the word (or the words it starts).
  function chunksFor(period, word, prefix) {
    var from = lastAtMost(period.chunks, word);
    var to = prefix ? lastAtMost(period.chunks, word + "\uffff") : from;
    var out = [];
    for (var c = from; c <= to && c < period.chunks.length; ++c) out.push(c);
    return out;
  }

  // A chunk's file name: its first word's 32-bit FNV-1a hash in hex (search/index.h's chunk_name()).
  function chunkName(word) {
    var bytes = new TextEncoder().encode(word), h = 0x811c9dc5;
    for (var i = 0; i < bytes.length; ++i) h = Math.imul(h ^ bytes[i], 0x01000193);
    return ("0000000" + (h >>> 0).toString(16)).slice(-8);
  }

  // number -> best class of the word's postings in the chunk's text. A posting
  // is base 36 (0-9a-z) of its value / 26, then value % 26 as a capital (A-Z).
  function scan(chunk, word, prefix, papers, weights) {
    chunk.split("\n").forEach(function (line) {
      var tab = line.indexOf("\t");
      if (tab < 0) return;
      var w = line.slice(0, tab);
      if (!(w === word || (prefix && w.indexOf(word) === 0))) return;
      var n = -1, lead = 0, digits = 0;
      for (var i = tab + 1; i < line.length; ++i) {
        var code = line.charCodeAt(i);
        if (code >= 48 && code <= 57 || code >= 97 && code <= 122) {
          lead = lead * 36 + (code <= 57 ? code - 48 : code - 87);
          if (++digits > MAX_DIGITS) throw new Error("the search index holds a posting too long");
          continue;
        }
        if (code < 65 || code > 90) throw new Error("the search index holds a posting " + line.slice(i, i + 20));
        var v = lead * 26 + code - 65;
        lead = 0;
        digits = 0;
        if (v < 4) throw new Error("the search index holds a posting of no gap");
        n += Math.floor(v / 4);
        // Numbers rise and stay below the period's papers: a map of at most that many.
        if (n >= papers) throw new Error("the search index holds a paper number past its period's papers");
        var c = v % 4;
        if (!(weights.get(n) >= c)) weights.set(n, c);
      }
      if (digits > 0) throw new Error("the search index holds a posting with no last digit");
    });
  }

  function dayIndex(period, n) { return lastAtMost(period.first, n); }

  // The matches of one period: [{period, number, weight}].
  function matchPeriod(period, pi, q) {
    var perWord = q.words.map(function (word) {
      var prefix = bytes(word) >= MIN_PREFIX;
      return Promise.all(chunksFor(period, word, prefix).map(function (c) {
        return text(period.name + "/" + chunkName(period.chunks[c]) + ".txt");
      })).then(function (chunks) {
        var weights = new Map();
        chunks.forEach(function (chunk) { scan(chunk, word, prefix, period.papers, weights); });
        return weights;
      });
    });
    return Promise.all(perWord).then(function (maps) {
      var all = maps.length ? maps[0] : new Map();
      if (!maps.length) for (var n = 0; n < period.papers; ++n) all.set(n, 0);
      var out = [];
      all.forEach(function (weight, number) {
        for (var i = 1; i < maps.length; ++i) {
          var w = maps[i].get(number);
          if (w === undefined) return;
          weight += w;
        }
        if (number < period.papers && period.days[dayIndex(period, number)].indexOf(q.date) === 0)
          out.push({ period: pi, number: number, weight: weight });
      });
      return out;
    });
  }

  function dayHref(date, id) {
    var d = date.split("-");
    return base + d[0] + "/" + d[1] + "/" + d[2] + "/#p-" + id.replace(/\//g, "-");
  }

  // Where the query's words are in a result: the fields shown that hold one,
  // and the abstract or comment for the rest (the index holds those too).
  function foundIn(paper, queryWords) {
    var fields = [["title", paper[1]], ["authors", paper[2]], ["topic", paper[4]], ["arXiv ID", paper[0]]];
    var names = [], rest = false;
    queryWords.forEach(function (q) {
      var prefix = bytes(q) >= MIN_PREFIX, hit = false;
      fields.forEach(function (field) {
        var has = W.words(field[1] || "").some(function (w) { return w === q || (prefix && w.indexOf(q) === 0); });
        if (has && names.indexOf(field[0]) < 0) names.push(field[0]);
        hit = hit || has;
      });
      rest = rest || !hit;
    });
    if (rest) names.push("abstract or comment");
    return names;
  }

  function fill(li, date, paper, queryWords) {
    li.textContent = "";
    var a = document.createElement("a");
    a.href = dayHref(date, paper[0]);
    a.className = "math";
    a.textContent = paper[1];
    var meta = document.createElement("p");
    meta.className = "meta";
    var time = document.createElement("time");
    time.dateTime = date;
    time.textContent = date;
    meta.appendChild(time);
    meta.appendChild(document.createTextNode(" · arXiv:" + paper[0] + " · " +
        (paper[3] === null ? "not scored" : "score " + paper[3]) + (paper[4] ? " · " + paper[4] : "")));
    li.appendChild(a);
    li.appendChild(meta);
    if (paper[2]) {
      var authors = document.createElement("p");
      authors.className = "authors";
      authors.textContent = paper[2];
      li.appendChild(authors);
    }
    var found = foundIn(paper, queryWords);
    if (found.length) {
      var why = document.createElement("p");
      why.className = "found-in";
      why.textContent = "Found in the " + found.join(", ");
      li.appendChild(why);
    }
    li.hidden = false;
    if (window.paperpressTypeset) window.paperpressTypeset(a);
  }

  function say(message) { if (status) status.textContent = message; }

  // The next PAGE results, in order, once all their days' files came (shown
  // as they came, a result would push down those below it: issue 43). A
  // paper listed on several days is one result: where it ranks first, with
  // its newest day (state.shownIds: arXiv ID -> {li, date}).
  function showMore(token, all) {
    var from = state.shown, to = Math.min(state.matches.length, from + PAGE);
    state.shown = to;
    more.hidden = to >= state.matches.length;
    var page = state.matches.slice(from, to).map(function (match) {
      var period = all[match.period], day = dayIndex(period, match.number), date = period.days[day];
      return text("days/" + date + ".json.gz").then(function (t) {
        return { date: date, paper: JSON.parse(t).papers[match.number - period.first[day]] };
      });
    });
    return Promise.all(page).then(function (results) {
      if (token !== run) return;
      results.forEach(function (r) {
        var seen = state.shownIds.get(r.paper[0]);
        if (seen) {
          state.repeats += 1;
          if (r.date > seen.date) { seen.date = r.date; fill(seen.li, r.date, r.paper, state.words); }
          return;
        }
        var li = document.createElement("li");
        li.className = "search-result";
        list.appendChild(li);
        fill(li, r.date, r.paper, state.words);
        state.shownIds.set(r.paper[0], { li: li, date: r.date });
      });
      var n = state.matches.length - state.repeats, shown = state.shownIds.size;
      say(n + (n === 1 ? " paper matches" : " papers match") + (n > shown ? "; showing the best " + shown + "." : "."));
    });
  }

  function search(query) {
    run += 1;
    var token = run;
    list.textContent = "";
    more.hidden = true;
    say("Searching…");
    return wordsLoaded.then(function (loaded) {
      W = loaded;
      var q = parseQuery(query);
      if (!q.words.length && !q.date) { say("Type words of a title, an author's name, an abstract, an arXiv ID or a date."); return; }
      return find(token, q);
    }).catch(function (error) { if (token === run) say("Search failed: " + error.message); });
  }

  function find(token, q) {
    return periods().then(function (all) {
      var todo = all.map(function (period, i) {
        var wanted = period.days.some(function (d) { return d.indexOf(q.date) === 0; });
        return wanted ? matchPeriod(period, i, q) : Promise.resolve([]);
      });
      return Promise.all(todo).then(function (parts) {
        if (token !== run) return;
        var matches = [].concat.apply([], parts);
        matches.sort(function (a, b) { return b.weight - a.weight || a.period - b.period || b.number - a.number; });
        state = { matches: matches, shown: 0, words: q.words, shownIds: new Map(), repeats: 0 };
        if (!matches.length) { say("No paper matches every word."); return; }
        return showMore(token, all);
      });
    });
  }

  more.addEventListener("click", function () { if (state) periods().then(function (all) { showMore(run, all); }); });

  function remember(query) {
    var url = new URL(location.href);
    if (query) url.searchParams.set("q", query); else url.searchParams.delete("q");
    history.replaceState(null, "", url);
  }

  // As one types: a query WAIT ms after the last key.
  var timer = 0;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(function () { remember(input.value.trim()); search(input.value.trim()); }, WAIT);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    clearTimeout(timer);
    remember(input.value.trim());
    search(input.value.trim());
  });

  var initial = new URLSearchParams(location.search).get("q");
  if (initial) { input.value = initial; search(initial); }
  else periods().catch(function () {}); // the list of periods, before the first key
  window.paperpressSearch = search;
})();
