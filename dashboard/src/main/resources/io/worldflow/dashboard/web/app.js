'use strict';
// Shared helpers. Every value from the server reaches the page through textContent or attributes set with
// setAttribute: never through innerHTML, so nothing in a run id, payload or error can become markup.
const WF = (() => {
  async function api(method, path, body) {
    const init = { method, headers: {}, credentials: 'same-origin' };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(path, init);
    if (res.status === 401) {
      location.href = '/login.html';
      throw new Error('not logged in');
    }
    const text = await res.text();
    const data = text ? JSON.parse(text) : null;
    if (!res.ok) {
      const err = new Error(data && data.message ? data.message : res.status + ' ' + res.statusText);
      err.status = res.status;
      throw err;
    }
    return data;
  }
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined) e.setAttribute(k, v);
    }
    for (const c of children) {
      if (c === null || c === undefined) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }
  function time(iso) {
    if (!iso) return '';
    const d = new Date(iso);
    return isNaN(d) ? String(iso) : d.toLocaleString();
  }
  function statusBadge(status) {
    return el('span', { class: 'status ' + status }, status);
  }
  // a held run keeps its status: this badge goes beside it
  function heldBadge(reason) {
    return el('span', { class: 'status HELD', title: reason || null }, 'HELD');
  }
  function showError(node, err) {
    node.textContent = err ? (err.message || String(err)) : '';
    node.hidden = !err;
  }
  function live(path, handlers) {
    const dot = document.getElementById('live');
    const source = new EventSource(path);
    source.onopen = () => dot && dot.classList.add('on');
    source.onerror = () => dot && dot.classList.remove('on');
    for (const [name, fn] of Object.entries(handlers)) {
      source.addEventListener(name, e => fn(JSON.parse(e.data)));
    }
    return source;
  }
  // Search attribute filters as the runs page's field holds them: each name:value or name:type:value (the API's attr
  // syntax), separated by spaces; a double-quoted stretch keeps its spaces, and a backslash takes the next character
  // as it is.
  function attrFilters(text) {
    const out = [];
    let token = '', quoted = false, any = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '\\' && i + 1 < text.length) { token += text[++i]; any = true; }
      else if (c === '"') { quoted = !quoted; any = true; }
      else if (!quoted && /\s/.test(c)) { if (any) out.push(token); token = ''; any = false; }
      else { token += c; any = true; }
    }
    if (any) out.push(token);
    return out;
  }
  // the filters written back as the field reads them
  function attrText(filters) {
    return filters.map(f => /[\s"\\]/.test(f) ? '"' + f.replace(/[\\"]/g, '\\$&') + '"' : f).join(' ');
  }
  // the filter that finds runs whose attribute name has this value of this type (string, long, boolean, instant)
  function attrFilter(name, type, value) {
    const text = String(value);
    return type === 'string' && !text.includes(':') ? name + ':' + text : name + ':' + type + ':' + text;
  }
  // a search attribute's value as the page shows it: a string quoted, as JSON has it, anything else as it is
  function attrValue(type, value) {
    return type === 'string' ? JSON.stringify(value) : String(value);
  }
  // a logged-in caller's role hides the actions it does not allow (elements marked data-needs, see app.css); a
  // visitor who has not logged in sees them, and an action sends it to the login page. The server checks every
  // action whatever the page shows.
  fetch('/api/session', { credentials: 'same-origin' })
    .then(res => res.ok ? res.json() : null)
    .then(s => {
      if (s && s.authenticated && s.role) document.documentElement.dataset.role = s.role;
    })
    .catch(() => {});
  return { api, el, time, statusBadge, heldBadge, showError, live, attrFilters, attrText, attrFilter, attrValue };
})();
