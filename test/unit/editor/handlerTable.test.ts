// The server answers every custom request of shared/protocol.ts, each from one row of its table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RequestType } from 'vscode-languageserver-protocol';
import * as protocol from '../../../shared/protocol';
import { CUSTOM_REQUESTS } from '../../../server/src/server/protocol/handlers';

test('every request type of the shared protocol has exactly one row in the handler table', () => {
  const declared = (Object.values(protocol) as unknown[])
    .filter((v: unknown): v is RequestType<unknown, unknown, unknown> => v instanceof RequestType)
    .map((t) => t.method)
    .sort();
  const routed = CUSTOM_REQUESTS.map((r) => r.method).sort();
  assert.ok(declared.length >= 10, `the protocol declares its requests (${declared.length})`);
  assert.deepEqual(routed, declared);
  assert.equal(new Set(routed).size, routed.length, 'no request registered twice');
});
