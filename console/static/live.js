// Keeps the page's content current: every two seconds, unless the reader is
// typing in a form or the tab is hidden, it asks the server for the same
// page's content and puts it in place. Without JavaScript the page still
// reads; it just does not move.
(function () {
  "use strict";
  var main = document.querySelector("main[data-live]");
  if (!main || !window.fetch) { return; }
  var every = parseInt(main.getAttribute("data-live"), 10) || 2000;
  var last = null;
  function busy() {
    var a = document.activeElement;
    return document.hidden || (a && a !== document.body && main.contains(a) && a.tagName !== "A" && a.tagName !== "BUTTON");
  }
  function refresh() {
    if (busy()) { return setTimeout(refresh, every); }
    var url = location.pathname + location.search.replace(/([?&])done=[^&]*&?/, "$1");
    fetch(url, { headers: { "X-Console-Fragment": "1" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        // Only a change is put in place, so a page at rest keeps its nodes
        // (and a click on them) between refreshes.
        if (html !== null && !busy() && html !== last) { last = html; main.innerHTML = html; }
      })
      .catch(function () {})
      .then(function () { setTimeout(refresh, every); });
  }
  setTimeout(refresh, every);
})();
