// Small, realistic log lines (miles Sample.to_dict() as JSON) written into temp workspaces on real
// disk. Rewards are written as their JSON text so `1.0` stays a float and `1` an int.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { repoRoot } from '../shared/repoRoot';

export interface SampleSpec {
  group: number;
  index: number;
  status?: 'completed' | 'truncated' | 'aborted' | 'failed';
  /** JSON text of the reward: `1.0`, `0`, `null`. */
  reward?: string;
  exitStatus?: string;
  prompt?: string;
  /** Extra metadata members as JSON text, e.g. `"error": "..."`. */
  meta?: Record<string, unknown>;
  dataset?: string;
  tokens?: number;
}

export function milesSample(s: SampleSpec): string {
  const status = s.status ?? 'completed';
  const reward = s.reward ?? (status === 'aborted' ? 'null' : '1.0');
  const meta: Record<string, unknown> = {
    ...(s.exitStatus !== undefined ? { exit_status: s.exitStatus } : {}),
    ...(s.dataset ? { dataset: s.dataset } : {}),
    ...s.meta,
  };
  const tokens = Array.from({ length: s.tokens ?? 8 }, (_, i) => 1000 + ((i * 7919) % 30000));
  const response = status === 'aborted' ? '' : 'I ran the tests and submitted a patch.';
  return `{"group_index": ${s.group}, "index": ${s.index}, "rollout_id": 1, "prompt": ${JSON.stringify(s.prompt ?? `Fix issue #${s.group}`)}, "tokens": ${JSON.stringify(tokens)}, "response": ${JSON.stringify(response)}, "response_length": ${response.length ? 9 : 0}, "label": null, "reward": ${reward}, "status": "${status}", "metadata": ${JSON.stringify(meta)}}`;
}

/** 3 groups of 4: group 0 kept, group 1 dropped (ServerUnreachable on line 6, with a hostile message), group 2 kept. */
export function rolloutLines(message = 'connection refused'): string[] {
  const lines: string[] = [];
  for (let g = 0; g < 3; g++) {
    for (let i = 0; i < 4; i++) {
      const index = g * 4 + i;
      if (g === 1 && i === 1) {
        lines.push(milesSample({ group: g, index, status: 'aborted', exitStatus: 'ServerUnreachable', meta: { error: message } }));
      } else {
        lines.push(milesSample({ group: g, index, reward: i % 2 === 0 ? '1.0' : '0.0' }));
      }
    }
  }
  return lines;
}

/** miles eval samples: `prompts` prompts of `repeat` attempts each, one dataset, index from 0. */
export function evalLines(dataset: string, prompts: number, repeat: number): string[] {
  const lines: string[] = [];
  for (let p = 0; p < prompts; p++) {
    for (let a = 0; a < repeat; a++) {
      const index = p * repeat + a;
      lines.push(milesSample({ group: p, index, dataset, prompt: `Solve problem ${p}`, reward: a % 2 === 0 ? '1.0' : '0.0' }));
    }
  }
  return lines;
}

export function evalConfigYaml(dataset: string, n: number): string {
  return [
    '# Evaluation datasets (comments and layout must survive a quick fix)',
    'eval:',
    '  defaults:',
    '    temperature: 0.6   # sampling',
    '  datasets:',
    `    - name: ${dataset}   # four attempts per prompt`,
    `      path: /data/${dataset}.jsonl`,
    `      n_samples_per_eval_prompt: ${n}`,
    '',
  ].join('\n');
}

export interface TempWorkspace {
  dir: string;
  path(name: string): string;
  uri(name: string): string;
  write(name: string, text: string): string;
  remove(): void;
}

export function tempWorkspace(prefix = 'rl-lsp-'): TempWorkspace {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    path: (name) => join(dir, name),
    uri: (name) => pathToFileURL(join(dir, name)).href,
    write(name, text) {
      writeFileSync(join(dir, name), text);
      return join(dir, name);
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export { repoRoot };

/** VS Code never syncs a file above this many UTF-16 characters to extensions. */
export const VSCODE_SYNC_LIMIT = 52_428_800;

/**
 * Writes a miles rollout file of at least `minBytes` (groups of 4; every 10th group has one
 * aborted sample, cause ServerUnreachable) in 4 MB writes, never holding it in memory.
 */
export function writeBigRollout(path: string, minBytes: number): { bytes: number; lines: number; groups: number } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  const fd = fs.openSync(path, 'w');
  let bytes = 0;
  let lines = 0;
  let group = 0;
  try {
    while (bytes < minBytes) {
      const chunk: string[] = [];
      let chunkBytes = 0;
      while (chunkBytes < 4 * 1024 * 1024 && bytes + chunkBytes < minBytes) {
        for (let i = 0; i < 4; i++) {
          const aborted = group % 10 === 3 && i === 2;
          const line = milesSample({
            group,
            index: group * 4 + i,
            tokens: 400,
            status: aborted ? 'aborted' : 'completed',
            exitStatus: aborted ? 'ServerUnreachable' : undefined,
            reward: aborted ? 'null' : i % 2 ? '0.0' : '1.0',
          });
          chunk.push(line);
          chunkBytes += line.length + 1;
          lines++;
        }
        group++;
      }
      const buf = Buffer.from(`${chunk.join('\n')}\n`);
      fs.writeSync(fd, buf);
      bytes += buf.byteLength;
    }
  } finally {
    fs.closeSync(fd);
  }
  return { bytes, lines, groups: group };
}
