// Writes server/src/core/formats/validation/fastChecks.ts from the member tables (after
// `npx tsc -p tsconfig.json`, which compiles the tables and the generator into out/), formatted
// by prettier.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { fastChecksSource } = require(join(root, 'out/server/src/core/formats/validation/fastSource.js'));
const { ALL_TABLES } = require(join(root, 'out/server/src/core/formats/members/all.js'));
const out = join(root, 'server/src/core/formats/validation/fastChecks.ts');
writeFileSync(out, fastChecksSource(ALL_TABLES));
execFileSync(process.execPath, [join(root, 'node_modules/prettier/bin/prettier.cjs'), '--write', out], { stdio: 'inherit' });
