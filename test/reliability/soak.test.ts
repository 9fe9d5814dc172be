// Soak: a live log grows to 200 000 samples in 10 bursts, each burst written in 5-12 appends cut at
// arbitrary bytes (lines split across writes), while the built server (`dist/server.js --stdio`)
// tails it (analyzeFile, then file-watch events after every append). At a checkpoint after 3 bursts and at
// the end the server's group counts and drop metrics must equal a one-shot `rollout-lens check`
// of the file as it is: nothing lost, nothing counted twice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';

import {
  AnalysisChangedNotification,
  AnalyzeFileRequest,
  GroupsByCauseRequest,
  type AnalysisChangedParams,
  type GroupsByCauseResult,
} from '../../shared/protocol';
import { endServer, startStdioServer } from '../shared/stdioServer';
import type { RolloutLensSettings } from '../../shared/protocol';
import { check, cliJson, tempDir } from './helpers';

const SAMPLES = 200_000;
const BURSTS = 10;
const SETTINGS = { dynamicFilter: 'check_reward_nonzero_std', nSamplesPerPrompt: 4 };
const CAUSES = ['ServerUnreachable', 'SandboxUnavailable', 'TimeLimitExceeded', ''];

/** Sample `n` (groups of 4): every 7th group has an aborted sample, every 5th has equal rewards. */
function sample(n: number): string {
  const g = Math.floor(n / 4);
  const i = n % 4;
  const aborted = g % 7 === 3 && i === g % 4;
  const cause = CAUSES[g % CAUSES.length];
  const reward = aborted ? 'null' : g % 5 === 0 ? '1.0' : i % 2 ? '0.0' : '1.0';
  const meta = aborted && cause ? `{"exit_status": "${cause}"}` : '{}';
  return `{"group_index": ${g}, "index": ${n}, "rollout_id": 5, "prompt": "task ${g}", "response": "${aborted ? '' : 'done'}", "response_length": ${aborted ? 0 : 1}, "status": "${aborted ? 'aborted' : 'completed'}", "reward": ${reward}, "metadata": ${meta}}\n`;
}

/** Deterministic cut points (xorshift). */
function cuts(seed: number, length: number, count: number): number[] {
  let x = seed | 1;
  const out: number[] = [];
  for (let k = 0; k < count; k++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.push(Math.abs(x) % length);
  }
  return out.sort((a, b) => a - b);
}

type Summary = { total: number; kept: number; dropped: number; drops: Record<string, number> };

function summaryOf(f: { groups: { total: number; kept: number; dropped: number }; metrics: Record<string, number | null> }): Summary {
  const drops = Object.fromEntries(Object.entries(f.metrics).filter(([k]) => k.startsWith('rollout/dynamic_filter/drop_'))) as Record<string, number>;
  return { total: f.groups.total, kept: f.groups.kept, dropped: f.groups.dropped, drops };
}

/** One-shot `rollout-lens check` of the file as it is: the built CLI, or (cheaper, mid-run) the same engine in-process. */
async function oneShot(dir: string, file: string, how: 'cli' | 'engine'): Promise<Summary> {
  if (how === 'engine') return summaryOf((await check(join(dir, file), SETTINGS as Partial<RolloutLensSettings>)).file);
  const r = cliJson(['--config', 'settings.json', file], dir);
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return summaryOf(r.doc.files[0]);
}

test(`soak: ${SAMPLES} samples appended in ${BURSTS} bursts (lines split across writes) while the server tails the file → its group counts and drop metrics equal a one-shot check, after 3 bursts and at the end`, async (t) => {
  const dir = tempDir(t, 'rl-soak-');
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(SETTINGS));
  const path = join(dir, 'rollout_5.jsonl');
  const uri = pathToFileURL(path).href;
  writeFileSync(path, '');
  const { child, stderr } = startStdioServer();
  const client = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  let changes = 0;
  const errors: string[] = [];
  const waiters: (() => void)[] = [];
  const bump = () => waiters.splice(0).forEach((w) => w());
  client.onNotification(AnalysisChangedNotification, (p: AnalysisChangedParams) => {
    if (p.uri === uri) changes++;
    bump();
  });
  client.onNotification('window/logMessage', (p: { type: number; message: string }) => {
    if (p.type === 1) errors.push(p.message);
  });
  client.onNotification('textDocument/publishDiagnostics', () => undefined);
  client.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => SETTINGS));
  client.onRequest('window/workDoneProgress/create', () => null);
  client.onRequest('client/registerCapability', () => null);
  client.listen();
  /** Resolves when `changes` passes `since` (an analysis finished), or after `ms` (then the caller re-checks). */
  const nextChange = (since: number, ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      const check = () => {
        if (changes > since) {
          clearTimeout(timer);
          resolve();
        } else waiters.push(check);
      };
      check();
    });
  const served = async (): Promise<Summary> => {
    const r = (await client.sendRequest(GroupsByCauseRequest, { uri })) as GroupsByCauseResult;
    const f = r.files[0];
    const drops: Record<string, number> = {};
    for (const b of f.buckets) if (b.metric) drops[b.metric] = b.groups.length + (b.omitted ?? 0);
    return { total: f.kept + f.dropped, kept: f.kept, dropped: f.dropped, drops };
  };
  /** Waits (bounded) until the server agrees with a one-shot check of the file as it is now. */
  const settle = async (what: string, how: 'cli' | 'engine') => {
    const expected = await oneShot(dir, 'rollout_5.jsonl', how);
    const deadline = Date.now() + 45_000;
    let last: Summary | undefined;
    while (Date.now() < deadline) {
      const seen = changes;
      void client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 2 }] });
      last = await served();
      if (isDeepStrictEqual(last, expected)) break;
      await nextChange(seen, 2_000);
    }
    assert.deepEqual(last, expected, what);
    return expected;
  };

  try {
    await client.sendRequest('initialize', {
      processId: null,
      rootUri: pathToFileURL(dir).href,
      workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'run' }],
      capabilities: { workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true } }, window: { workDoneProgress: true } },
    });
    await client.sendNotification('initialized', {});
    await client.sendRequest(AnalyzeFileRequest, { uri });
    const perBurst = SAMPLES / BURSTS;
    let writes = 0;
    for (let burst = 0; burst < BURSTS; burst++) {
      let text = '';
      for (let n = burst * perBurst; n < (burst + 1) * perBurst; n++) text += sample(n);
      const seen = changes;
      let at = 0;
      for (const cut of [...cuts(burst + 1, text.length, 4 + (burst % 8)), text.length]) {
        appendFileSync(path, text.slice(at, cut));
        at = cut;
        writes++;
        void client.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 2 }] });
      }
      await nextChange(seen, 3_000); // pace the writer: the next burst goes out once the server caught up (bounded)
      if (burst === 2) await settle(`checkpoint after burst ${burst + 1}`, 'engine');
    }
    const final = await settle('after the last burst', 'cli');
    assert.equal(final.total, SAMPLES / 4);
    assert.ok(final.dropped > 10_000 && Object.keys(final.drops).length >= 4, JSON.stringify(final));
    t.diagnostic(`${writes} appends, ${changes} analyses published; final: ${JSON.stringify(final)}`);
    assert.deepEqual(errors, [], 'no error logged');
    await client.sendRequest('shutdown');
    await client.sendNotification('exit');
  } finally {
    endServer(client, child);
    assert.equal(stderr().includes('Error'), false, stderr());
  }
});
