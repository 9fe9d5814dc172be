// Writes the store's generated files (server/src/core/store/fieldRows.ts, fieldColumns.ts,
// fieldRowView.ts) from the record columns (store/recordColumns.ts), after `npx tsc -p tsconfig.json`
// (which compiles the table and the generator into out/), formatted by prettier.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { storeColumnSources } = require(join(root, 'out/server/src/core/store/columnSource.js'));
const { RECORD_COLUMNS } = require(join(root, 'out/server/src/core/store/recordColumns.js'));
const written = Object.entries(storeColumnSources(RECORD_COLUMNS)).map(([name, text]) => {
  const out = join(root, 'server/src/core/store', name);
  writeFileSync(out, text);
  return out;
});
execFileSync(process.execPath, [join(root, 'node_modules/prettier/bin/prettier.cjs'), '--write', ...written], { stdio: 'inherit' });
