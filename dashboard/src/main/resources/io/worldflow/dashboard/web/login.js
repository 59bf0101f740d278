'use strict';
document.getElementById('login').addEventListener('submit', async e => {
  e.preventDefault();
  const error = document.getElementById('error');
  const res = await fetch('/api/session', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, credentials: 'same-origin',
    body: JSON.stringify({ token: document.getElementById('token').value })
  });
  if (res.ok) {
    location.href = '/';
  } else {
    WF.showError(error, new Error('That token is wrong.'));
  }
});
if (new URLSearchParams(location.search).has('failed')) {
  WF.showError(document.getElementById('error'), new Error('That login link has a wrong token.'));
}
