'use strict';
(() => {
  const { api, el, time, statusBadge, showError, live, attrFilter, attrValue } = WF;
  const runId = new URLSearchParams(location.search).get('id') || '';
  const base = '/api/runs/' + encodeURIComponent(runId);
  const error = document.getElementById('error');
  const result = document.getElementById('action-result');
  let events = [];
  let run = null;
  let signalTypes = {}; // name -> the type the run's workflow declares for it, as this server registers it

  const json = v => JSON.stringify(v, null, 2);
  const ENDED = ['COMPLETED', 'FAILED', 'CANCELED'];
  // a link to another run's page: a parent or a child of this one
  const runLink = (id, rel) => el('a', { href: 'run.html?id=' + encodeURIComponent(id), 'data-rel': rel }, id);
  // a link to the schedule that started this run, on the schedules page
  const scheduleLink = id => el('a', { href: 'schedules.html?id=' + encodeURIComponent(id), 'data-rel': 'schedule' }, id);
  // a link to the queue a pending run waits in, on the queues page
  const queueLink = name => el('a', { href: 'queues.html?name=' + encodeURIComponent(name), 'data-rel': 'queue' }, name);

  // a link to the runs whose search attribute name has this value: the run list, filtered by it
  const attributeLink = (name, type, value) => el('a', { href: '/?attr=' + encodeURIComponent(attrFilter(name, type, value)),
    'data-rel': 'attribute', 'data-name': name, title: type }, name + ' = ' + attrValue(type, value));

  // a change of search attributes as the API gives it (name to value, null for one removed; the type of each beside)
  function attributeChanges(values, types) {
    if (Array.isArray(values)) return values.join(', '); // entries the server could not read, as stored
    return Object.entries(values || {}).map(([name, v]) =>
      v === null ? 'removed ' + name : name + ' = ' + attrValue((types || {})[name], v)).join(', ');
  }

  function detail(e) {
    switch (e.type) {
      case 'WorkflowStarted': return el('span', {}, e.workflow + ' ' + JSON.stringify(e.input),
        ...(e.parent ? [', child of ', runLink(e.parent, 'parent')] : []),
        ...(e.continuedFrom ? [', continues ', runLink(e.continuedFrom, 'predecessor')] : []),
        ...(e.schedule ? [', by schedule ', scheduleLink(e.schedule), ' for ' + time(e.scheduledFor)] : []),
        ...(e.searchAttributes ? [', search attributes ' + attributeChanges(e.searchAttributes, e.searchAttributeTypes)] : []));
      case 'SearchAttributesUpdated': return attributeChanges(e.attributes, e.attributeTypes);
      case 'WorkflowContinuedAsNew': return el('span', {}, 'continued as ', runLink(e.successorRunId, 'successor'), ' with ' + JSON.stringify(e.input));
      case 'WorkflowCompleted': return JSON.stringify(e.output);
      case 'WorkflowFailed': return e.error.type + ': ' + (e.error.message || '');
      case 'WorkflowCancelRequested': return (e.terminate ? 'terminated' : 'cancel') + (e.reason ? ': ' + e.reason : '');
      case 'WorkflowRetried': return (e.stepId ? 'from step ' + e.stepId : 'from the last step') + (e.reason ? ' (' + e.reason + ')' : '');
      case 'StepScheduled': return e.stepId;
      case 'StepStarted': return e.stepId + ' attempt ' + e.attempt;
      case 'StepCompleted': return e.stepId + ' → ' + JSON.stringify(e.result);
      case 'StepRetrying': return e.stepId + ' attempt ' + e.attempt + ' failed (' + (e.error.message || e.error.type) + '), retry at ' + time(e.retryAt);
      case 'StepFailed': return e.stepId + ' ' + e.error.type + ': ' + (e.error.message || '');
      case 'TimerScheduled': return e.timerId + ' fires at ' + time(e.fireAt);
      case 'TimerFired': return e.timerId;
      case 'SignalRequested': return e.name + (e.timeoutAt ? ' until ' + time(e.timeoutAt) : '');
      case 'SignalReceived': return e.name + ' ' + JSON.stringify(e.payload);
      case 'SignalTimedOut': return e.name;
      case 'ParallelStarted': return e.parallelId + ' ×' + e.branches;
      case 'ParallelCompleted': return e.parallelId;
      case 'MarkerRecorded': return e.markerId + ' = ' + JSON.stringify(e.value);
      case 'ChildWorkflowStarted': return el('span', {}, e.childId + ': ', runLink(e.childRunId, 'child'), ' (' + e.workflow + ')');
      case 'ChildWorkflowCompleted': return el('span', {}, runLink(e.childRunId, 'child'), ' → ' + JSON.stringify(e.result));
      case 'ChildWorkflowFailed': return el('span', {}, runLink(e.childRunId, 'child'), ' ' + e.error.type + ': ' + (e.error.message || ''));
      case 'ChildWorkflowCanceled': return el('span', {}, runLink(e.childRunId, 'child'), ' canceled');
      case 'ScopeStarted': return e.scopeId + (e.detached ? ' (detached: runs after a cancel)' : ' (async)');
      case 'RaceStarted': return e.raceId + ' between ' + e.contenders.join(', ');
      case 'RaceWon': return e.raceId + ' won by ' + e.winnerId;
      case 'PrimitiveCanceled': return e.primitiveId + ' canceled' + (e.reason ? ': ' + e.reason : '');
      default: return '';
    }
  }

  // the Java type of each payload of an event ("input: com.acme.Order"), which the API gives as <name>Type
  function payloadTypes(e) {
    const types = Object.keys(e).filter(k => k.endsWith('Type')).map(k => k.slice(0, -4) + ': ' + e[k]);
    return types.length ? types.join('\n') : null;
  }

  function renderEvents() {
    document.querySelector('#events tbody').replaceChildren(...events.map(e =>
      el('tr', { 'data-type': e.type }, el('td', {}, e.seq), el('td', {}, e.type), el('td', {}, time(e.at)),
        el('td', { class: 'detail', title: payloadTypes(e) }, detail(e)),
        // who caused it from outside the run: the application, a dashboard caller, a signal URL, a schedule
        el('td', { 'data-field': 'actor' }, e.actor || ''))));
    WFTimeline.draw(document.getElementById('timeline'), events, run && ENDED.includes(run.status));
    renderOutput();
  }

  // the run's result; a run that continued as new has none of its own: its successor's link stands in for it
  function renderOutput() {
    const output = document.getElementById('output');
    const last = events.length ? events[events.length - 1] : null;
    if (last && last.type === 'WorkflowContinuedAsNew') {
      output.replaceChildren('continued as ', runLink(last.successorRunId, 'successor-output'));
    } else if (!run || !ENDED.includes(run.status)) {
      // a run that has not ended has no result yet: said so, rather than an empty box that reads like a null result
      output.replaceChildren(el('span', { class: 'muted', 'data-empty': 'not-ended' }, 'none yet: the run has not ended'));
    } else if (run.status !== 'COMPLETED') {
      output.replaceChildren(el('span', { class: 'muted', 'data-empty': 'no-result' },
        'none: the run ' + (run.status === 'FAILED' ? 'failed' : 'was canceled')));
    } else {
      output.textContent = json(run.output);
    }
  }

  // the trace the run's spans belong to, to look the run up in a tracing tool; a run started untraced has none
  function renderTrace(r) {
    document.getElementById('trace').hidden = !r.traceId;
    const id = document.getElementById('trace-id');
    id.textContent = r.traceId || '';
    id.setAttribute('data-traceparent', r.traceParent || '');
  }

  function renderRun(r) {
    run = r;
    document.title = 'Worldflow — ' + r.runId;
    document.getElementById('run-id').textContent = r.runId;
    const status = document.getElementById('status');
    status.textContent = r.status;
    status.className = 'status ' + r.status;
    document.getElementById('workflow').textContent = r.workflow;
    document.getElementById('created').textContent = time(r.createdAt);
    document.getElementById('updated').textContent = time(r.updatedAt);
    document.getElementById('input').textContent = json(r.input);
    renderSchedule(r);
    renderTrace(r);
    renderAttributes(r);
    renderOutput();
    document.getElementById('failure').textContent = r.error
      ? r.error.type + ': ' + (r.error.message || '') + '\n\n' + (r.error.stackTrace || '') : '';
    // a run that has not failed (or failed and was retried) shows no failure section at all
    document.getElementById('failure-section').hidden = !r.error;
    renderHold(r);
    const finished = ENDED.includes(r.status);
    document.getElementById('cancel').disabled = finished;
    document.getElementById('terminate').disabled = finished;
    document.getElementById('retry').disabled = r.status !== 'FAILED';
    document.getElementById('send-signal').disabled = finished;
    document.getElementById('make-url').disabled = finished;
    const waits = [];
    if (r.held) {
      waits.push(el('li', { 'data-wait': 'held' }, el('strong', {}, 'held'), ' since ' + time(r.heldSince)
        + ': nothing goes on until a worker whose code matches the history starts'));
    }
    if (r.waitingInQueue) waits.push(queueWait(r.waitingInQueue, r.key));
    const types = r.signalTypes || {};
    signalTypes = types;
    r.signalWaits.forEach(w => waits.push(el('li', { 'data-wait': 'signal', 'data-name': w.name },
      'signal ', el('strong', {}, w.name), w.timeoutAt ? ' until ' + time(w.timeoutAt) : '',
      types[w.name] ? ', read as ' + types[w.name] : '')));
    (r.childWaits || []).forEach(c => waits.push(el('li', { 'data-wait': 'child' }, 'child run ',
      runLink(c.childRunId, 'child'), ' (' + c.workflow + ')')));
    r.pendingTimers.forEach(t => waits.push(el('li', { 'data-wait': 'timer' }, 'timer ', el('strong', {}, t.name),
      (Date.parse(t.fireAt) <= Date.now() ? ' was due at ' : ' fires at ') + time(t.fireAt))));
    r.pendingSignals.forEach(s => waits.push(el('li', { 'data-wait': 'pending-signal' }, 'signal ', el('strong', {}, s.name), ' delivered, not yet taken')));
    document.getElementById('revoked-urls').replaceChildren(...(r.revokedSignalUrls || []).map(u =>
      el('li', { 'data-token': u.tokenId }, 'signal URL ' + u.tokenId + ' revoked ' + time(u.revokedAt)
        + (u.actor ? ' by ' + u.actor : ''))));
    document.getElementById('waits').replaceChildren(...(waits.length ? waits : [el('li', { class: 'muted' }, 'nothing')]));
    const nameInput = document.getElementById('signal-name');
    if (!nameInput.value && r.signalWaits.length) nameInput.value = r.signalWaits[0].name;
    showSignalType();
    const steps = r.steps.map(s =>
      el('tr', { 'data-step': s.stepId }, el('td', {}, s.stepId), el('td', {}, s.state), el('td', {}, s.attempts),
        el('td', { class: 'detail' }, s.error || '')));
    // a run without steps (a parent that only starts children, a run not yet begun) says so under the headings
    document.querySelector('#steps tbody').replaceChildren(...(steps.length ? steps
      : [el('tr', { 'data-empty': 'steps' }, el('td', { class: 'muted', colspan: '4' },
        finished ? 'no steps' : 'no steps yet'))]));
  }

  // a pending run in a queue with limits starts when the queue admits it: which queue, its limits and how full it is,
  // and the ordering key it waits its turn with, if any
  function queueWait(q, key) {
    const limits = [q.concurrency ? 'at most ' + q.concurrency + ' at once' : null,
      q.rateLimit ? q.rateLimit.starts + ' starts per ' + q.rateLimit.per : null].filter(Boolean);
    return el('li', { 'data-wait': 'queue', 'data-queue': q.name }, 'admission by queue ', queueLink(q.name),
      key ? ' after the earlier runs of key ' + key : '',
      ' (' + (limits.length ? limits.join(', ') : 'runs of one key ' + q.keyConcurrency + ' at a time') + '; '
        + q.running + ' running, ' + q.waiting + (q.waitingCapped ? '+' : '') + ' waiting)');
  }

  // the run's search attributes now, each a link to the runs that share it
  function renderAttributes(r) {
    const values = r.searchAttributes || {};
    const types = r.searchAttributeTypes || {};
    document.getElementById('attributes-section').hidden = Object.keys(values).length === 0;
    document.getElementById('attributes').replaceChildren(...Object.entries(values).map(([name, v]) =>
      el('li', { 'data-attribute': name }, attributeLink(name, types[name], v))));
  }

  // a run a schedule started says which schedule, and for which of its fire times
  function renderSchedule(r) {
    document.getElementById('scheduled').hidden = !r.schedule;
    const link = document.getElementById('schedule-link');
    link.textContent = r.schedule || '';
    link.setAttribute('href', r.schedule ? 'schedules.html?id=' + encodeURIComponent(r.schedule) : 'schedules.html');
    document.getElementById('scheduled-for').textContent = r.schedule ? time(r.scheduledFor) : '';
    // the fire time as the run's id has it, in UTC
    document.getElementById('scheduled-for').setAttribute('title', r.scheduledFor || '');
  }

  // why the run is held, since when, and what lets it go on; shown before what it waits on
  function renderHold(r) {
    const h = r.held;
    document.getElementById('held-badge').hidden = !h;
    document.getElementById('held').hidden = !h;
    document.getElementById('held-since').textContent = h ? time(r.heldSince) : '';
    document.getElementById('held-reason').textContent = h ? h.type + ': ' + (h.message || '') : '';
    document.getElementById('held-resume').textContent = !h ? ''
      : (/UnknownWorkflowException$/.test(h.type) ? 'The worker that took it does not know workflow ' + r.workflow + '. '
        : 'The code no longer matches this run\'s recorded history. ')
        + 'The run neither fails nor goes on while it is held (it keeps its status, ' + r.status + '): '
        + 'it resumes when a worker whose code matches its history starts.';
    document.getElementById('held-trace').textContent = h ? h.stackTrace || '' : '';
    document.getElementById('held-details').hidden = !h || !h.stackTrace;
  }

  // the runs this one started as its children, newest first
  async function loadChildren() {
    const page = await api('GET', '/api/runs?limit=100&parent=' + encodeURIComponent(runId));
    document.querySelector('#children tbody').replaceChildren(...page.runs.map(c =>
      el('tr', { 'data-run-id': c.runId }, el('td', {}, runLink(c.runId, 'child')), el('td', {}, c.workflow),
        el('td', {}, statusBadge(c.status)))));
    document.getElementById('children-section').hidden = page.runs.length === 0;
  }

  async function loadRun() {
    try {
      renderRun(await api('GET', base));
      await loadChildren();
      await loadChain();
      showError(error, null);
    } catch (e) {
      showError(error, e);
    }
  }

  /** The log's hash chain, checked anew with the run: whether every record is as it was written. */
  async function loadChain() {
    const line = document.getElementById('chain');
    try {
      const c = await api('GET', base + '/chain');
      line.classList.toggle('broken', !c.intact);
      line.textContent = c.intact
        ? 'Hash chain intact' + (c.chainedFrom > 0 ? ' from seq ' + c.chainedFrom + ' (records before it were written before the chain)' : '')
          + (c.head ? ' · head ' + c.head.slice(0, 18) + '…' : '')
        : 'Hash chain broken at seq ' + c.brokenAt + ': ' + c.problem;
    } catch (e) {
      line.textContent = 'The hash chain could not be checked: ' + e.message;
    }
  }

  // the type the workflow declares for the signal named in the form: a body that does not read as it is refused
  function showSignalType() {
    const type = signalTypes[document.getElementById('signal-name').value.trim()];
    const hint = document.getElementById('signal-type');
    hint.textContent = type ? 'The workflow reads this signal as ' + type + ': a payload that is not one is refused.' : '';
    hint.hidden = !type;
  }
  document.getElementById('signal-name').addEventListener('input', showSignalType);

  async function act(fn, done) {
    try {
      await fn();
      result.textContent = done;
      await loadRun();
    } catch (e) {
      result.textContent = e.message;
    }
  }

  /** Whether the code of the process serving the dashboard still matches the history: a replay, which writes nothing. */
  document.getElementById('replay').addEventListener('click', async () => {
    const line = document.getElementById('replay-result');
    line.textContent = 'Replaying…';
    try {
      const r = await api('GET', base + '/replay');
      line.classList.toggle('diverged', r.outcome !== 'MATCHED' && r.outcome !== 'CAUGHT_UP');
      line.textContent = {
        MATCHED: 'This code replays all ' + r.events + ' events and ends the run as it ended.',
        CAUGHT_UP: 'This code agrees with all ' + r.events + ' events and would go on from the last.',
        DIVERGED: 'This code no longer matches the history: ' + r.detail,
        FAILED: 'Not replayable here: ' + r.detail,
      }[r.outcome];
    } catch (e) {
      line.textContent = 'The replay could not run: ' + e.message;
    }
  });

  document.getElementById('cancel').addEventListener('click', () =>
    act(() => api('POST', base + '/cancel', { reason: 'canceled from the dashboard' }), 'Cancellation requested.'));
  document.getElementById('terminate').addEventListener('click', () =>
    act(() => api('POST', base + '/terminate', { reason: 'terminated from the dashboard' }), 'Termination requested.'));
  document.getElementById('retry').addEventListener('click', () =>
    act(() => api('POST', base + '/retry', { reason: 'retried from the dashboard' }), 'Retrying.'));
  document.getElementById('signal').addEventListener('submit', e => {
    e.preventDefault();
    const name = document.getElementById('signal-name').value.trim();
    const text = document.getElementById('signal-payload').value.trim();
    act(() => api('POST', base + '/signals/' + encodeURIComponent(name), text || 'null'), 'Signal ' + name + ' sent.');
  });
  document.getElementById('make-url').addEventListener('click', () => {
    const name = document.getElementById('signal-name').value.trim();
    act(async () => {
      const made = await api('POST', base + '/signal-urls', { name, ttlSeconds: 86400 });
      const field = document.getElementById('signal-url');
      field.value = made.url;
      field.hidden = false;
      document.getElementById('revoke-url').hidden = false;
    }, 'A URL that delivers ' + name + ' for a day (POST a JSON body to it):');
  });
  document.getElementById('revoke-url').addEventListener('click', () => {
    const url = document.getElementById('signal-url').value;
    act(() => api('POST', base + '/signal-urls/revoke', { url }), 'Revoked: the URL is refused from now on.');
  });
  document.getElementById('export').setAttribute('href', base + '/events?download=1');
  document.getElementById('export-codec').setAttribute('href', base + '/events?download=1&format=codec');
  document.getElementById('export-chain').setAttribute('href', base + '/chain/export');

  api('GET', base + '/events').then(list => { events = list; renderEvents(); }).catch(e => showError(error, e));
  loadRun();
  live(base + '/live', {
    events: list => {
      const known = new Set(events.map(e => e.seq));
      list.filter(e => !known.has(e.seq)).forEach(e => events.push(e));
      events.sort((a, b) => a.seq - b.seq);
      renderEvents();
    },
    run: () => loadRun().then(renderEvents),
    gone: d => showError(error, new Error(d.message))
  });
})();
