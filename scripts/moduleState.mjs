// Fails (exit 1) when a module of the engine (server/src/core) keeps mutable state at module level:
// a `let` or `var`, or a `const` made with `new` or as an empty array or object, or a non-empty
// object or array literal with a camelCase name (UPPER_CASE ones are tables). Such state is shared by
// every scan and every server in a process (docs/architecture.md, "Module state"): it belongs to
// an object its caller owns. What is allowed is listed below by file and name, each with its
// reason; a listed name the engine no longer declares fails too, so the list stays true.
// Part of `npm run lint`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(new URL('..', import.meta.url).pathname);
const ENGINE = join(root, 'server/src/core');

const TABLE = 'an immutable table, filled once at load';
const LAZY = 'a lazy loader: a module or compiled code made on first use, the same for every caller';
const KEYED = 'a WeakMap cache keyed by the object it describes';

/** `file:name` → why it may stay at module level. */
export const ALLOWED = new Map([
  // Tables (never written after the module has loaded).
  ['reader/lineParse.ts:WS', TABLE],
  ['reader/keyTable.ts:WS', TABLE],
  ['reader/ruleParse.ts:WS', TABLE],
  ['reader/jsonSkip.ts:WS', TABLE],
  ['reader/jsonSkip.ts:STR_STOP', TABLE],
  ['reader/jsonSkip.ts:HEX', TABLE],
  ['reader/jsonSkip.ts:SIMPLE_ESCAPES', TABLE],
  ['reader/jsonSkip.ts:NUMBER_START', TABLE],
  ['reader/pt/numberRuns.ts:MIXED', TABLE],
  ['reader/zlibBlocks.ts:LENGTH_CODE', TABLE],
  ['reader/zlibBlocks.ts:DIST_CODE', TABLE],
  ['reader/zlibBlocks.ts:STATIC_LLEN', TABLE],
  ['reader/zlibBlocks.ts:STATIC_DLEN', TABLE],
  ['reader/ruleParse.ts:NO_BYTES', 'an empty array: nothing to write'],
  ['reader/pt/dictMap.ts:EMPTY_SHAPE', 'the shape of an empty dict: a dict given a key makes its own'],
  ['reader/pt/dictMap.ts:NO_VALUES', 'the values of an empty dict: a dict given a value makes its own array'],
  ['compare/summaryRows.ts:NO_INTS', 'an empty array: nothing to write'],
  ['compare/summaryRows.ts:NO_FLOATS', 'an empty array: nothing to write'],
  ['reader/pt/tensorValues.ts:FAST_DTYPES', TABLE],
  ['reader/pt/pickleLiterals.ts:latin1', 'a decoder: a function, no state'],
  ['locate/evalConfig.ts:plainPaths', 'path operations: functions, no state'],
  ['store/chunk.ts:STATUS_CODE', TABLE],
  ['run/plan.ts:DUMP_PATH', 'a RegExp without the g or y flag: no lastIndex carried between calls'],
  // Lazy loaders.
  ['lazy/zod.ts:loaded', LAZY],
  ['lazy/yaml.ts:loaded', LAZY],
  ['vocabulary/settingsSchema.ts:built', `${LAZY} (the settings schema)`],
  ['compare/summaryJson.ts:built', `${LAZY} (the summary schema)`],
  ['formats/validation/reference.ts:objectOf', `${LAZY} (the zod object builder)`],
  ['formats/validation/reference.ts:schemas', `${LAZY}: each member table's zod schema, built from the immutable table`],
  ['reader/lineBuffers.ts:compiled', `${LAZY} (numberRun.wat, compiled; each buffer gets its own instance)`],
  ['reader/zlibMatches.ts:compiled', `${LAZY} (zlibMatches.wat, compiled; each Level9Matcher makes its own instance)`],
  ['compare/bootstrap.ts:drawsModule', `${LAZY} (bootstrapDraws.wat, compiled; each call makes its own instance)`],
  // Caches keyed by what they describe.
  ['reader/lineBuffers.ts:skippers', `${KEYED} (a buffer's own WebAssembly instance)`],
  ['reader/lineBuffers.ts:routines', `${KEYED} (a buffer's own WebAssembly instance)`],
  ['reader/jsonSkip.ts:views', `${KEYED} (a byte array's DataView)`],
  ['detail/detailLookup.ts:sortedSamples', KEYED],
  ['detail/detailLookup.ts:groupIndex', KEYED],
  ['detail/detailLookup.ts:storeRows', KEYED],
  ['detail/detailLookup.ts:evalParts', KEYED],
  ['detail/detailLookup.ts:storeGroups', KEYED],
  ['views/runViewExcerpts.ts:places', KEYED],
  ['compare/attachedRows.ts:attached', KEYED],
  // Pools and file caches: what they hand out is one caller's at a time, or the same for everyone.
  [
    'reader/lineReader.ts:spareBuffers',
    "a pool: a buffer is one read's between take and give back, and a read never sees what an earlier one left (it reads over it)",
  ],
  [
    'reader/zlibMatches.ts:freeMatchers',
    "a pool: a matcher is one call's between take and give back; its memory holds that call's input and tokens, its stamps only its own",
  ],
  ['store/chunkPool.ts:freeChunks', "a pool: a chunk is one store's between take and give back, every column of a row written by its push"],
  ['tokenizer/tokenText.ts:cache', "a file cache: a tokenizer's texts by path, checked against the file's stamp, the same for every caller"],
]);

