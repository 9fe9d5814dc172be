// The findings catalog (server/src/core/vocabulary/catalog.ts) and docs/diagnostics.md name the same codes:
// each code has its section (the diagnostics' links point at it), and each section a code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CATALOG } from '../../../server/src/core/vocabulary/catalog';
import { repoRoot } from '../../lsp/fixtures';

test('every catalog code has a docs/diagnostics.md section, and every section a code', () => {
  const docs = readFileSync(join(repoRoot(), 'docs/diagnostics.md'), 'utf8');
  const sections = [...docs.matchAll(/^## ([a-z0-9-]+)\s*$/gm)].map((m) => m[1]);
  assert.deepEqual(
    Object.keys(CATALOG).filter((c) => !sections.includes(c)),
    [],
  );
  assert.deepEqual(
    sections.filter((s) => !Object.hasOwn(CATALOG, s)),
    [],
  );
});
