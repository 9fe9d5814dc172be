// The `--format json` contract (README, "The CLI") as a strict schema (an extra or a missing field fails).
// The one copy every ring checks the CLI's output against.
import { z } from 'zod';

const FIX = z
  .object({ kind: z.literal('set-n-samples-per-eval-prompt'), dataset: z.string(), value: z.number().int().min(1), configFile: z.string().nullable() })
  .strict();

const FORMATS = [
  'miles-sample',
  'miles-pt',
  'miles-trajectory',
  'miles-eval-trials',
  'miles-metrics',
  'verl-rollout',
  'verl-validation',
  'generic',
  'unknown',
] as const;

export const CONTRACT = z
  .object({
    version: z.literal(1),
    files: z.array(
      z
        .object({
          path: z.string(),
          format: z.enum(FORMATS),
          kind: z.enum(['rollout', 'eval', 'metrics', 'unknown']),
          records: z.number().int().min(0),
          invalidLines: z.number().int().min(0),
          groups: z.object({ total: z.number().int().min(0), kept: z.number().int().min(0), dropped: z.number().int().min(0) }).strict(),
          metrics: z.record(z.string(), z.number().nullable()),
        })
        .strict(),
    ),
    findings: z.array(
      z
        .object({
          code: z.string().regex(/^[a-z]+(-[a-z]+)*$/),
          severity: z.enum(['error', 'warning', 'information', 'hint']),
          file: z.string(),
          line: z.number().int().min(1),
          message: z.string().min(1),
          group: z.string().nullable(),
          dataset: z.string().nullable(),
          fix: FIX.nullable(),
          related: z.array(z.object({ file: z.string(), line: z.number().int().min(1) }).strict()).optional(),
        })
        .strict(),
    ),
    runs: z.array(
      z
        .object({
          root: z.string(),
          framework: z.enum(['miles', 'verl', 'slime', 'other']),
          steps: z.array(
            z
              .object({
                step: z.number().int().min(0).nullable(),
                kind: z.enum(['rollout', 'eval']),
                files: z.array(z.string()).min(1),
                partial: z.boolean(),
                groups: z.object({ total: z.number().int().min(0), kept: z.number().int().min(0), dropped: z.number().int().min(0) }).strict(),
                droppedByCause: z.record(z.string(), z.number().int().min(1)),
                metrics: z.record(z.string(), z.number().nullable()),
                trainData: z
                  .object({
                    samples: z.number().int().min(0),
                    mismatch: z
                      .object({
                        tokens: z.number().int().min(0),
                        nonFinite: z.number().int().min(0),
                        mean: z.number(),
                        p50: z.number(),
                        p99: z.number(),
                        max: z.number(),
                        approximate: z.boolean(),
                        rolloutFile: z.string().nullable(),
                        worstSamples: z.array(
                          z
                            .object({
                              sample: z.number().int(),
                              line: z.number().int().min(1).nullable(),
                              mean: z.number(),
                              tokens: z.number().int(),
                              max: z.number(),
                            })
                            .strict(),
                        ),
                        worstTokens: z.array(
                          z
                            .object({
                              sample: z.number().int(),
                              line: z.number().int().min(1).nullable(),
                              position: z.number().int().min(0),
                              token: z.number().int().nullable(),
                              text: z.string().nullable().optional(),
                              rolloutLogProb: z.number().nullable(),
                              trainLogProb: z.number().nullable(),
                              absDiff: z.number(),
                            })
                            .strict(),
                        ),
                      })
                      .strict()
                      .nullable(),
                  })
                  .strict()
                  .optional(),
              })
              .strict(),
          ),
        })
        .strict(),
    ),
  })
  .strict();

export type ContractReport = z.infer<typeof CONTRACT>;

/** Parses the CLI's stdout as JSON and checks it against the contract (throws with zod's reasons). */
export function parseContract(stdout: string): ContractReport {
  return CONTRACT.parse(JSON.parse(stdout));
}
