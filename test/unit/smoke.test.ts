import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS } from '../../shared/protocol';

test('default settings group eval by miles\' global default', () => {
  assert.equal(DEFAULT_SETTINGS.dynamicFilter, 'none');
});
