// The JSON contracts of `rollout-lens summarize` and `rollout-lens diff --format json`
// (docs/compare.md) as strict schemas: an extra or a missing field fails.
import { z } from 'zod';

const count = z.number().int().min(0);
const line = z.number().int().min(1);
const metrics = z.record(z.string(), z.number().nullable());
const groups = z.object({ total: count, kept: count, dropped: count }).strict();
const reward = z.object({ count, sum: z.number(), sumSq: z.number(), none: count }).strict();

const FILE = z
  .object({
    path: z.string(),
    format: z.enum(['miles-sample', 'miles-pt', 'miles-trajectory', 'miles-eval-trials', 'verl-rollout', 'verl-validation', 'generic']),
    samples: count,
    groups,
    droppedByCause: z.record(z.string(), count),
    responseTokens: z.number().min(0),
    droppedTokens: z.number().min(0),
    reward,
    truncated: count,
    withStatus: count,
    metrics,
    examples: z.record(z.string(), line),
    findings: z.record(z.string().regex(/^[a-z]+(-[a-z]+)*$/), z.object({ count: z.number().int().min(1), file: z.string(), line }).strict()),
    states: z.array(z.string()).min(1),
    prompts: z.array(z.tuple([z.string(), count, z.number().int().min(1), count, z.number(), line, z.number().min(0)])),
    datasets: z.array(
      z
        .object({
          name: z.string(),
          n: z.number().int().min(1),
          samples: count,
          noneReward: count,
          truncated: count,
          line,
          metrics,
          prompts: z.array(z.tuple([z.string(), z.number().int().min(1), count, z.number(), line])),
        })
        .strict(),
    ),
  })
  .strict();

export const SUMMARY_CONTRACT = z
  .object({
    version: z.literal(3),
    framework: z.enum(['miles', 'slime', 'verl', 'other']).nullable(),
    steps: z.array(
      z
        .object({
          kind: z.enum(['rollout', 'eval']),
          step: z.number().int().min(0).nullable(),
          partial: z.boolean(),
          samples: count,
          groups,
          droppedByCause: z.record(z.string(), z.number().int().min(1)),
          responseTokens: z.number().min(0),
          droppedTokens: z.number().min(0),
          reward,
          truncated: count,
          withStatus: count,
          datasets: z.array(
            z
              .object({
                name: z.string(),
                n: z.number().int().min(1),
                samples: count,
                noneReward: count,
                truncated: count,
                score: z.number().nullable(),
                passAtK: z.record(z.string().regex(/^pass@\d+$/), z.number().min(0).max(1).nullable()),
              })
              .strict(),
          ),
          mismatch: z
            .object({
              tokens: z.number().int().min(1),
              mean: z.number().min(0),
              p99: z.number().min(0),
              ranks: z.number().int().min(1),
              file: z.string().min(1),
              worstSample: z.number().int().nullable(),
            })
            .strict()
            .optional(),
          files: z.array(FILE),
        })
        .strict()
        .refine((s) => s.files.length > 0 || s.mismatch !== undefined, 'a step without files has a train_data mismatch'),
    ),
  })
  .strict();

const delta = z.object({ baseline: z.number().nullable(), candidate: z.number().nullable(), delta: z.number().nullable() }).strict();
const intervalDelta = delta.extend({ interval: z.tuple([z.number(), z.number()]).nullable() }).strict();
const place = z.object({ file: z.string(), line }).strict();
const side = z.object({ source: z.string(), framework: z.string().nullable(), steps: count, samples: count }).strict();
const kind = z.enum(['rollout', 'eval']);
const stepNo = z.number().int().nullable();

