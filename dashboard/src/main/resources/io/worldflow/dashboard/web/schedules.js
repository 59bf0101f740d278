'use strict';
(() => {
  const { api, el, time, statusBadge, heldBadge, showError, live } = WF;
  const tbody = document.querySelector('#schedules tbody');
  const more = document.getElementById('more');
  const error = document.getElementById('error');
  const result = document.getElementById('action-result');
  // the run page links here with ?id=<schedule>: that row is marked
  const wanted = new URLSearchParams(location.search).get('id');
  let after = null;
  let shown = '';

  const base = id => '/api/schedules/' + encodeURIComponent(id);

  function when(s) {
    // UTC's zone id is 'Z', which reads better as its name
    return (s.cron ? 'cron ' + s.cron : 'every ' + s.every) + ' (' + (s.zone === 'Z' ? 'UTC' : s.zone) + ')';
  }

  // what else decides when runs start, for the tooltip of the "when" cell
  function policies(s) {
    return ['overlap ' + s.overlap, 'catch-up ' + s.catchUp + ' within ' + s.catchUpWindow,
      s.jitter !== 'PT0S' ? 'jitter ' + s.jitter : null,
      s.startAt ? 'from ' + time(s.startAt) : null, s.endAt ? 'until ' + time(s.endAt) : null,
      s.queue ? 'queue ' + s.queue : null].filter(Boolean).join('\n');
  }

  function button(s, action, label, disabled) {
    const b = el('button', { type: 'button', 'data-action': action, 'data-needs': 'admin' }, label);
    b.disabled = disabled;
    b.addEventListener('click', () => act(s.id, action));
    return b;
  }

  function row(s) {
    const last = s.lastRunId
      ? el('a', { href: '/run.html?id=' + encodeURIComponent(s.lastRunId), 'data-rel': 'last-run' }, s.lastRunId)
      : el('span', { class: 'muted' }, 'none yet');
    const state = s.paused ? el('span', { class: 'status PAUSED' }, 'PAUSED') : el('span', { class: 'status ACTIVE' }, 'ACTIVE');
    return el('tr', { 'data-schedule-id': s.id, class: s.id === wanted ? 'selected' : null },
      el('td', {}, s.id), el('td', {}, s.workflow),
      el('td', { class: 'detail', title: policies(s) }, when(s)),
      el('td', { title: (s.upcoming || []).map(time).join('\n') || null, 'data-next': s.nextFireAt || '' },
        s.nextFireAt ? time(s.nextFireAt) : '—'),
      el('td', { 'data-last-run-status': s.lastRunStatus || '' }, last,
        s.lastRunStatus ? ' ' : null, s.lastRunStatus ? statusBadge(s.lastRunStatus) : null,
        s.lastRunHeld ? ' ' : null, s.lastRunHeld ? heldBadge(s.lastRunHeld) : null,
        s.lastRunHeld ? el('div', { class: 'muted', 'data-held': '' }, 'held: ' + s.lastRunHeld) : null,
        s.buffered ? el('div', { class: 'muted' }, 'waiting: ' + time(s.buffered)) : null),
      el('td', { title: s.changedBy ? 'last changed by ' + s.changedBy + ' at ' + time(s.updatedAt) : null,
        'data-changed-by': s.changedBy || '' }, state),
      el('td', { class: 'buttons' }, button(s, 'pause', 'Pause', s.paused), ' ',
        button(s, 'resume', 'Resume', !s.paused), ' ', button(s, 'trigger', 'Trigger', false)));
  }

  async function load(append) {
    const q = new URLSearchParams();
    if (append && after) q.set('after', after);
    const page = await api('GET', '/api/schedules?' + q);
    if (!append) {
      // a live update that changed nothing leaves the table (and the button the user points at) as it is
      const key = JSON.stringify(page);
      if (key === shown && tbody.children.length) return;
      shown = key;
      tbody.replaceChildren();
    }
    page.schedules.forEach(s => tbody.append(row(s)));
    after = page.nextAfter;
    more.hidden = !after;
    document.getElementById('empty').hidden = tbody.children.length > 0;
  }

  async function reload() {
    try {
      await load(false);
      showError(error, null);
    } catch (e) {
      showError(error, e);
    }
  }

  async function act(id, action) {
    try {
      const s = await api('POST', base(id) + '/' + action, {});
      if (action === 'trigger') {
        result.replaceChildren(...(s.startedRunId
          ? ['Schedule ' + id + ' started ', el('a', { href: '/run.html?id=' + encodeURIComponent(s.startedRunId) }, s.startedRunId), '.']
          : ['Schedule ' + id + ' started no run: its previous run goes on and its overlap policy is ' + s.overlap + '.']));
      } else {
        result.textContent = 'Schedule ' + id + (action === 'pause' ? ' paused.' : ' resumed.');
      }
      shown = '';
      await load(false);
    } catch (e) {
      result.textContent = e.message;
    }
  }

  more.addEventListener('click', () => load(true).catch(e => showError(error, e)));

  // a schedule that fires starts a run: the runs' live updates tell when to look again
  let pending = null;
  live('/api/live/runs', {
    runs: () => {
      clearTimeout(pending);
      pending = setTimeout(reload, 150);
    }
  });
  reload();
})();
