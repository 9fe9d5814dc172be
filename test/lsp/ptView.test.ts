// rolloutLens/ptAsJsonl: a miles .pt dump as JSON Lines through the protocol (docs/pt.md), the text
// an editor shows read-only; opened as a document it gets the same diagnostics as the dump.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { PtAsJsonlRequest, type PtAsJsonlResult } from '../../shared/protocol';
import { repoRoot } from './fixtures';
import { withHarness } from './harness';

const FIX = join(repoRoot(), 'test/fixtures/pt');

test('ptAsJsonl: one line per sample, equal to torch.load’s view; opened, its lines get the dump’s diagnostics', async () => {
  await withHarness({ workspaceFolders: [FIX] }, async (h) => {
    const uri = pathToFileURL(join(FIX, 'run/rollout_data/1.pt')).href;
    const r = (await h.client.sendRequest(PtAsJsonlRequest, { uri })) as PtAsJsonlResult;
    assert.equal(r.samples, 24);
    assert.deepEqual(r.problems, []);
    const expected = JSON.parse(readFileSync(join(FIX, 'expected/1.json'), 'utf8'));
    assert.deepEqual(
      r.text
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l)),
      expected.samples,
    );
    // The view as an (untitled) JSON Lines document: group 1 dropped on sample 6 (0-based line 5).
    const view = 'untitled:1.pt.jsonl';
    h.open(view, r.text, 1, 'jsonl');
    const diags = await h.diagnostics(view, (d) => d.some((x) => x.code === 'group-dropped'));
    assert.deepEqual(
      diags.filter((d) => d.code === 'group-dropped').map((d) => d.range.start.line),
      [5, 8, 14, 17],
    );
  });
});

test('ptAsJsonl: a hostile dump gives its samples and names the callable that was not run; a bad uri is an error', async () => {
  await withHarness({ workspaceFolders: [FIX] }, async (h) => {
    const r = (await h.client.sendRequest(PtAsJsonlRequest, { uri: pathToFileURL(join(FIX, 'hostile/system.pt')).href })) as PtAsJsonlResult;
    assert.equal(r.samples, 4);
    assert.match(r.problems[0], /posix\.system.*not run/);
    assert.match(r.text, /\{"\$blocked": "posix\.system"\}/);
    await assert.rejects(h.client.sendRequest(PtAsJsonlRequest, { uri: pathToFileURL(join(FIX, 'missing.pt')).href }), /cannot read/);
  });
});
