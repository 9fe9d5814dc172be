// Reading a summary written by `rollout-lens summarize` (docs/compare.md#the-summary): validated
// whole, so a diff or a merge never runs on a file that only looks like one.
import { zod } from '../lazy/zod';
import { fileJson } from './attachedRows';
import type { RunSummary, StepSummary } from './summary';
import { SUMMARY_VERSION } from './summaryFormat';
import { isPlainSummary } from './summaryShape';

/** A summary that cannot be read: the reason, without the path. */
export class SummaryError extends Error {}

function schema() {
  const z = zod();
  const count = z.number().int().min(0);
  const metric = z.record(z.string(), z.number().nullable());
  const groups = z.object({ total: count, kept: count, dropped: count }).strict();
  const reward = z.object({ count, sum: z.number(), sumSq: z.number(), none: count }).strict();
  const line = z.number().int().min(1);
  const file = z
    .object({
      path: z.string(),
      format: z.string(),
      samples: count,
      groups,
      droppedByCause: z.record(z.string(), count),
      responseTokens: z.number(),
      droppedTokens: z.number(),
      reward,
      truncated: count,
      withStatus: count,
      metrics: metric,
      examples: z.record(z.string(), line),
      findings: z.record(z.string(), z.object({ count, file: z.string(), line }).strict()),
      states: z.array(z.string()).min(1),
      prompts: z.array(z.tuple([z.string(), count, count, count, z.number(), line, z.number().min(0)])),
      datasets: z.array(
        z
          .object({
            name: z.string(),
            n: z.number().int().min(1),
            samples: count,
            noneReward: count,
            truncated: count,
            line,
            metrics: metric,
            prompts: z.array(z.tuple([z.string(), count, count, z.number(), line])),
          })
          .strict(),
      ),
    })
    .strict();
  const dataset = z
    .object({
      name: z.string(),
      n: z.number().int().min(1),
      samples: count,
      noneReward: count,
      truncated: count,
      score: z.number().nullable(),
      passAtK: z.record(z.string(), z.number().nullable()),
    })
    .strict();
  const step = z
    .object({
      kind: z.enum(['rollout', 'eval']),
      step: z.number().int().min(0).nullable(),
      partial: z.boolean(),
      samples: count,
      groups,
      droppedByCause: z.record(z.string(), count),
      responseTokens: z.number(),
      droppedTokens: z.number(),
      reward,
      truncated: count,
      withStatus: count,
      datasets: z.array(dataset),
      mismatch: z
        .object({
          tokens: z.number().int().min(1),
          mean: z.number().min(0),
          p99: z.number().min(0),
          ranks: z.number().int().min(1),
          file: z.string(),
          worstSample: z.number().int().nullable(),
        })
        .strict()
        .optional(),
      files: z.array(file),
    })
    .strict()
    .refine((s) => s.files.length > 0 || (s.mismatch !== undefined && s.kind === 'rollout' && s.step !== null), {
      message: 'a step without files must be a numbered rollout step with a train_data mismatch',
      path: ['files'],
    });
  return z
    .object({
      version: z.literal(SUMMARY_VERSION),
      framework: z.enum(['miles', 'slime', 'verl', 'other']).nullable(),
      steps: z.array(step),
    })
    .strict();
}

let built: ReturnType<typeof schema> | undefined;

/** A summary's JSON text parsed, its version checked. */
function parseDocument(text: string): unknown {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new SummaryError(`not JSON: ${(err as Error).message}`);
  }
  if (doc !== null && typeof doc === 'object' && 'version' in doc && doc.version !== SUMMARY_VERSION) {
    throw new SummaryError(`summary version ${JSON.stringify(doc.version)}; this build reads version ${SUMMARY_VERSION}`);
  }
  return doc;
}

function bySchema(doc: unknown): RunSummary {
  const parsed = (built ??= schema()).safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SummaryError(`not a run summary: ${issue.path.join('.') || '(top level)'}: ${issue.message}`);
  }
  return parsed.data as RunSummary;
}

/** Parses a summary's JSON text; throws `SummaryError` naming what is wrong. */
export function parseSummary(text: string): RunSummary {
  const doc = parseDocument(text);
  // A summary as `summarize` writes it is checked by hand (zod not even loaded); any other is zod's.
  return isPlainSummary(doc) ? doc : bySchema(doc);
}

/** `parseSummary` with the zod schema alone: the reference the hand check is tested against. */
export function parseSummaryBySchema(text: string): RunSummary {
  return bySchema(parseDocument(text));
}

/** `JSON.stringify(step)` in pieces, its files written by `fileJson` (their rows from their tables). */
function* stepJson(step: StepSummary): Generator<string> {
  const keys = Object.keys(step);
  if (keys.length < 2 || keys[keys.length - 1] !== 'files') {
    yield JSON.stringify(step);
    return;
  }
  const { files, ...rest } = step;
  yield `${JSON.stringify(rest).slice(0, -1)},"files":[`;
  for (const [i, file] of files.entries()) {
    if (i > 0) yield ',';
    yield* fileJson(file);
  }
  yield ']}';
}

/** The summary as written: one line per step, so a diff of two summaries reads step by step. */
export function renderSummary(summary: RunSummary): string {
  return [...renderSummaryPieces(summary)].join('');
}

/**
 * `renderSummary`'s text piece by piece (a few thousand prompt rows at most each): a run folder's
 * summary is tens of MB, and its prompt rows are made only while their piece is.
 */
export function* renderSummaryPieces(summary: RunSummary): Generator<string> {
  yield `{"version":${summary.version},"framework":${JSON.stringify(summary.framework)},"steps":[`;
  for (const [i, step] of summary.steps.entries()) {
    yield i === 0 ? '\n' : ',\n';
    yield* stepJson(step);
  }
  yield `${summary.steps.length ? '\n' : ''}]}\n`;
}
