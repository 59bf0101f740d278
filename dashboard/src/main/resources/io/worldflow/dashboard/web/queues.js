'use strict';
(() => {
  const { api, el, time, showError, live } = WF;
  const tbody = document.querySelector('#queues tbody');
  const error = document.getElementById('error');
  const result = document.getElementById('action-result');
  const form = document.getElementById('define');
  const field = name => form.elements.namedItem(name);
  // the run page links here with ?name=<queue>: that row is marked
  const wanted = new URLSearchParams(location.search).get('name');
  let shown = '';

  const rate = r => r ? r.starts + ' per ' + r.per : 'none';
  // the world counts waiting runs only so far: past that the number is a floor
  const waiting = q => q.waitingCapped ? q.waiting + '+' : String(q.waiting);

  function cell(field, text, title) {
    return el('td', { 'data-field': field, title: title || null }, text);
  }

  function row(q) {
    const edit = el('button', { type: 'button', 'data-action': 'edit', 'data-needs': 'admin' }, 'Edit');
    edit.addEventListener('click', () => fill(q));
    return el('tr', { 'data-queue': q.name, class: q.name === wanted ? 'selected' : null },
      cell('name', q.name),
      cell('concurrency', q.concurrency === 0 ? 'no limit' : String(q.concurrency)),
      cell('workerConcurrency', q.workerConcurrency === 0 ? 'no limit' : String(q.workerConcurrency)),
      cell('keyConcurrency', String(q.keyConcurrency)),
      cell('rateLimit', rate(q.rateLimit), q.rateLimit ? 'one start every ' + q.rateLimit.interval : null),
      cell('running', String(q.running)),
      cell('waiting', waiting(q), q.waitingCapped ? 'counted up to ' + q.waiting : null),
      cell('throttled', String(q.throttled)),
      cell('changedBy', q.changedBy || '—', q.changedAt ? 'at ' + time(q.changedAt) : null),
      cell('updatedAt', time(q.updatedAt)),
      el('td', { class: 'buttons' }, edit));
  }

  // the form, filled with a queue's limits as they are, to change some of them
  function fill(q) {
    field('name').value = q.name;
    field('concurrency').value = q.concurrency;
    field('workerConcurrency').value = q.workerConcurrency;
    field('keyConcurrency').value = q.keyConcurrency;
    field('starts').value = q.rateLimit ? q.rateLimit.starts : '';
    field('per').value = q.rateLimit ? q.rateLimit.per : '';
    document.getElementById('limits').open = true;
  }

  async function load() {
    const page = await api('GET', '/api/queues');
    // a look that changed nothing leaves the table (and the button the user points at) as it is
    const key = JSON.stringify(page);
    if (key === shown && tbody.children.length) return;
    shown = key;
    tbody.replaceChildren(...page.queues.map(row));
    document.getElementById('empty').hidden = page.queues.length > 0;
  }

  async function reload() {
    try {
      await load();
      showError(error, null);
    } catch (e) {
      showError(error, e);
    }
  }

  form.addEventListener('submit', async e => {
    e.preventDefault();
    const name = field('name').value.trim();
    const starts = field('starts').value.trim();
    const body = {
      concurrency: Number(field('concurrency').value),
      workerConcurrency: Number(field('workerConcurrency').value),
      keyConcurrency: Number(field('keyConcurrency').value),
      rateLimit: starts ? { starts: Number(starts), per: field('per').value.trim() } : null
    };
    try {
      await api('PUT', '/api/queues/' + encodeURIComponent(name), body);
      result.textContent = 'Queue ' + name + ': limits saved.';
      shown = '';
      await load();
    } catch (err) {
      result.textContent = err.message;
    }
  });

  // runs that start and end change the counts: the runs' live updates tell when to look again; a waiting run whose
  // start time comes changes them with no run changing, so the page also looks every few seconds
  let pending = null;
  live('/api/live/runs', {
    runs: () => {
      clearTimeout(pending);
      pending = setTimeout(reload, 150);
    }
  });
  setInterval(reload, 5000);
  reload();
})();
