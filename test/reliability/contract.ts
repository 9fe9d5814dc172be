// The `--format json` contract of issue 2 as a strict schema (an extra or a missing field fails),
// and what "safe for a terminal" means for the CLI's text output. Shared by the reliability tests.
import { z } from 'zod';

const FIX = z
  .object({ kind: z.literal('set-n-samples-per-eval-prompt'), dataset: z.string(), value: z.number().int().min(1), configFile: z.string().nullable() })
  .strict();

const FORMATS = ['miles-sample', 'miles-trajectory', 'miles-eval-trials', 'miles-metrics', 'verl-rollout', 'verl-validation', 'generic', 'unknown'] as const;

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
  })
  .strict();

export type ContractReport = z.infer<typeof CONTRACT>;

/** Parses the CLI's stdout as JSON and checks it against the contract (throws with zod's reasons). */
export function parseContract(stdout: string): ContractReport {
  return CONTRACT.parse(JSON.parse(stdout));
}

/**
 * Characters that act on a terminal or hide text: C0 controls except `\n`, DEL, C1 controls,
 * line/paragraph separators, bidi embeddings, overrides and isolates, BOM.
 */
export const TERMINAL_UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\ufeff]/;

/** The first unsafe character and where it is, for an assertion message; null when clean. */
export function firstUnsafe(text: string): string | null {
  const m = TERMINAL_UNSAFE.exec(text);
  if (!m) return null;
  const at = m.index;
  return `U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`;
}
