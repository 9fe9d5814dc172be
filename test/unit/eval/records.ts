// Builders for compact SampleRecords as the reader produces them (the eval tests need no log files).
import { DEFAULT_SETTINGS } from '../../../shared/protocol';
import type { RolloutLensSettings } from '../../../shared/protocol';
import type { SampleRecord } from '../../../server/src/core/vocabulary/types';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function rec(p: Partial<SampleRecord> & { line: number }): SampleRecord {
  return {
    offset: (p.line - 1) * 100,
    byteLength: 99,
    groupKey: null,
    index: null,
    dataset: null,
    promptKey: null,
    status: 'completed',
    aborted: false,
    reward: 0,
    rewardIsInt: false,
    cause: null,
    responseLength: 10,
    step: null,
    ...p,
  };
}

/**
 * One dataset's samples: `prompts[i]` holds the rewards of prompt i's attempts (null: no reward).
 * `index` counts from 0 over the dataset, prompt-major, as miles numbers eval samples.
 */
export function dataset(
  name: string | null,
  prompts: (number | null)[][],
  opts: { firstLine?: number; step?: number; promptPrefix?: string } = {},
): SampleRecord[] {
  const out: SampleRecord[] = [];
  let index = 0;
  prompts.forEach((rewards, p) =>
    rewards.forEach((reward) => {
      out.push(
        rec({
          line: (opts.firstLine ?? 1) + index,
          index,
          dataset: name,
          promptKey: `${opts.promptPrefix ?? name ?? 'p'}-${p}`,
          reward,
          rewardIsInt: false,
          status: reward === null ? 'aborted' : 'completed',
          aborted: reward === null,
          step: opts.step ?? null,
        }),
      );
      index++;
    }),
  );
  return out;
}

export function settings(p: Partial<RolloutLensSettings> = {}): RolloutLensSettings {
  return { ...DEFAULT_SETTINGS, ...p };
}

/** Reference values computed by CPython 3.12 / numpy (see reference/make_reference.py). */
export function reference<T>(name: 'pysum' | 'numpy'): T {
  // Compiled to out/test/unit/eval; the JSON stays in the source tree (the repository root is cwd
  // under `npm test`, else four levels above this file).
  const rel = join('test', 'unit', 'eval', 'reference', `${name}.json`);
  const candidates = [join(process.cwd(), rel), join(__dirname, '..', '..', '..', '..', rel)];
  const path = candidates.find((p) => existsSync(p)) ?? candidates[0];
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}
