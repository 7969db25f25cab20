/* report.js: the behaviour of PASTA's HTML report (analyzers/html/).
 * Embedded into the page at build time. Three jobs: sort a table when its
 * header is clicked, switch the source view's heat bars to the measure
 * chosen in #heat-measure (a divergence run's pages), and show any script
 * error on the page itself (in #pasta-errors), where a reader, and the
 * browser test, sees it. */
"use strict";

(function () {
  var errors = document.getElementById("pasta-errors");

  function report(message) {
    if (errors) errors.textContent += message + "\n";
  }

  window.addEventListener("error", function (e) {
    report("error: " + e.message + " (" + e.filename + ":" + e.lineno + ")");
  });
  window.addEventListener("unhandledrejection", function (e) {
    report("unhandled rejection: " + e.reason);
  });

  /* A cell's sort key: its exact number (data-v) when it has one, else its
   * text. Cells without a value ("-") sort last. */
  function key(cell, numeric) {
    if (!cell) return numeric ? null : "";
    if (!numeric) return cell.textContent.trim().toLowerCase();
    var v = cell.getAttribute("data-v");
    return v === null || v === "" ? null : Number(v);
  }

  function compare(a, b, numeric, dir) {
    if (numeric) {
      if (a === null || b === null) return (a === null) - (b === null);
      return dir * (a - b);
    }
    return dir * a.localeCompare(b);
  }

  function sortBy(table, column, th) {
    var body = table.tBodies[0];
    var numeric = th.getAttribute("data-type") !== "text";
    /* First click: largest first for numbers, A to Z for text. */
    var dir = th.getAttribute("aria-sort") === "descending" ? 1
            : th.getAttribute("aria-sort") === "ascending" ? -1
            : numeric ? -1 : 1;
    var rows = Array.prototype.slice.call(body.rows);
    var keyed = rows.map(function (row, i) {
      return { row: row, k: key(row.cells[column], numeric), i: i };
    });
    keyed.sort(function (a, b) {
      return compare(a.k, b.k, numeric, dir) || a.i - b.i;
    });
    keyed.forEach(function (x) { body.appendChild(x.row); });
    Array.prototype.forEach.call(th.parentNode.cells, function (h) {
      h.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"),
    function (table) {
      var head = table.tHead && table.tHead.rows[0];
      if (!head) return;
      Array.prototype.forEach.call(head.cells, function (th, column) {
        th.addEventListener("click", function () { sortBy(table, column, th); });
      });
    });

  /* Each bar's cell lists its width for every measure, in tenths of a
   * percent, in the order of the select's options. */
  var measure = document.getElementById("heat-measure");
  if (measure) {
    measure.addEventListener("change", function () {
      var h = Number(measure.value);
      Array.prototype.forEach.call(
        document.querySelectorAll("td.heat[data-heat]"), function (td) {
          var permille = Number(td.getAttribute("data-heat").split(" ")[h]);
          td.firstChild.style.width = permille / 10 + "%";
        });
    });
  }

  document.documentElement.setAttribute("data-script", "ready");
})();
