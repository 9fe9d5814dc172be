import * as assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSuite } from './harness';

test('real VS Code, empty window: the harness runs an extension-host suite; the views start empty (welcome)', { timeout: 600_000 }, async () => {
  assert.equal(await runSuite({ suite: 'smoke' }), 0);
});
