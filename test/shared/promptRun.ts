// Runs whose prompts come back across steps, for the prompt history tests: a small miles run of
// four steps and four prompts (each case of a history once), and a larger one for a summary's size.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Rewards per step and prompt (null: an aborted attempt, `SandboxUnavailable`); every response is 10 tokens. */
export const HISTORY_PLAN: Record<number, Record<string, (number | null)[]>> = {
  // A: zero-std 0 (dropped), solved (kept), zero-std 0 again (a regression), zero-std 1 (solved, dropped).
  // B: never solved (0.5 is no pass). C: solved at once, then an aborted group. D: solved once, dropped.
  1: { A: [0, 0, 0, 0], B: [0, 0.5, 0, 0], C: [1, 0, 0, 0] },
  2: { A: [1, 0, 1, 0], C: [1, 1, 0, 0], D: [1, 1, 1, 1] },
  3: { A: [0, 0, 0, 0], B: [0, 0, 0, 0] },
  4: { A: [1, 1, 1, 1], C: [1, 0, null, 0] },
};

function sampleLine(step: number, group: number, index: number, prompt: string, reward: number | null, tokens: number): string {
  const aborted = reward === null;
  return JSON.stringify({
    group_index: group,
    index,
    rollout_id: step,
    prompt: [{ role: 'user', content: prompt }],
    response: 'r',
    response_length: tokens,
    reward,
    status: aborted ? 'aborted' : 'completed',
    metadata: { exit_status: aborted ? 'SandboxUnavailable' : 'Submitted' },
  });
}

/** The plan's run under `dir` (rollout/rollout_<step>.jsonl and its settings file); returns `dir`. */
export function writeHistoryRun(dir: string, plan = HISTORY_PLAN, promptText: (name: string) => string = (name) => `prompt ${name}`): string {
  mkdirSync(join(dir, 'rollout'), { recursive: true });
  for (const [step, groups] of Object.entries(plan)) {
    const lines: string[] = [];
    let index = 0;
    Object.entries(groups).forEach(([name, rewards], group) => {
      for (const r of rewards) lines.push(sampleLine(Number(step), group, index++, promptText(name), r, 10));
    });
    writeFileSync(join(dir, 'rollout', `rollout_${step}.jsonl`), `${lines.join('\n')}\n`);
  }
  writeFileSync(join(dir, 'rollout-lens.yaml'), 'nSamplesPerPrompt: 4\ndynamicFilter: check_reward_nonzero_std\n');
  return dir;
}

/** `steps` steps of `prompts` prompts (all sampled every step) of 8 samples, rewards 0/1 and response lengths of a few thousand tokens. */
export function writeLargeRun(dir: string, steps: number, prompts: number): string {
  mkdirSync(join(dir, 'rollout'), { recursive: true });
  let seed = 46;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let step = 1; step <= steps; step++) {
    const lines: string[] = [];
    for (let p = 0; p < prompts; p++) {
      const solvedRate = Math.min(1, (p % 10) / 10 + step / (2 * steps));
      for (let i = 0; i < 8; i++)
        lines.push(sampleLine(step, p, p * 8 + i, `problem ${p}: prove it`, next() < solvedRate ? 1 : 0, 200 + Math.floor(next() * 8000)));
    }
    writeFileSync(join(dir, 'rollout', `rollout_${step}.jsonl`), `${lines.join('\n')}\n`);
  }
  writeFileSync(join(dir, 'rollout-lens.yaml'), 'nSamplesPerPrompt: 8\ndynamicFilter: check_reward_nonzero_std\n');
  return dir;
}
