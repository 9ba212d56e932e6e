// paperpress search: client-side, over the archive's monthly shards.
// search/index.json lists the shards newest first; a query loads shards one
// by one, newest first, and stops once it has a page of results ("Search
// older months" goes on). Every query word must occur in one of the fields
// (date, arXiv ID, title, authors, abstract words); results link to the
// paper on its day page. Shards are fetched once and kept for later queries.
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
        return data.entries.map(function (e) {
          return { date: e[0], id: e[1], title: e[2], authors: e[3],
                   text: (e[0] + "\n" + e[1] + "\n" + e[2] + "\n" + e[3] + "\n" + e[4]).toLowerCase() };
        });
      });
    }
    return shards[shard.name];
  }

  function queryWords(query) {
    return query.toLowerCase().replace(/\barxiv:/g, " ").split(/\s+/).filter(function (w) { return w.length > 0; });
  }

  function matches(entry, words) {
    for (var i = 0; i < words.length; ++i) if (entry.text.indexOf(words[i]) < 0) return false;
    return true;
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
      function step() {
        if (token !== run) return;
        while (state.shown < state.found.length && state.shown < target) { show(state.found[state.shown]); state.shown += 1; }
        if (state.found.length >= target || state.next >= idx.shards.length) {
          var done = state.next >= idx.shards.length && state.shown >= state.found.length;
          var n = state.found.length;
          say(n === 0 && done ? "No paper matches every word." :
              n + (n === 1 ? " paper" : " papers") + " found in " + state.next + " of " + idx.shards.length +
              (idx.shards.length === 1 ? " month" : " months") + (state.next >= idx.shards.length ? "." : " so far."));
          more.hidden = done;
          return;
        }
        var shard = idx.shards[state.next];
        say("Searching " + shard.name + "…");
        return loadShard(shard).then(function (entries) {
          if (token !== run) return;
          state.next += 1;
          for (var i = 0; i < entries.length; ++i) if (matches(entries[i], state.words)) state.found.push(entries[i]);
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
    state = { words: words, next: 0, found: [], shown: 0 };
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
