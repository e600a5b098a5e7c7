/* cabo-log report charts: every <div class="chart" data-figure="ID"> is drawn with plotly.js from
 * the JSON block #ID (data, not markup). Errors are shown in the box, not thrown. */
(function () {
  "use strict";
  var boxes = document.querySelectorAll("div.chart[data-figure]");
  Array.prototype.forEach.call(boxes, function (box) {
    var block = document.getElementById(box.getAttribute("data-figure"));
    if (!block) { return; }
    if (typeof Plotly === "undefined") {
      box.textContent = "The chart needs plotly.js, which could not be loaded.";
      return;
    }
    var fig = JSON.parse(block.textContent);
    Plotly.newPlot(box, fig.data, fig.layout, {responsive: true, displayModeBar: false});
  });
})();
