// rolloutLens/sampleNavigation: the sample view's next/previous failed sample and dropped group,
// through the protocol, on a `.pt` dump's JSON Lines view (the dump read from disk, as its store)
// and on an open JSON Lines document (its records): both give the same steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { PT_VIEW_SCHEME, SampleNavigationRequest, type SampleNavigationParams, type SampleNavigationResult } from '../../shared/protocol';
import { milesSample, repoRoot, rolloutLines, tempWorkspace } from './fixtures';
import { type Harness, inWorkspace, withHarness } from './harness';

const DUMP = join(repoRoot(), 'test/fixtures/pt/dumpdir');
const PT = join(DUMP, 'rollout_data/1.pt');
const VIEW_URI = `${PT_VIEW_SCHEME}:${pathToFileURL(`${PT}.jsonl`).pathname}?${encodeURIComponent(pathToFileURL(PT).href)}`;

async function step(h: Harness, uri: string, line: number, target: SampleNavigationParams['target'], direction: 1 | -1): Promise<number | null> {
  const r = (await h.client.sendRequest(SampleNavigationRequest, { uri, line, target, direction })) as SampleNavigationResult;
  return r.line;
}

/** Every line reached by stepping from `line` until there is none. */
async function walk(h: Harness, uri: string, line: number, target: SampleNavigationParams['target'], direction: 1 | -1): Promise<number[]> {
  const out: number[] = [];
  for (let at: number | null = await step(h, uri, line, target, direction); at !== null; at = await step(h, uri, at, target, direction)) out.push(at);
  return out;
}

test('a .pt dump: failed samples and dropped groups of step 1, forward and back, no wrapping', async () => {
  await withHarness({ workspaceFolders: [DUMP] }, async (h) => {
    // Failed: the aborted indexes 5, 8, 10, 14, 17, and index 20 (completed, ServerUnreachable: an infrastructure cause).
    assert.deepEqual(await walk(h, VIEW_URI, 0, 'failedSample', 1), [5, 8, 10, 14, 17, 20]);
    assert.deepEqual(await walk(h, VIEW_URI, 23, 'failedSample', -1), [20, 17, 14, 10, 8, 5]);
    // Dropped: groups 1–4 (4 samples each, from line 5); 0 and 5 kept.
    assert.deepEqual(await walk(h, VIEW_URI, 0, 'droppedGroup', 1), [4, 8, 12, 16]);
    // From inside a dropped group: forward to the next one, back past its own start to the one before.
    assert.equal(await step(h, VIEW_URI, 10, 'droppedGroup', 1), 12);
    assert.equal(await step(h, VIEW_URI, 10, 'droppedGroup', -1), 4);
    assert.equal(await step(h, VIEW_URI, 6, 'droppedGroup', -1), null);
    assert.equal(await step(h, VIEW_URI, 17, 'droppedGroup', 1), null);
    const bad = { uri: VIEW_URI, line: 0, target: 'sideways', direction: 1 } as unknown as SampleNavigationParams;
    await assert.rejects(h.client.sendRequest(SampleNavigationRequest, bad), /sampleNavigation needs/);
  });
});

test('an open JSON Lines log: a finished attempt (Submitted) is no failed sample', async () => {
  const ws = tempWorkspace();
  await inWorkspace(ws, {}, async (h) => {
    const uri = ws.uri('rollout_1.jsonl');
    const lines = rolloutLines();
    lines[0] = milesSample({ group: 0, index: 0, exitStatus: 'Submitted', reward: '1.0' });
    await h.openAndWait(uri, `${lines.join('\n')}\n`);
    assert.deepEqual(await walk(h, uri, 0, 'failedSample', 1), [5]);
    assert.deepEqual(await walk(h, uri, 11, 'droppedGroup', -1), [4]);
    assert.deepEqual(await walk(h, uri, 0, 'droppedGroup', 1), [4]);
  });
});
