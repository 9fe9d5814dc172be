// Seeded generator of a synthetic miles rollout file: realistic `Sample.to_dict()` lines written as
// Python's json.dumps writes them (", " and ": " separators, shortest float repr), with long
// `tokens`, `loss_mask` and `rollout_log_probs` arrays (most of the bytes, as in real dumps).
import { closeSync, openSync, writeSync } from 'node:fs';

/** mulberry32: small, fast, seeded. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  'the of to and a in is it you that he was for on are with as I his they be at one have this from or had by hot but some what there we can out other were all your when up use word how said an each she which do their time if will way about many then them would write like so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find'.split(
    ' ',
  );
const CAUSES = ['SandboxUnavailable', 'ServerUnreachable', 'AgentSetupFailed', 'NoModelCalls', null];

function text(rand, words) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)]);
  return out.join(' ');
}

/** One group of `n` samples for prompt `g` (an aborted sample in ~6% of groups). */
function group(rand, g, n, step) {
  const prompt = [
    { role: 'system', content: 'You are a helpful assistant. Think step by step.' },
    { role: 'user', content: `Problem ${g}: ${text(rand, 40 + Math.floor(rand() * 80))}` },
  ];
  const promptTokens = 80 + Math.floor(rand() * 300);
  const pTok = Array.from({ length: promptTokens }, () => Math.floor(rand() * 151_000));
  const abortAt = rand() < 0.06 ? Math.floor(rand() * n) : -1;
  const lines = [];
  for (let i = 0; i < n; i++) {
    const aborted = i === abortAt;
    const len = aborted ? 0 : 300 + Math.floor(rand() * 7700);
    const tokens = pTok.concat(Array.from({ length: len }, () => Math.floor(rand() * 151_000)));
    const logProbs = Array.from({ length: len }, () => -(rand() ** 3) * 4);
    const reward = aborted ? null : rand() < 0.5 ? 1.0 : 0.0;
    const cause = aborted ? CAUSES[Math.floor(rand() * CAUSES.length)] : 'Submitted';
    const sample = {
      group_index: g,
      index: g * n + i,
      prompt,
      tokens,
      multimodal_inputs: null,
      response: aborted ? '' : text(rand, Math.floor(len * 0.7)),
      response_length: len,
      label: String(Math.floor(rand() * 1000)),
      reward,
      loss_mask: Array(len).fill(1),
      weight_versions: [String(step)],
      rollout_log_probs: logProbs,
      rollout_routed_experts: null,
      remove_sample: false,
      status: aborted ? 'aborted' : len >= 7900 ? 'truncated' : 'completed',
      metadata: cause === null ? {} : { exit_status: cause, agent_metrics: { turns: 1 + Math.floor(rand() * 9) } },
      train_metadata: null,
      non_generation_time: Math.round(rand() * 1000) / 1000,
      spec_info: {},
      prefix_cache_info: {},
    };
    lines.push(pythonJson(sample));
  }
  return lines;
}

/** json.dumps layout: ", " and ": " separators; floats as Python repr (1.0, not 1). */
function pythonJson(value) {
  if (value === null) return 'null';
  if (typeof value === 'number') {
    return Number.isInteger(value) && !Object.is(value, -0) && !FLOAT_KEYS.has(currentKey) ? String(value) : pythonFloatRepr(value);
  }
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.length > 0 && typeof value[0] === 'number') {
      const key = currentKey;
      return `[${value.map((v) => (FLOAT_KEYS.has(key) ? pythonFloatRepr(v) : String(v))).join(', ')}]`;
    }
    return `[${value.map(pythonJson).join(', ')}]`;
  }
  const parts = [];
  for (const [k, v] of Object.entries(value)) {
    currentKey = k;
    parts.push(`${JSON.stringify(k)}: ${pythonJson(v)}`);
  }
  return `{${parts.join(', ')}}`;
}

let currentKey = '';
const FLOAT_KEYS = new Set(['reward', 'rollout_log_probs', 'non_generation_time']);

/**
 * Python's `repr` of a finite float: the shortest digits that read back to it (JS prints the same
 * digits), in exponent form below 1e-4 and from 1e16 (JS switches only below 1e-6 and from 1e21)
 * with at least two exponent digits, and `.0` on integral values.
 */
export function pythonFloatRepr(v) {
  if (v === 0) return Object.is(v, -0) ? '-0.0' : '0.0';
  const [digits, exponent] = v.toExponential().split('e');
  const e = Number(exponent);
  if (e < -4 || e >= 16) return `${digits}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  const s = String(v);
  return s.includes('.') ? s : `${s}.0`;
}

/**
 * Part of the name of every cached file this generator wrote: bumped when its output changes, so
 * a cache written by an older generator is not measured as if it were the new one (2: floats
 * below 1e-4 in exponent form, as Python writes them).
 */
export const GENERATION = 'g2';

/** Writes groups of 8 until `bytes` are reached; returns { bytes, lines }. */
export function generateMilesRollout(path, bytes, seed = 42) {
  const rand = rng(seed);
  const fd = openSync(path, 'w');
  let written = 0;
  let lines = 0;
  try {
    for (let g = 0; written < bytes; g++) {
      const chunk = `${group(rand, g, 8, 1).join('\n')}\n`;
      written += writeSync(fd, chunk);
      lines += 8;
    }
  } finally {
    closeSync(fd);
  }
  return { bytes: written, lines };
}
