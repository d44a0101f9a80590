// ECov leaderboard: sort tables by a header click, filter leaderboard rows. Plain JavaScript, no libraries.
(function () {
  "use strict";

  function cellValue(row, index) {
    var cell = row.cells[index];
    if (!cell) return "";
    return cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort") : cell.textContent.trim();
  }

  // Empty values sort last in both directions; numbers compare as numbers, text case-insensitively.
  function compare(a, b, numeric, dir) {
    if (a === "" && b === "") return 0;
    if (a === "") return 1;
    if (b === "") return -1;
    if (numeric) {
      var x = parseFloat(a), y = parseFloat(b);
      if (!isNaN(x) && !isNaN(y)) return dir * (x - y);
    }
    return dir * a.localeCompare(b, undefined, { numeric: true, sensitivity: "base" });
  }

  function sortTable(table, th) {
    var headers = Array.prototype.slice.call(th.parentNode.children);
    var index = headers.indexOf(th);
    var numeric = th.getAttribute("data-type") === "num";
    // First click: numbers high to low (best first), text A to Z; later clicks toggle.
    var current = th.getAttribute("aria-sort");
    var next = current === "none" || !current ? (numeric ? "descending" : "ascending")
      : (current === "ascending" ? "descending" : "ascending");
    var dir = next === "ascending" ? 1 : -1;
    headers.forEach(function (h) { h.setAttribute("aria-sort", "none"); });
    th.setAttribute("aria-sort", next);
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (r, i) { r._pos = i; });
    rows.sort(function (r1, r2) {
      return compare(cellValue(r1, index), cellValue(r2, index), numeric, dir) || r1._pos - r2._pos;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }

  function applyFilter() {
    var text = document.getElementById("filter-text");
    var type = document.getElementById("filter-type");
    var verified = document.getElementById("filter-verified");
    var q = text ? text.value.trim().toLowerCase() : "";
    var t = type ? type.value : "";
    var v = verified ? verified.checked : false;
    document.querySelectorAll("table.leaderboard").forEach(function (table) {
      var shown = 0;
      Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
        var ok = (!q || row.textContent.toLowerCase().indexOf(q) !== -1)
          && (!t || row.getAttribute("data-type") === t)
          && (!v || row.getAttribute("data-verified") === "verified");
        row.hidden = !ok;
        if (ok) shown += 1;
      });
      var note = table.parentNode.querySelector(".nomatch");
      if (note) note.hidden = shown !== 0;
    });
  }

  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th) {
      th.addEventListener("click", function () { sortTable(table, th); });
    });
  });
  ["filter-text", "filter-type", "filter-verified"].forEach(function (id) {
    var el = document.getElementById(id);
    if (el) el.addEventListener(el.type === "checkbox" || el.tagName === "SELECT" ? "change" : "input", applyFilter);
  });
})();
