/* perudo-rules spec: the controls of the comparison matrix (perudo_rules/sphinxext/compare.py).
 *
 * Progressive enhancement: without this script the whole matrix is shown and the controls
 * stay hidden. The script writes no text of its own: every label is in the page (where
 * Sphinx can translate it), and each "perudo-toggle" becomes a checkbox around its label.
 *   - "perudo-toggle-differing": show only the rows whose values differ among the editions
 *     shown (the row's mark and highlights follow the editions shown);
 *   - "perudo-toggle-edition perudo-edition-ID": show or hide the column of edition ID.
 */
(function () {
  "use strict";

  function editionOf(el) {
    for (var i = 0; i < el.classList.length; i++) {
      if (el.classList[i].indexOf("perudo-edition-") === 0) { return el.classList[i]; }
    }
    return null;
  }

  function checkbox(toggle, checked, onChange) {
    var label = document.createElement("label");
    var box = document.createElement("input");
    box.type = "checkbox";
    box.checked = checked;
    label.appendChild(box);
    while (toggle.firstChild) { label.appendChild(toggle.firstChild); }
    toggle.appendChild(label);
    box.addEventListener("change", function () { onChange(box); });
    return box;
  }

  function value(cell) {
    var code = cell.querySelector("code");
    return (code || cell).textContent;
  }

  function setUp(view) {
    var table = view.querySelector("table.perudo-compare");
    var controls = view.querySelector(".perudo-compare-controls");
    if (!table || !controls || !table.tHead) { return; }
    var columns = [];  // {edition, index} of each edition's column
    var heads = table.tHead.rows[0].cells;
    for (var i = 0; i < heads.length; i++) {
      var ed = editionOf(heads[i]);
      if (ed) { columns.push({ edition: ed, index: i }); }
    }
    var shown = {};
    columns.forEach(function (c) { shown[c.edition] = true; });
    var onlyDiffering = false;

    function update() {
      var rows = table.rows;
      for (var r = 0; r < rows.length; r++) {
        var row = rows[r], values = [];
        columns.forEach(function (c) {
          var cell = row.cells[c.index];
          if (!cell) { return; }
          cell.classList.toggle("perudo-hidden", !shown[c.edition]);
          if (shown[c.edition] && row.parentNode.tagName === "TBODY") {
            values.push({ cell: cell, value: value(cell) });
          }
        });
        if (row.parentNode.tagName !== "TBODY") { continue; }
        var counts = {}, common = null;
        values.forEach(function (v) { counts[v.value] = (counts[v.value] || 0) + 1; });
        values.forEach(function (v) {  // the most common value, the first of them on a tie
          if (common === null || counts[v.value] > counts[common]) { common = v.value; }
        });
        var differs = values.some(function (v) { return v.value !== common; });
        values.forEach(function (v) {
          v.cell.classList.toggle("perudo-odd", differs && v.value !== common);
        });
        row.classList.toggle("perudo-differs", differs);
        row.classList.toggle("perudo-same", !differs);
        row.classList.toggle("perudo-hidden", onlyDiffering && !differs);
      }
    }

    controls.querySelectorAll(".perudo-toggle").forEach(function (toggle) {
      if (toggle.classList.contains("perudo-toggle-differing")) {
        checkbox(toggle, false, function (box) { onlyDiffering = box.checked; update(); });
        return;
      }
      var ed = editionOf(toggle);
      if (!ed || !(ed in shown)) { return; }
      checkbox(toggle, true, function (box) {
        var others = columns.some(function (c) { return c.edition !== ed && shown[c.edition]; });
        if (!box.checked && !others) { box.checked = true; return; }  // keep one edition
        shown[ed] = box.checked;
        update();
      });
    });
    view.classList.add("perudo-enhanced");
  }

  function start() {
    document.querySelectorAll(".perudo-compare-view").forEach(setUp);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
