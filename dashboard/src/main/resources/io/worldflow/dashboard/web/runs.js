'use strict';
(() => {
  const { api, el, time, statusBadge, heldBadge, showError, live, attrFilters, attrText } = WF;
  const STATUSES = ['PENDING', 'RUNNING', 'SLEEPING', 'WAITING', 'COMPLETED', 'FAILED', 'CANCELED'];
  const form = document.getElementById('filters');
  const tbody = document.querySelector('#runs tbody');
  const more = document.getElementById('more');
  const error = document.getElementById('error');
  let cursor = null;
  let shown = '';
  let shownCounts = '';

  function filters() {
    const q = new URLSearchParams();
    const data = new FormData(form);
    for (const name of ['status', 'workflow', 'idPrefix', 'queue']) {
      const v = (data.get(name) || '').trim();
      if (v) q.set(name, v);
    }
    attrFilters(data.get('attributes') || '').forEach(a => q.append('attr', a));
    // held is no status (a held run keeps its own), but the status filter offers it
    if (q.get('status') === 'HELD') {
      q.delete('status');
      q.set('held', 'true');
    }
    for (const name of ['createdAfter', 'createdBefore']) {
      const v = data.get(name);
      if (v) q.set(name, new Date(v).toISOString());
    }
    return q;
  }

  function row(r) {
    const link = el('a', { href: '/run.html?id=' + encodeURIComponent(r.runId) }, r.runId);
    return el('tr', { 'data-run-id': r.runId },
      el('td', {}, link), el('td', {}, r.workflow),
      el('td', {}, statusBadge(r.status), r.held ? ' ' : null, r.held ? heldBadge(r.heldReason) : null),
      el('td', {}, time(r.createdAt)), el('td', {}, time(r.updatedAt)),
      el('td', { class: 'detail' }, (r.held ? 'held since ' + time(r.heldSince) + ': ' + r.heldReason + ' ' : '')
        + (r.error || '')));
  }

  async function loadCounts() {
    const q = filters();
    q.delete('status');
    q.delete('held');
    const counts = await api('GET', '/api/counts?' + q);
    const selected = new FormData(form).get('status');
    const key = JSON.stringify([counts, selected]);
    if (key === shownCounts) return;
    shownCounts = key;
    const box = document.getElementById('counts');
    box.replaceChildren(...[...STATUSES, 'HELD'].map(s => {
      const b = el('button', { type: 'button', 'data-status': s, class: s === selected ? 'active' : null },
        s === 'HELD' ? heldBadge('held runs, whatever their status') : statusBadge(s),
        el('span', { class: 'n' }, (s === 'HELD' ? counts.held : counts[s]) || 0));
      b.addEventListener('click', () => {
        form.elements.status.value = s === selected ? '' : s;
        reload();
      });
      return b;
    }));
  }

  async function loadRuns(append) {
    const q = filters();
    if (append && cursor) q.set('cursor', cursor);
    const page = await api('GET', '/api/runs?' + q);
    if (!append) {
      // a live update that changed nothing leaves the table (and what the user points at) as it is
      const key = JSON.stringify([q.toString(), page]);
      if (key === shown && tbody.children.length) return;
      shown = key;
      tbody.replaceChildren();
    }
    page.runs.forEach(r => tbody.append(row(r)));
    cursor = page.nextCursor;
    more.hidden = !cursor;
    document.getElementById('empty').hidden = tbody.children.length > 0;
  }

  async function reload() {
    try {
      await Promise.all([loadCounts(), loadRuns(false)]);
      showError(error, null);
    } catch (e) {
      showError(error, e);
    }
  }

  // a link may open the list filtered (a run's page links each of its search attributes to the runs that share it)
  const given = new URLSearchParams(location.search);
  for (const name of ['workflow', 'idPrefix', 'queue']) {
    if (given.get(name)) form.elements[name].value = given.get(name);
  }
  form.elements.attributes.value = attrText(given.getAll('attr'));

  form.addEventListener('submit', e => { e.preventDefault(); reload(); });
  form.addEventListener('reset', () => setTimeout(reload));
  more.addEventListener('click', () => loadRuns(true).catch(e => showError(error, e)));

  document.getElementById('start').addEventListener('submit', async e => {
    e.preventDefault();
    const data = new FormData(e.target);
    const result = document.getElementById('start-result');
    try {
      const input = JSON.parse(data.get('input') || 'null');
      const body = { workflow: data.get('workflow').trim(), input };
      if (data.get('id').trim()) body.id = data.get('id').trim();
      const run = await api('POST', '/api/runs', body);
      result.replaceChildren('started ', el('a', { href: '/run.html?id=' + encodeURIComponent(run.runId) }, run.runId));
      reload();
    } catch (err) {
      result.textContent = err instanceof SyntaxError ? 'the input is not valid JSON' : err.message;
    }
  });

  api('GET', '/api/workflows').then(w => {
    document.getElementById('workflows').replaceChildren(...w.registered.map(n => el('option', { value: n })));
  }).catch(() => {});

  let pending = null;
  live('/api/live/runs', {
    runs: () => {
      clearTimeout(pending);
      pending = setTimeout(reload, 150);
    }
  });
  reload();
})();
