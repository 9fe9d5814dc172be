// What the scanner builds from a line (everything else is validated and skipped). One rule serves
// every format, so detection can look at any line before the format is known:
// - top level: scalars (short strings), the `prompt`/`input` value as a hash (prompt identity);
// - `metadata`: its scalars (`exit_status`, `dataset`, `dataset_name`, `instance_id`, `reward`, ...);
// - `reward` and `metadata.reward`: object rewards keep their named scalar values;
// - `metrics`: the scalar members of a metrics line;
// - the `generic` format's mapped JSON pointers (settings `fields.*`).
import type { GenericFieldMap } from '../vocabulary/settings';
import type { Child, Rule } from '../reader/jsonRule';

import { parsePointer } from './pointer';

/** Longest string built as text; longer ones (responses, long labels) stay `Skipped`. */
export const MAX_STRING = 1024;

function scalars(children?: [string, Child][]): Rule {
  return { scalars: true, maxString: MAX_STRING, children: children ? new Map(children) : null };
}

/** The rule for every format, extended with the generic mapping's paths. */
export function buildRule(fields: GenericFieldMap): Rule {
  const root = scalars([
    ['prompt', 'hash'],
    ['input', 'hash'],
    ['label', 'hash'],
    ['reward', scalars()],
    ['metadata', scalars([['reward', scalars()]])],
    ['metrics', scalars()],
    // miles' per-sample metric inputs (docs/semantics.md#miles-sample-metrics).
    ['loss_mask', 'sum'],
    ['weight_versions', 'list'],
    ['prefix_cache_info', scalars()],
    ['response', 'tail'],
  ]);
  for (const [name, pointer] of Object.entries(fields)) {
    if (typeof pointer !== 'string') continue;
    let path: string[];
    try {
      path = parsePointer(pointer);
    } catch {
      continue; // reported by the settings validation
    }
    addPath(root, path, name === 'prompt' ? 'hash' : scalars());
  }
  return root;
}

function addPath(root: Rule, path: string[], leaf: Rule | 'hash'): void {
  let at = root;
  path.forEach((key, k) => {
    const last = k === path.length - 1;
    at.children ??= new Map();
    const existing = at.children.get(key);
    if (last) {
      // A prompt pointer hashes; any other leaf needs its scalars (or an existing, larger rule).
      if (existing === undefined || leaf === 'hash') at.children.set(key, leaf);
      return;
    }
    if (existing === undefined || typeof existing === 'string') {
      const next = scalars();
      at.children.set(key, next);
      at = next;
    } else {
      at = existing;
    }
  });
}
