// The pit page's live updates: one EventSource (Server-Sent Events); each event carries an HTML
// fragment the server rendered (every value escaped there) that replaces its element. The
// browser reconnects by itself; the server then sends every fragment again.
(function () {
  "use strict";
  var table = document.body.dataset.table || "";
  var url = "/events" + (table ? "?table=" + encodeURIComponent(table) : "");
  var live = document.getElementById("live");
  var feed = document.getElementById("feed");

  function fragment(html) {
    var t = document.createElement("template");
    t.innerHTML = html.trim();
    return t.content.firstElementChild;
  }
  function replace(id, html) {
    var el = document.getElementById(id);
    if (el) { el.innerHTML = html; }
  }
  function putTile(name, html) {
    var el = fragment(html);
    var old = document.querySelector('.tile[data-table="' + CSS.escape(name) + '"]');
    if (old) { old.replaceWith(el); return; }
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
  var es = new EventSource(url);
  es.onopen = function () { live.textContent = "live"; live.className = "live ok"; };
  es.onerror = function () { live.textContent = "page server unreachable: reconnecting"; live.className = "live bad"; };
  es.addEventListener("tile", onTile);
  es.addEventListener("tiles", onTiles);
  es.addEventListener("alarms", function (e) { replace("alarms", JSON.parse(e.data).html); });
  es.addEventListener("layout", function (e) { replace("layout", JSON.parse(e.data).html); });
  es.addEventListener("rounds", function (e) { replace("rounds", JSON.parse(e.data).html); });
  es.addEventListener("feed", function (e) { feed.textContent = JSON.parse(e.data).text; });
})();
