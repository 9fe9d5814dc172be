// Writes server/src/core/store/fieldColumns.ts from the record columns (store/recordColumns.ts), after
// `npx tsc -p tsconfig.json` (which compiles the table and the generator into out/), formatted by
// prettier.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { fieldColumnsSource } = require(join(root, 'out/server/src/core/store/columnSource.js'));
const { RECORD_COLUMNS } = require(join(root, 'out/server/src/core/store/recordColumns.js'));
const out = join(root, 'server/src/core/store/fieldColumns.ts');
writeFileSync(out, fieldColumnsSource(RECORD_COLUMNS));
execFileSync(process.execPath, [join(root, 'node_modules/prettier/bin/prettier.cjs'), '--write', out], { stdio: 'inherit' });
