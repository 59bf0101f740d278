'use strict';
// The timeline picture: one row per primitive (steps with each attempt, timers, signal waits, fan-outs, child runs) as bars
// on a time axis from the run's start, and the run's own events as marks on the first row.
const WFTimeline = (() => {
  const SVG = 'http://www.w3.org/2000/svg';
  const LABEL = 190, ROW = 22, TOP = 26, PAD = 12;

  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function duration(ms) {
    if (ms < 1000) return Math.round(ms) + ' ms';
    if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 1 : 0) + ' s';
    if (ms < 3600000) return (ms / 60000).toFixed(1) + ' min';
    if (ms < 86400000) return (ms / 3600000).toFixed(1) + ' h';
    return (ms / 86400000).toFixed(1) + ' d';
  }

  /** Rows of bars from the events; a bar still open when a finished run ended is cut there, not in progress. */
  function model(events, end, finished) {
    const rows = new Map();
    const runMarks = [];
    const row = (id, kind, label) => {
      if (!rows.has(id)) rows.set(id, { id, kind, label, bars: [], open: null });
      return rows.get(id);
    };
    const close = (r, at, cls, title) => {
      if (r.open) {
        r.bars.push({ from: r.open.from, to: at, cls: r.open.cls + ' ' + cls, title: r.open.title + title });
        r.open = null;
      }
    };
    for (const e of events) {
      const at = Date.parse(e.at);
      switch (e.type) {
        case 'StepScheduled': row(e.stepId, 'step', e.stepId); break;
        case 'StepStarted': {
          const r = row(e.stepId, 'step', e.stepId);
          close(r, at, '', '');
          r.open = { from: at, cls: 'bar step', title: e.stepId + ' attempt ' + e.attempt };
          break;
        }
        case 'StepRetrying': close(row(e.stepId, 'step', e.stepId), at, 'retry', ': failed, ' + (e.error.message || e.error.type) + '; retrying'); break;
        case 'StepCompleted': close(row(e.stepId, 'step', e.stepId), at, 'completed', ': completed'); break;
        case 'StepFailed': close(row(e.stepId, 'step', e.stepId), at, 'failed', ': failed, ' + (e.error.message || e.error.type)); break;
        case 'TimerScheduled': row(e.timerId, 'timer', 'sleep ' + e.name).open = { from: at, cls: 'bar timer', title: 'timer ' + e.name + ' until ' + e.fireAt }; break;
        case 'TimerFired': close(row(e.timerId, 'timer', e.timerId), at, '', ', fired'); break;
        case 'SignalRequested': row(e.waitId, 'signal', 'wait ' + e.name).open = { from: at, cls: 'bar signal', title: 'waiting for signal ' + e.name }; break;
        case 'SignalReceived': close(row(e.waitId, 'signal', e.waitId), at, '', ', received'); break;
        case 'SignalTimedOut': close(row(e.waitId, 'signal', e.waitId), at, '', ', timed out'); break;
        case 'ParallelStarted': row(e.parallelId, 'parallel', e.parallelId + ' ×' + e.branches).open = { from: at, cls: 'bar parallel', title: 'fan-out ' + e.parallelId }; break;
        case 'ParallelCompleted': close(row(e.parallelId, 'parallel', e.parallelId), at, '', ', all branches ended'); break;
        case 'MarkerRecorded': break;
        case 'ChildWorkflowStarted': row(e.childId, 'child', 'child ' + e.workflow).open = { from: at, cls: 'bar child', title: 'child run ' + e.childRunId }; break;
        case 'ChildWorkflowCompleted': close(row(e.childId, 'child', e.childId), at, 'completed', ', completed'); break;
        case 'ChildWorkflowFailed': close(row(e.childId, 'child', e.childId), at, 'failed', ', failed: ' + (e.error.message || e.error.type)); break;
        case 'ChildWorkflowCanceled': close(row(e.childId, 'child', e.childId), at, 'failed', ', canceled'); break;
        case 'ScopeStarted': row(e.scopeId, 'scope', (e.detached ? 'cleanup ' : 'async ') + e.name).open = { from: at, cls: 'bar scope', title: (e.detached ? 'detached scope ' : 'async scope ') + e.scopeId }; break;
        case 'RaceStarted': row(e.raceId, 'race', 'race ' + e.name).open = { from: at, cls: 'bar race', title: 'race of ' + e.contenders.join(', ') }; break;
        case 'RaceWon': close(row(e.raceId, 'race', e.raceId), at, 'completed', ', won by ' + e.winnerId); break;
        case 'PrimitiveCanceled': {
          const r = rows.get(e.primitiveId);
          if (r) close(r, at, 'canceled', ', canceled: ' + (e.reason || ''));
          break;
        }
        default: runMarks.push({ at, type: e.type });
      }
    }
    for (const r of rows.values()) {
      if (r.open) {
        r.bars.push(finished
          ? { from: r.open.from, to: end, cls: r.open.cls + ' cut', title: r.open.title + ' (unfinished: the run ended first)' }
          : { from: r.open.from, to: end, cls: r.open.cls + ' open', title: r.open.title + ' (in progress)' });
      }
    }
    return { rows: [...rows.values()], runMarks };
  }

  function draw(container, events, finished) {
    container.replaceChildren();
    if (!events.length) return;
    const start = Date.parse(events[0].at);
    const last = Date.parse(events[events.length - 1].at);
    const end = Math.max(last, finished ? last : Date.now(), start + 1);
    const { rows, runMarks } = model(events, end, finished);
    const width = Math.max(640, container.clientWidth || 900);
    const plot = width - LABEL - PAD;
    const x = t => LABEL + ((t - start) / (end - start)) * plot;
    const height = TOP + (rows.length + 1) * ROW + 8;
    const root = svg('svg', { width, height, role: 'img', 'aria-label': 'run timeline' });

    for (let i = 0; i <= 4; i++) {
      const t = start + (end - start) * i / 4;
      root.append(svg('line', { class: 'axis', x1: x(t), x2: x(t), y1: TOP - 6, y2: height - 4 }));
      root.append(svg('text', { class: 'tick', x: Math.min(x(t) + 2, width - 60), y: 14 }, '+' + duration(t - start)));
    }

    const runRow = svg('g', { class: 'row', 'data-kind': 'run' });
    runRow.append(svg('text', { x: 4, y: TOP + 14 }, 'run'));
    for (const m of runMarks) {
      const mark = svg('rect', { class: 'mark' + (/Completed|Failed|Canceled/.test(m.type) ? ' end' : ''),
        x: x(m.at) - 2, y: TOP + 3, width: 4, height: ROW - 8 });
      mark.append(svg('title', {}, m.type + ' at ' + new Date(m.at).toLocaleString()));
      runRow.append(mark);
    }
    root.append(runRow);

    rows.forEach((r, i) => {
      const y = TOP + (i + 1) * ROW;
      const g = svg('g', { class: 'row', 'data-kind': r.kind, 'data-id': r.id });
      const label = r.label.length > 28 ? r.label.slice(0, 27) + '…' : r.label;
      g.append(svg('text', { x: 4, y: y + 14 }, label));
      for (const b of r.bars) {
        const rect = svg('rect', { class: b.cls, x: x(b.from), y: y + 4, height: ROW - 8,
          width: Math.max(3, x(b.to) - x(b.from)), rx: 2 });
        rect.append(svg('title', {}, b.title + ' — ' + duration(b.to - b.from)));
        g.append(rect);
      }
      root.append(g);
    });
    container.append(root);
  }

  return { draw, model };
})();
