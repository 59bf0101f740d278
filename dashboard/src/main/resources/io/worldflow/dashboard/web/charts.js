'use strict';
// The runs page's charts of the last hour, a sample a minute (GET /api/metrics/history): runs ended per minute as bars,
// queue lag as a line. Drawn as plain SVG; every value reaches the page as text or an attribute.
(() => {
  const { api, el } = WF;
  const SVG = 'http://www.w3.org/2000/svg';
  const W = 520, H = 120, LEFT = 44, RIGHT = 8, TOP = 10, BOTTOM = 20;

  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // a value as the axis and the tooltips show it: whole runs, or a duration from seconds
  function format(kind, v) {
    if (kind === 'throughput') return String(Math.round(v));
    if (v < 1) return Math.round(v * 1000) + ' ms';
    if (v < 120) return (v < 10 ? v.toFixed(1) : Math.round(v)) + ' s';
    if (v < 7200) return (v / 60).toFixed(1) + ' min';
    return (v / 3600).toFixed(1) + ' h';
  }

  function draw(figure, kind, series, from, to) {
    const plot = figure.querySelector('.plot');
    const caption = figure.querySelector('[data-field="measure"]');
    // what is measured, in words that say where it comes from: this process's worker, or the world
    caption.textContent = series.measure || '';
    if (!series.samples.length) {
      plot.replaceChildren(el('p', { class: 'muted empty' }, 'No data yet: the dashboard samples every few seconds,'
        + ' a point a minute.'));
      return;
    }
    const start = Date.parse(from), end = Date.parse(to);
    // a flat hour still gets a scale: one run, or one second
    const max = Math.max(...series.samples.map(s => s.value), 1);
    const x = t => LEFT + (t - start) / (end - start) * (W - LEFT - RIGHT);
    const y = v => TOP + (1 - v / max) * (H - TOP - BOTTOM);
    const minute = 60000;
    const root = svg('svg', { viewBox: '0 0 ' + W + ' ' + H, width: W, height: H, role: 'img',
      'aria-label': figure.querySelector('strong').textContent + ' over the last hour' });
    root.append(svg('line', { class: 'axis', x1: LEFT, x2: W - RIGHT, y1: y(0), y2: y(0) }));
    root.append(svg('text', { class: 'tick', x: LEFT - 4, y: TOP + 8, 'text-anchor': 'end' }, format(kind, max)));
    root.append(svg('text', { class: 'tick', x: LEFT - 4, y: y(0), 'text-anchor': 'end' }, '0'));
    for (const [label, t] of [['−60 min', start], ['−30 min', start + 30 * minute], ['now', end]]) {
      root.append(svg('text', { class: 'tick', x: Math.min(Math.max(x(t), LEFT), W - RIGHT),
        y: H - 4, 'text-anchor': t === start ? 'start' : t === end ? 'end' : 'middle' }, label));
    }
    const tip = s => new Date(s.at).toLocaleTimeString() + ': ' + format(kind, s.value)
      + (kind === 'throughput' ? ' ended' : ' lag');
    if (kind === 'throughput') {
      const width = Math.max(1, x(start + minute) - x(start) - 1);
      for (const s of series.samples) {
        const t = Date.parse(s.at);
        const bar = svg('rect', { class: 'bar', x: x(t), y: y(s.value), width, height: Math.max(0, y(0) - y(s.value)) });
        bar.append(svg('title', {}, tip(s)));
        root.append(bar);
      }
    } else {
      const points = series.samples.map(s => x(Date.parse(s.at) + minute / 2) + ',' + y(s.value));
      root.append(svg('polyline', { class: 'line', points: points.join(' ') }));
      for (const s of series.samples) {
        const dot = svg('circle', { class: 'dot', cx: x(Date.parse(s.at) + minute / 2), cy: y(s.value), r: 2.5 });
        dot.append(svg('title', {}, tip(s)));
        root.append(dot);
      }
    }
    plot.replaceChildren(root);
  }

  async function load() {
    try {
      const h = await api('GET', '/api/metrics/history');
      draw(document.getElementById('chart-throughput'), 'throughput', h.throughput, h.from, h.to);
      draw(document.getElementById('chart-lag'), 'lag', h.lag, h.from, h.to);
    } catch (e) {
      for (const id of ['chart-throughput', 'chart-lag']) {
        document.querySelector('#' + id + ' .plot').replaceChildren(el('p', { class: 'error' }, e.message));
      }
    }
  }

  load();
  setInterval(load, 30000);
})();
