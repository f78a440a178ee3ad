/* The charts of a simulation's results page, drawn with Chart.js (config/static/vendor/chartjs).
 *
 * Each chart is a <canvas data-chart="ID"> next to a <script type="application/json" id="ID">
 * that simulator/charts.py (or a room's pages.py) wrote: its kind ("rates", "histogram",
 * "impact", "lines"), title, axis
 * titles, numbers and the words of each tooltip. The results arrive by htmx after the page has
 * loaded, so charts are drawn on load and after every htmx swap; a chart inside a closed
 * <details> is drawn the first time it is opened (a hidden canvas has no size to draw at).
 */
(function () {
  "use strict";

  // The site's palette (site.css :root).
  var INK = "#2b1d0e";
  var SAGE = "#4f6b4a";
  var RUST = "#8c3b1f";
  var SKY = "#2f5d7c";
  var LINE = "rgba(43, 29, 14, 0.15)";

  // Long names wrap onto lines of about `width` characters instead of being cut off.
  function wrap(label, width) {
    var words = String(label).split(" ");
    var lines = [];
    var line = "";
    words.forEach(function (word) {
      if (line && (line + " " + word).length > width) {
        lines.push(line);
        line = word;
      } else {
        line = line ? line + " " + word : word;
      }
    });
    if (line) lines.push(line);
    return lines;
  }

  function axisTitle(text) {
    return { display: Boolean(text), text: text || "", color: INK };
  }

  function base(spec, narrow) {
    return {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: {
        title: { display: true, text: spec.title, color: INK, font: { size: 15, weight: "bold" } },
        legend: { display: false },
        tooltip: {
          callbacks: {
            title: function (items) {
              return items.length ? spec.labels[items[0].dataIndex] : "";
            },
            label: function (item) {
              return spec.tips[item.dataIndex];
            },
          },
        },
      },
      scales: {},
    };
  }

  // Draws each bar's 95% interval (its dataset's `intervals`, [low, high]) as a whisker
  // across the bar, wherever Chart.js placed it (grouped bars included).
  var whiskers = {
    id: "whiskers",
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx;
      var x = chart.scales.x;
      chart.data.datasets.forEach(function (dataset, di) {
        if (!dataset.intervals || !chart.isDatasetVisible(di)) return;
        chart.getDatasetMeta(di).data.forEach(function (bar, i) {
          var span = dataset.intervals[i];
          if (!span || span[0] === null || span[1] === null) return;
          var left = x.getPixelForValue(span[0]);
          var right = x.getPixelForValue(span[1]);
          var cap = Math.max(4, bar.height * 0.25);
          ctx.save();
          ctx.strokeStyle = INK;
          ctx.lineWidth = 2;
          ctx.beginPath();
          ctx.moveTo(left, bar.y);
          ctx.lineTo(right, bar.y);
          ctx.moveTo(left, bar.y - cap);
          ctx.lineTo(left, bar.y + cap);
          ctx.moveTo(right, bar.y - cap);
          ctx.lineTo(right, bar.y + cap);
          ctx.stroke();
          ctx.restore();
        });
      });
    },
  };

  var SERIES_COLOURS = [SAGE, SKY];

  function ratesChart(spec, narrow) {
    var options = base(spec, narrow);
    var width = narrow ? 16 : 30;
    options.indexAxis = "y";
    options.plugins.legend = { display: spec.series.length > 1, labels: { color: INK } };
    options.plugins.tooltip.callbacks.label = function (item) {
      return spec.series[item.datasetIndex].tips[item.dataIndex];
    };
    options.scales = {
      x: {
        min: 0,
        max: 100,
        title: axisTitle(spec.x),
        ticks: { color: INK, callback: function (v) { return v + "%"; } },
        grid: { color: LINE },
      },
      y: {
        ticks: {
          color: INK,
          autoSkip: false,
          callback: function (value, index) { return wrap(spec.labels[index], width); },
        },
        grid: { display: false },
      },
    };
    return {
      type: "bar",
      data: {
        labels: spec.labels,
        datasets: spec.series.map(function (series, i) {
          return { label: series.name, data: series.values, intervals: series.intervals,
                   backgroundColor: SERIES_COLOURS[i % SERIES_COLOURS.length] };
        }),
      },
      options: options,
      plugins: [whiskers],
      rows: spec.labels.map(function (label) { return wrap(label, width).length; }),
      perRow: spec.series.length,
    };
  }

  function histogramChart(spec, narrow) {
    var options = base(spec, narrow);
    options.scales = {
      x: { title: axisTitle(spec.x), ticks: { color: INK, maxRotation: 0, autoSkip: true },
           grid: { display: false } },
      y: { beginAtZero: true, title: axisTitle(spec.y), ticks: { color: INK, precision: 0 },
           grid: { color: LINE } },
    };
    return {
      type: "bar",
      data: { labels: spec.labels,
              datasets: [{ label: spec.y, data: spec.values, backgroundColor: SAGE,
                           categoryPercentage: 0.95, barPercentage: 0.95 }] },
      options: options,
    };
  }

  function impactChart(spec, narrow) {
    var options = base(spec, narrow);
    options.indexAxis = "y";
    options.scales = {
      x: { title: axisTitle(spec.x), grid: { color: LINE },
           ticks: { color: INK, callback: function (v) { return (v > 0 ? "+" : "") + v; } } },
      y: { grid: { display: false },
           ticks: { color: INK, autoSkip: false,
                    callback: function (value, index) { return wrap(spec.labels[index], narrow ? 14 : 26); } } },
    };
    return {
      type: "bar",
      data: {
        labels: spec.labels,
        datasets: [{
          label: spec.x,
          data: spec.values,
          backgroundColor: spec.values.map(function (v) { return v >= 0 ? SAGE : RUST; }),
        }],
      },
      options: options,
      rows: spec.labels.map(function (label) { return wrap(label, narrow ? 14 : 26).length; }),
      perRow: 1,
    };
  }

  // A line for each series over the labels (the metagame lab's shares of the players,
  // generation by generation): the site's colours, then again dashed, and a legend.
  var LINE_COLOURS = [SAGE, RUST, SKY, INK, "#a07a1e", "#6b3a5e", "#2e7d74", "#7a6a58"];

  function linesChart(spec, narrow) {
    var options = base(spec, narrow);
    options.interaction = { mode: "index", intersect: false };
    options.plugins.legend = {
      display: true,
      position: "bottom",
      labels: { color: INK, boxWidth: narrow ? 18 : 28, boxHeight: 2 },
    };
    options.plugins.tooltip.callbacks = {
      title: function (items) {
        return items.length ? spec.x + " " + spec.labels[items[0].dataIndex] : "";
      },
      label: function (item) {
        return spec.series[item.datasetIndex].name + ": " + item.formattedValue + "%";
      },
    };
    // The labels are numbers (generations): a linear axis ticks them evenly, 0, 50, 100...
    var xs = spec.labels.map(Number);
    options.scales = {
      x: { type: "linear", min: xs[0], max: xs[xs.length - 1], title: axisTitle(spec.x),
           grid: { display: false },
           ticks: { color: INK, maxRotation: 0, maxTicksLimit: narrow ? 5 : 11, precision: 0 } },
      y: { min: 0, max: 100, title: axisTitle(spec.y), grid: { color: LINE },
           ticks: { color: INK, callback: function (v) { return v + "%"; } } },
    };
    return {
      type: "line",
      data: {
        datasets: spec.series.map(function (series, i) {
          var colour = LINE_COLOURS[i % LINE_COLOURS.length];
          var points = series.values.map(function (v, k) { return { x: xs[k], y: v }; });
          return { label: series.name, data: points, borderColor: colour,
                   backgroundColor: colour, borderWidth: 2, pointRadius: 0, pointHitRadius: 6,
                   borderDash: i >= LINE_COLOURS.length ? [6, 4] : [] };
        }),
      },
      options: options,
      // The legend takes a line a deck on a phone, a line for about four otherwise.
      boxHeight: spec.height + 22 * Math.ceil(spec.series.length / (narrow ? 1 : 4)),
    };
  }

  var KINDS = { rates: ratesChart, histogram: histogramChart, impact: impactChart, lines: linesChart };

  function draw(canvas) {
    if (canvas.dataset.drawn || typeof window.Chart === "undefined") return;
    var source = document.getElementById(canvas.dataset.chart);
    if (!source) return;
    var spec = JSON.parse(source.textContent);
    var make = KINDS[spec.kind];
    if (!make || !spec.labels.length) return;
    canvas.dataset.drawn = "1";
    var box = canvas.parentElement;
    var narrow = box.clientWidth < 560;
    var config = make(spec, narrow);
    var rows = config.rows;
    var perRow = config.perRow;
    var boxHeight = config.boxHeight;
    delete config.rows;
    delete config.perRow;
    delete config.boxHeight;
    if (boxHeight) box.style.height = boxHeight + "px";
    if (rows) {
      // Room for every bar and every line of its wrapped name: nothing overlaps or is cut.
      var height = 100;
      rows.forEach(function (lines) {
        height += Math.max(24 * perRow + 8, 15 * lines + 10);
      });
      box.style.height = height + "px";
    }
    new window.Chart(canvas, config);
  }

  function drawAll(root) {
    (root || document).querySelectorAll("canvas[data-chart]").forEach(function (canvas) {
      var closed = canvas.closest("details:not([open])");
      if (!closed) {
        draw(canvas);
      } else if (!closed.dataset.waiting) {
        closed.dataset.waiting = "1";
        closed.addEventListener("toggle", function () {
          if (closed.open) drawAll(closed);
        });
      }
    });
  }

  document.addEventListener("DOMContentLoaded", function () { drawAll(document); });
  document.body.addEventListener("htmx:afterSettle", function (event) { drawAll(event.target); });
})();
