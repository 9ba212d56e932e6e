// paperpress search: client-side, over the archive's monthly shards.
// search/index.json lists the shards newest first; a query loads shards one
// by one, newest first, and stops once it has a page of results ("Search
// older months" goes on). Every query word must occur in one of the fields
// (date, arXiv ID, title, authors) or in a word of the abstract; results
// link to the paper on its day page. A query with a date (2025-02-03) or a
// new-style arXiv ID (2502.01234) searches only the months it can be in: the
// date's month, or the ID's month and later, oldest first. Shards are
// fetched once and kept for later queries. A shard lists its month's words
// once ("vocabulary"); each paper names its words by their positions in that
// list, gap-coded in base-32 digits (site/search.h).
(function () {
  "use strict";
  var script = document.currentScript;
  var indexUrl = new URL(script.getAttribute("data-index"), location.href);
  var base = script.getAttribute("data-base") || "/";
  var PAGE = 50;

  var form = document.querySelector(".search-form");
  var input = document.getElementById("search-query");
  var status = document.getElementById("search-status");
  var list = document.getElementById("search-results");
  var more = document.getElementById("search-more");
  if (!form || !input || !list) return;

  var index = null;       // promise of the shard list
  var shards = {};        // name -> promise of prepared entries
  var run = 0;            // the current query; older ones stop
  var state = null;       // {words, next, found, shown}

  function loadIndex() {
    if (!index) index = fetch(indexUrl).then(function (r) {
      if (!r.ok) throw new Error("search index: HTTP " + r.status);
      return r.json();
    });
    return index;
  }

  function loadShard(shard) {
    if (!shards[shard.name]) {
      shards[shard.name] = fetch(new URL(shard.url, indexUrl)).then(function (r) {
        if (!r.ok) throw new Error(shard.url + ": HTTP " + r.status);
        return r.json();
      }).then(function (data) {
        return {
          vocabulary: data.vocabulary ? data.vocabulary.split(" ") : [],
          entries: data.entries.map(function (e) {
            return { date: e[0], id: e[1], title: e[2], authors: e[3], words: decodePositions(e[4]),
                     text: (e[0] + "\n" + e[1] + "\n" + e[2] + "\n" + e[3]).toLowerCase() };
          })
        };
      });
    }
    return shards[shard.name];
  }

  function queryWords(query) {
    return query.toLowerCase().replace(/\barxiv:/g, " ").split(/\s+/).filter(function (w) { return w.length > 0; });
  }

  var DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";

  // "011" -> [0, 1, 2]: gaps in base 32, digits 32-63 going on to the next digit.
  function decodePositions(code) {
    var out = [], value = 0, previous = 0;
    for (var i = 0; i < code.length; ++i) {
      var digit = DIGITS.indexOf(code.charAt(i));
      value = value * 32 + (digit & 31);
      if (digit >= 32) continue;
      previous += value;
      out.push(previous);
      value = 0;
    }
    return out;
  }

  // For each query word, which of the shard's words contain it.
  function wordMarks(vocabulary, words) {
    return words.map(function (word) {
      var marks = new Uint8Array(vocabulary.length);
      for (var i = 0; i < vocabulary.length; ++i) if (vocabulary[i].indexOf(word) >= 0) marks[i] = 1;
      return marks;
    });
  }

  function matches(entry, words, marks) {
    for (var i = 0; i < words.length; ++i) {
      if (entry.text.indexOf(words[i]) >= 0) continue;
      var found = false;
      for (var k = 0; k < entry.words.length && !found; ++k) found = marks[i][entry.words[k]] === 1;
      if (!found) return false;
    }
    return true;
  }

  // The shards a query can match: all, newest first; or only the month a date
  // names; or, for an arXiv ID, its month and later, oldest first.
  function shardsFor(words, shards) {
    for (var i = 0; i < words.length; ++i) {
      var date = /^(\d{4}-\d{2})(-\d{2})?$/.exec(words[i]);
      if (date) return shards.filter(function (s) { return s.name === date[1]; });
      var id = /^(\d{2})(\d{2})\.\d{4,5}(v\d+)?$/.exec(words[i]);
      if (id) {
        var month = "20" + id[1] + "-" + id[2];
        return shards.filter(function (s) { return s.name >= month; }).reverse();
      }
    }
    return shards;
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

  // Scans shards from state.next on until PAGE more results or the end.
  function proceed(token) {
    more.hidden = true;
    return loadIndex().then(function (idx) {
      var target = state.shown + PAGE;
      if (!state.shards) state.shards = shardsFor(state.words, idx.shards);
      var shards = state.shards;
      function step() {
        if (token !== run) return;
        while (state.shown < state.found.length && state.shown < target) { show(state.found[state.shown]); state.shown += 1; }
        if (state.found.length >= target || state.next >= shards.length) {
          var done = state.next >= shards.length && state.shown >= state.found.length;
          var n = state.found.length;
          var searched = state.next + " of " + idx.shards.length + (idx.shards.length === 1 ? " month" : " months") +
              (shards.length < idx.shards.length ? " (the only ones it can be in)" : "");
          say(n === 0 && done ? "No paper matches every word (searched " + searched + ")." :
              n + (n === 1 ? " paper" : " papers") + " found in " + searched + (state.next >= shards.length ? "." : " so far."));
          more.hidden = done;
          return;
        }
        var shard = shards[state.next];
        say("Searching " + shard.name + "…");
        return loadShard(shard).then(function (data) {
          if (token !== run) return;
          state.next += 1;
          var marks = wordMarks(data.vocabulary, state.words);
          for (var i = 0; i < data.entries.length; ++i)
            if (matches(data.entries[i], state.words, marks)) state.found.push(data.entries[i]);
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
    if (words.length === 0) { say("Type a title, an author, an arXiv ID or words of an abstract."); more.hidden = true; return; }
    state = { words: words, next: 0, found: [], shown: 0, shards: null };
    return proceed(run);
  }

  more.addEventListener("click", function () { if (state) proceed(run); });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var query = input.value.trim();
    var url = new URL(location.href);
    url.searchParams.set("q", query);
    history.replaceState(null, "", url);
    search(query);
  });

  var initial = new URLSearchParams(location.search).get("q");
  if (initial) { input.value = initial; search(initial); }
  window.paperpressSearch = search;
})();