export const DIFF_CONTRACT = z
  .object({
    version: z.literal(1),
    baseline: side,
    candidate: side,
    unpaired: z.object({ baseline: count, candidate: count }).strict(),
    steps: z.array(
      z
        .object({
          kind,
          baseline: stepNo,
          candidate: stepNo,
          groups: delta,
          samples: delta,
          dropRate: delta,
          zeroStdShare: delta,
          rewardMean: delta,
          truncatedRatio: delta,
          noneRewardRatio: delta,
          causes: z.record(z.string(), delta),
        })
        .strict(),
    ),
    causes: z.array(
      z
        .object({
          reason: z.string(),
          status: z.enum(['new', 'vanished', 'both']),
          groups: delta,
          ratePoints: delta,
          evidence: z.object({ baseline: z.array(place), candidate: z.array(place) }).strict(),
        })
        .strict(),
    ),
    datasets: z.array(
      z
        .object({
          name: z.string(),
          baselineStep: stepNo,
          candidateStep: stepNo,
          n: delta,
          samples: delta,
          noneReward: delta,
          truncated: delta,
          shrank: z.boolean(),
          pairedPrompts: count,
          score: intervalDelta,
          passAtK: z.record(z.string().regex(/^pass@\d+$/), intervalDelta),
          evidence: z.object({ baseline: place.nullable(), candidate: place.nullable() }).strict(),
        })
        .strict(),
    ),
    prompts: z
      .object({
        paired: count,
        flips: z.record(z.string(), z.number().int().min(1)),
        listed: z.array(
          z
            .object({
              kind,
              dataset: z.string().nullable(),
              id: z.string(),
              baselineStep: stepNo,
              candidateStep: stepNo,
              from: z.string(),
              to: z.string(),
              baseline: place,
              candidate: place,
            })
            .strict(),
        ),
        omitted: count,
      })
      .strict(),
    gate: z
      .object({
        passed: z.boolean(),
        failures: z.array(
          z
            .object({
              rule: z.enum([
                'new-drop-cause',
                'drop-rate-increase',
                'score-regression',
                'pass-at-k-regression',
                'eval-denominator-shrank',
                'new-metric-mismatch',
                'mismatch-increase',
              ]),
              message: z.string().min(1),
              evidence: z.array(place),
            })
            .strict(),
        ),
      })
      .strict(),
  })
  .strict();

const stepPlace = z.object({ step: stepNo, file: z.string(), line }).strict();
const example = z
  .object({ id: z.string(), groups: z.number().int().min(1), tokens: z.number().min(0), step: stepNo, file: z.string(), source: z.string(), line })
  .strict();
const examples = z.array(example).max(5);

/** A run's prompts across its steps, as the run view model and `prompts --format json` carry it. */
export const PROMPT_LEARNING_CONTRACT = z
  .object({
    prompts: count,
    groups: count,
    neverLearned: z.object({ count, tokens: z.number().min(0), examples }).strict(),
    solvedStillSampled: z.object({ count, groups: count, tokens: z.number().min(0), examples }).strict(),
    waste: z.object({ tokens: z.number().min(0), totalTokens: z.number().min(0), groups: count, examples }).strict(),
  })
  .strict();

export const PROMPTS_CONTRACT = z
  .object({
    version: z.literal(1),
    source: z.string(),
    framework: z.enum(['miles', 'slime', 'verl', 'other']).nullable(),
    rolloutSteps: count,
    learning: PROMPT_LEARNING_CONTRACT,
    prompts: z.array(
      z
        .object({
          id: z.string(),
          groups: z
            .array(
              z
                .object({
                  step: stepNo,
                  state: z.string().min(1),
                  samples: z.number().int().min(1),
                  passes: count,
                  tokens: z.number().min(0),
                  file: z.string(),
                  line,
                })
                .strict(),
            )
            .min(1),
          firstSolved: stepPlace.nullable(),
          regressions: z.array(z.object({ solvedStep: stepNo, unsolved: stepPlace }).strict()),
          stepsDropped: count,
          wastedTokens: z.number().min(0),
          tokens: z.number().min(0),
        })
        .strict(),
    ),
  })
  .strict();
