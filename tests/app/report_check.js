// Measures every chart of a page made by `spmma report` in the browser that renders it, and
// writes what it found into the page as JSON, in a pre element with id spmma-chart-check; the test reads it
// back with chromium --dump-dom. A chart passes when its plot area is laid out, it draws as many
// markers as it says (data-points), every marker has an area and lies inside the plot area on
// screen, each axis has at least two labelled ticks and a label, and the legend has one entry
// with text per series (data-series).
(function () {
  function box(el) { var r = el.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; }
  var result = {ok: true, charts: [], problems: []};
  var meta = document.querySelector('meta[name="spmma-charts"]');
  var charts = document.querySelectorAll('svg.chart');
  if (!meta || parseInt(meta.content, 10) !== charts.length)
    result.problems.push('the page says ' + (meta ? meta.content : 'nothing') + ' charts, ' + charts.length + ' found');
  if (charts.length === 0) result.problems.push('no charts');
  charts.forEach(function (svg) {
    var c = {id: svg.id, points: 0, problems: []};
    var area = svg.querySelector('rect.plot-area');
    var a = area ? box(area) : null;
    if (!a || a.w < 100 || a.h < 100) c.problems.push('no plot area laid out');
    var points = svg.querySelectorAll('.point');
    c.points = points.length;
    var expected = parseInt(svg.getAttribute('data-points'), 10);
    if (points.length === 0) c.problems.push('no markers');
    if (points.length !== expected) c.problems.push(points.length + ' markers, ' + expected + ' expected');
    var empty = 0, outside = 0;
    points.forEach(function (p) {
      var g = p.getBBox();
      if (!(g.width > 0 && g.height > 0) || getComputedStyle(p).visibility === 'hidden' || getComputedStyle(p).display === 'none') { empty++; return; }
      var b = box(p), cx = b.x + b.w / 2, cy = b.y + b.h / 2;
      if (!a || cx < a.x - 1 || cx > a.x + a.w + 1 || cy < a.y - 1 || cy > a.y + a.h + 1) outside++;
    });
    if (empty) c.problems.push(empty + ' markers without area');
    if (outside) c.problems.push(outside + ' markers outside the plot area');
    ['x-axis', 'y-axis'].forEach(function (name) {
      var labelled = 0;
      svg.querySelectorAll('.' + name + ' .tick text').forEach(function (t) {
        if (t.textContent.trim() !== '' && t.getBBox().width > 0) labelled++;
      });
      if (labelled < 2) c.problems.push(name + ': ' + labelled + ' labelled ticks');
      var label = svg.querySelector('.' + name + ' .axis-label');
      if (!label || label.textContent.trim() === '' || !(label.getBBox().width > 0)) c.problems.push(name + ': no label');
    });
    var entries = svg.querySelectorAll('.legend .legend-entry');
    var series = parseInt(svg.getAttribute('data-series'), 10);
    if (entries.length !== series) c.problems.push(entries.length + ' legend entries, ' + series + ' series');
    entries.forEach(function (e) {
      var t = e.querySelector('text');
      if (!t || !(t.getComputedTextLength() > 0)) c.problems.push('a legend entry without text');
    });
    if (c.problems.length) result.ok = false;
    result.charts.push(c);
  });
  if (result.problems.length) result.ok = false;
  var pre = document.createElement('pre');
  pre.id = 'spmma-chart-check';
  pre.textContent = JSON.stringify(result);
  document.body.appendChild(pre);
})();