/** Constructors whose instances hold no state between calls. */
const STATELESS_CLASSES = new Set(['TextDecoder', 'TextEncoder']);

function sources(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.d.ts') ? [p] : [];
  });
}

// Declarations at column 0 are the module's own (a block's are indented).
const DECLARATION = /^(?:export\s+)?(let|var|const)\s+([A-Za-z_$][\w$]*)\s*(?::\s*([^=]+?))?\s*=\s*(.*)$/;

/** Why the declaration `line` is module state, or null when it is not. */
export function stateOf(line) {
  const m = DECLARATION.exec(line);
  if (m === null) return /^(?:export\s+)?(?:let|var)\s/.test(line) ? 'a module-level let/var' : null;
  const [, kind, name, type = '', init] = m;
  if (kind !== 'const') return `a module-level ${kind}`;
  if (/^(Readonly|ReadonlySet|ReadonlyMap|ReadonlyArray)\b|^readonly\s/.test(type.trim())) return null;
  if (/\bas const\b/.test(init)) return null;
  const made = /^new\s+([A-Za-z_$][\w$]*)/.exec(init);
  if (made !== null) return STATELESS_CLASSES.has(made[1]) ? null : `a module-level instance (new ${made[1]})`;
  if (/^(\[\s*\]|\{\s*\})\s*;?\s*$/.test(init)) return 'a module-level empty array or object, filled later';
  if (/^(\[|\{)/.test(init) && !/^[A-Z][A-Z0-9_]*$/.test(name)) return 'a module-level object or array with a camelCase name (a table is UPPER_CASE)';
  return null;
}

/** Each module-level declaration of the engine that is state and not allowed, and each allowed one no longer declared. */
export function moduleStateProblems(engine = ENGINE) {
  const found = new Set();
  const problems = [];
  for (const file of sources(engine)) {
    const rel = relative(engine, file).split('\\').join('/');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      const why = stateOf(line);
      if (why === null) return;
      const name = /^(?:export\s+)?(?:let|var|const)\s+([A-Za-z_$][\w$]*)/.exec(line)?.[1] ?? '?';
      const key = `${rel}:${name}`;
      if (ALLOWED.has(key)) {
        found.add(key);
        return;
      }
      problems.push(
        `server/src/core/${rel}:${i + 1}: ${name} is ${why}: move it into an object its caller owns per scan or call, or list it with its reason in scripts/moduleState.mjs`,
      );
    });
  }
  for (const key of ALLOWED.keys()) {
    if (!found.has(key)) problems.push(`scripts/moduleState.mjs: ${key} is allowed but not declared at module level any more: take it off the list`);
  }
  return problems;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problems = moduleStateProblems();
  for (const p of problems) console.error(p);
  if (problems.length > 0) {
    console.error(`${problems.length} problem(s) of module state in the engine (docs/architecture.md, "Module state").`);
    process.exit(1);
  }
}
