// The run view page's messages to the extension (shared/webviewMessages.ts): only the shapes the
// page script sends are taken; a comparison's place is a whole number ≥ 0, nothing else (the host
// opens its own copy of that place, so the page never names a file for it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRunPageMessage as parsePageMessage, parseSamplePageMessage } from '../../../shared/webviewMessages';

test('page messages: the comparison’s place, Compare with Run… and Clear comparison', () => {
  assert.deepEqual(parsePageMessage({ type: 'place', place: 3 }), { type: 'place', place: 3 });
  assert.deepEqual(parsePageMessage({ type: 'place', place: 0, file: '/etc/passwd' }), { type: 'place', place: 0 });
  for (const place of [-1, 1.5, '3', null, Number.NaN, Infinity, undefined]) assert.equal(parsePageMessage({ type: 'place', place }), null, String(place));
  assert.deepEqual(parsePageMessage({ type: 'compare', extra: '<b>' }), { type: 'compare' });
  assert.deepEqual(parsePageMessage({ type: 'clearComparison' }), { type: 'clearComparison' });
});

test('page messages: the run view’s own, as before; anything else is refused', () => {
  assert.deepEqual(parsePageMessage({ type: 'sample', source: 'file:///r/a.jsonl', line: 7 }), { type: 'sample', source: 'file:///r/a.jsonl', line: 7 });
  assert.equal(parsePageMessage({ type: 'sample', source: 'file:///r/a.jsonl', line: 0 }), null);
  assert.deepEqual(parsePageMessage({ type: 'reveal', step: 2, reason: 'r', sources: ['s'] }), { type: 'reveal', step: 2, reason: 'r', sources: ['s'] });
  assert.equal(parsePageMessage({ type: 'reveal', step: 2, reason: 'r', sources: [1] }), null);
  assert.deepEqual(parsePageMessage({ type: 'refresh' }), { type: 'refresh' });
  for (const m of [null, 'place', { type: 'run', command: 'x' }, { type: 'Place', place: 1 }]) assert.equal(parsePageMessage(m), null);
});

test('the run page’s rendered message carries its chart count; anything else is dropped', () => {
  assert.deepEqual(parsePageMessage({ type: 'rendered', charts: 4 }), { type: 'rendered', charts: 4 });
  for (const charts of [-1, 1.5, '2', undefined]) assert.equal(parsePageMessage({ type: 'rendered', charts }), null, String(charts));
});

test('the sample page may only choose a sibling by its line, or say it rendered', () => {
  assert.deepEqual(parseSamplePageMessage({ type: 'sibling', line: 3, uri: 'file:///etc/passwd' }), { type: 'sibling', line: 3 });
  assert.deepEqual(parseSamplePageMessage({ type: 'rendered', extra: '<b>' }), { type: 'rendered' });
  for (const line of [0, -2, 1.5, '3', null]) assert.equal(parseSamplePageMessage({ type: 'sibling', line }), null, String(line));
  for (const m of [null, 'sibling', { type: 'open', source: 'file:///x', line: 1 }, { type: 'Sibling', line: 1 }])
    assert.equal(parseSamplePageMessage(m), null);
});
