// Measures every chart of a page made by `spmma report` in the browser that renders it, and
// writes what it found into the page as JSON, in a pre element with id spmma-chart-check; the test reads it
// back with chromium --dump-dom. A chart passes when its plot area is laid out, it draws as many
// markers as it says (data-points), every marker has an area and lies inside the plot area on
// screen, each axis has at least two labelled ticks and a label, the legend has one entry
// with text per series (data-series), and no legend text reaches past the chart's edge (cut).
// It also writes the text of the first screen (what lies wholly above the window's bottom edge
// before any scrolling) as first_screen.
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
    var frame = box(svg);
    entries.forEach(function (e) {
      var t = e.querySelector('text');
      if (!t || !(t.getComputedTextLength() > 0)) { c.problems.push('a legend entry without text'); return; }
      var b = box(t);
      if (b.x + b.w > frame.x + frame.w + 0.5 || b.y + b.h > frame.y + frame.h + 0.5 || b.x < frame.x - 0.5)
        c.problems.push('legend cut: "' + t.textContent + '"');
    });
    var whiskers = svg.querySelectorAll('.whisker'), stray = 0;
    whiskers.forEach(function (w) {
      var b = box(w);
      if (!a || b.x < a.x - 4 || b.x + b.w > a.x + a.w + 4 || b.y < a.y - 1 || b.y + b.h > a.y + a.h + 1) stray++;
    });
    c.whiskers = whiskers.length;
    if (stray) c.problems.push(stray + ' whiskers outside the plot area');
    var lines = svg.querySelectorAll('.group-line').length;
    c.lines = lines;
    if (lines !== parseInt(svg.getAttribute('data-lines') || '0', 10)) c.problems.push(lines + ' lines, ' + svg.getAttribute('data-lines') + ' expected');
    if (c.problems.length) result.ok = false;
    result.charts.push(c);
  });
  if (result.problems.length) result.ok = false;
  var seen = [];
  document.querySelectorAll('h1, h2, p, li, tr, summary').forEach(function (el) {
    var r = el.getBoundingClientRect();
    if (r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight) seen.push(el.innerText.replace(/\s+/g, ' ').trim());
  });
  result.first_screen = seen.join('\n');
  result.window = {width: window.innerWidth, height: window.innerHeight};
  var pre = document.createElement('pre');
  pre.id = 'spmma-chart-check';
  pre.textContent = JSON.stringify(result);
  document.body.appendChild(pre);
})();
