// The pit page's live updates: one EventSource (Server-Sent Events); each event carries an HTML
// fragment the server rendered (every value escaped there) that replaces its element, keeping the
// element that has the keyboard's focus. The browser reconnects by itself; the server then sends
// every fragment again. A stream closed for good (an answer other than 200) is opened again, a
// few seconds apart at most; a 401 (the session is gone) goes to the login, and back here after it.
(function () {
  "use strict";
  var table = document.body.dataset.table || "";
  var url = "/events" + (table ? "?table=" + encodeURIComponent(table) : "");
  var live = document.getElementById("live");
  var feed = document.getElementById("feed");
  var tries = 0;

  function say(text, kind) { live.textContent = text; live.className = "live " + kind; }
  // A round newly listed (the full list came first): put it on top; a listed round never changes,
  // so one already there stays as it is, open or not.
  function onRound(e) {
    var d = JSON.parse(e.data), el = fragment(d.html);
    var list = document.getElementById("rounds-list"), count = document.getElementById("rounds-count");
    if (!list || document.getElementById(el.id)) { return; }
    list.insertBefore(el, list.firstElementChild);
    if (count) { count.textContent = d.count; }
  }
  function fragment(html) {
    var t = document.createElement("template");
    t.innerHTML = html.trim();
    return t.content.firstElementChild;
  }
  // The focused element inside `box`, as something to find it again by: its id, or its href and
  // which of the links with that href it is.
  function focusKey(box) {
    var el = document.activeElement;
    if (!el || el === document.body || !box.contains(el)) { return null; }
    if (el.id) { return { id: el.id }; }
    var href = el.getAttribute("href");
    if (href === null) { return null; }
    var same = box.querySelectorAll("[href]");
    var nth = 0;
    for (var i = 0; i < same.length && same[i] !== el; i++) {
      if (same[i].getAttribute("href") === href) { nth++; }
    }
    return { href: href, nth: nth };
  }
  function refocus(box, key) {
    if (!key) { return; }
    var found = null;
    if (key.id) {
      found = document.getElementById(key.id);
    } else {
      var nth = key.nth;
      box.querySelectorAll("[href]").forEach(function (a) {
        if (found === null && a.getAttribute("href") === key.href && nth-- === 0) { found = a; }
      });
    }
    if (found && box.contains(found)) { found.focus({ preventScroll: true }); }
  }
  function replace(id, html) {
    var el = document.getElementById(id);
    if (!el) { return; }
    var key = focusKey(el);
    el.innerHTML = html;
    refocus(el, key);
  }
  // The tile is updated in place (its attributes and its content), so a focused tile stays focused.
  function update(old, el) {
    Array.prototype.slice.call(old.attributes).forEach(function (a) {
      if (!el.hasAttribute(a.name)) { old.removeAttribute(a.name); }
    });
    Array.prototype.forEach.call(el.attributes, function (a) {
      if (old.getAttribute(a.name) !== a.value) { old.setAttribute(a.name, a.value); }
    });
    old.replaceChildren.apply(old, Array.prototype.slice.call(el.childNodes));
  }
  function putTile(name, html) {
    var el = fragment(html);
    var old = document.querySelector('.tile[data-table="' + CSS.escape(name) + '"]');
    if (old) {
      if (old.tagName === el.tagName) { update(old, el); } else { old.replaceWith(el); }
      if (live.className === "live wait") { say("live", "ok"); }
      return;
    }
    var tiles = document.getElementById("tiles");
    if (tiles && !table) {
      var after = null;
      tiles.querySelectorAll(".tile").forEach(function (t) {
        if (after === null && t.dataset.table > name) { after = t; }
      });
      tiles.insertBefore(el, after);
    }
  }
  function onTile(e) { var d = JSON.parse(e.data); putTile(d.table, d.html); }
  function onTiles(e) { JSON.parse(e.data).tiles.forEach(function (t) { putTile(t[0], t[1]); }); }

  function again() {
    var wait = Math.min(1000 * Math.pow(2, tries), 4000);
    tries++;
    setTimeout(probe, wait);
  }
  // Whether the stream can be opened again: its answer's status (the EventSource does not tell it).
  function probe() {
    var stop = new AbortController();
    fetch(url, { cache: "no-store", credentials: "same-origin", signal: stop.signal }).then(function (r) {
      stop.abort();
      if (r.status === 401) {
        say("logged out: log in again", "bad");
        location.assign("/login?next=" + encodeURIComponent(location.pathname + location.search));
      } else if (r.ok) {
        open();
      } else {
        say("page server answered " + r.status + ": trying again", "bad");
        again();
      }
    }, function () { again(); });
  }
  function open() {
    var es = new EventSource(url);
    es.onopen = function () { tries = 0; say("live", "ok"); };
    es.onerror = function () {
      say("page server unreachable: reconnecting", "bad");
      if (es.readyState === EventSource.CLOSED) { es.close(); again(); }
    };
    es.addEventListener("tile", onTile);
    es.addEventListener("tiles", onTiles);
    es.addEventListener("waiting", function (e) { say(JSON.parse(e.data).text, "wait"); });
    es.addEventListener("alarms", function (e) { replace("alarms", JSON.parse(e.data).html); });
    es.addEventListener("layout", function (e) { replace("layout", JSON.parse(e.data).html); });
    es.addEventListener("rounds", function (e) { replace("rounds", JSON.parse(e.data).html); });
    es.addEventListener("round", onRound);
    es.addEventListener("feed", function (e) { feed.textContent = JSON.parse(e.data).text; });
  }
  open();
})();
