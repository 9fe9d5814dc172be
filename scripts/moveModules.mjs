// Moves TypeScript modules and renames identifiers across the repository, from a plan (JSON):
//   { "moves": { "server/src/core/old.ts": "server/src/core/room/new.ts", … },
//     "identifiers": { "oldName": "newName", … } }
// Files are moved with `git mv`; every relative import specifier (import, export … from, import(),
// require()) that reaches a moved module, or sits in a moved file, is rewritten from its file's new
// place; mentions of a moved path in comments and docs (`core/old.ts`, `room/old.ts`, a basename
// unique in the repository) are rewritten to the new path; identifiers are renamed as whole words.
//   node scripts/moveModules.mjs <plan.json>          move, then rewrite
//   node scripts/moveModules.mjs <plan.json> --check  list what would change, change nothing
// Run again after merging a branch that still imports the old paths: moves already made are
// skipped and the branch's specifiers, mentions and names are rewritten the same way.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';

const root = posix.normalize(join(dirname(new URL(import.meta.url).pathname), '..'));
const [planFile, flag] = process.argv.slice(2);
if (!planFile) {
  console.error('usage: node scripts/moveModules.mjs <plan.json> [--check]');
  process.exit(2);
}
const dryRun = flag === '--check';
const plan = JSON.parse(readFileSync(planFile, 'utf8'));
const moves = new Map(Object.entries(plan.moves ?? {}));
const identifiers = Object.entries(plan.identifiers ?? {});

// What is rewritten: tracked text files, not test data, the example run or the plans (whose old
// paths and names must stay as written for the next run).
const SKIP = /^(test\/fixtures|examples|scripts\/moves)\/|(^|\/)package-lock\.json$|\.(png|svg|vsix|pt|gz|zip)$/;
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && !SKIP.test(f) && join(root, f) !== resolve(planFile) && existsSync(join(root, f)) && statSync(join(root, f)).isFile());

/** A file's place before this run: an old path whose move is still to be made keeps it. */
const newPathOf = (file) => moves.get(file) ?? file;

const withoutTs = (p) => p.replace(/\.ts$/, '');
function specifierFor(fromFile, targetNoExt, suffix) {
  let s = posix.relative(posix.dirname(fromFile), targetNoExt);
  if (!s.startsWith('.')) s = `./${s}`;
  return s + suffix;
}

/** The module a relative specifier of `file` (at its old place) names, as a repository path with `.ts`, or null. */
function targetOf(file, spec) {
  const suffix = /\.(js|ts)$/.exec(spec)?.[0] ?? '';
  const base = posix.normalize(posix.join(posix.dirname(file), suffix ? spec.slice(0, -suffix.length) : spec));
  return { module: `${base}.ts`, suffix };
}

const SPECIFIER = /((?:\bfrom|\bimport|\brequire\(|\bimport\()\s*)(['"])(\.{1,2}\/[^'"\n]*)\2/g;

function rewriteSpecifiers(file, text) {
  const to = newPathOf(file);
  return text.replace(SPECIFIER, (whole, lead, quote, spec) => {
    const { module, suffix } = targetOf(file, spec);
    const moved = moves.get(module);
    if (moved) return `${lead}${quote}${specifierFor(to, withoutTs(moved), suffix)}${quote}`;
    if (to === file) return whole;
    // A moved file's import of a module that stays (or of anything else: a folder, a .wat, JSON).
    const target = existsSync(join(root, module)) ? withoutTs(module) : posix.normalize(posix.join(posix.dirname(file), spec));
    return `${lead}${quote}${specifierFor(to, target, existsSync(join(root, module)) ? suffix : '')}${quote}`;
  });
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const basenames = new Map();
for (const f of tracked) basenames.set(posix.basename(f), (basenames.get(posix.basename(f)) ?? 0) + 1);

// Mentions: `…core/old(.ts)`, `room/old(.ts)` relative to the engine root, and a unique basename.
const mentionRules = [];
for (const [from, to] of moves) {
  const core = /^server\/src\/(core\/.*)$/.exec(from);
  const fromRel = withoutTs(core ? core[1] : from);
  const toRel = withoutTs(core ? /^server\/src\/(core\/.*)$/.exec(to)[1] : to);
  const end = '(?=(?:\\.ts)?(?![\\w/-]))';
  mentionRules.push([new RegExp(`(?<![\\w-])${escape(fromRel)}${end}`, 'g'), toRel]);
  const inCore = fromRel.replace(/^core\//, '');
  const toInCore = toRel.replace(/^core\//, '');
  if (inCore.includes('/')) mentionRules.push([new RegExp(`(?<![\\w./-])${escape(inCore)}${end}`, 'g'), toInCore]);
  const base = posix.basename(from);
  if (basenames.get(base) === 1) {
    // In its own folder a module is named by its basename; moved to another, by its path in the engine.
    const replacement = posix.dirname(from) === posix.dirname(to) ? posix.basename(to) : `${toInCore}.ts`;
    if (replacement !== base) mentionRules.push([new RegExp(`(?<![\\w./-])${escape(base)}(?![\\w-])`, 'g'), replacement]);
  }
}
const identifierRules = identifiers.map(([from, to]) => [new RegExp(`(?<![\\w$])${escape(from)}(?![\\w$])`, 'g'), to]);

function rewriteProse(text) {
  for (const [re, to] of mentionRules) text = text.replace(re, to);
  return text;
}

/** Mentions and names are rewritten outside import specifiers; specifiers by resolution only. */
function rewrite(file, text) {
  const parts = [];
  let at = 0;
  const code = CODE.test(file);
  if (code) {
    for (const m of text.matchAll(SPECIFIER)) {
      parts.push({ prose: true, text: text.slice(at, m.index) });
      parts.push({ prose: false, text: m[0] });
      at = m.index + m[0].length;
    }
  }
  parts.push({ prose: true, text: text.slice(at) });
  let out = parts.map((p) => (p.prose ? rewriteProse(p.text) : p.text)).join('');
  if (code) out = rewriteSpecifiers(file, out);
  for (const [re, to] of identifierRules) out = out.replace(re, to);
  return out;
}

const changed = [];
const contents = new Map();
for (const file of tracked) {
  const text = readFileSync(join(root, file), 'utf8');
  const out = rewrite(file, text);
  contents.set(file, out);
  if (out !== text) changed.push(file);
}
const pending = [...moves].filter(([from]) => existsSync(join(root, from)));
for (const [from, to] of pending) console.log(`${dryRun ? 'would move' : 'move'} ${from} -> ${to}`);
for (const file of changed) console.log(`${dryRun ? 'would rewrite' : 'rewrite'} ${newPathOf(file)}`);
if (dryRun) process.exit(0);

for (const [from, to] of pending) {
  execFileSync('mkdir', ['-p', posix.dirname(join(root, to))]);
  execFileSync('git', ['mv', from, to], { cwd: root });
}
for (const file of changed) writeFileSync(join(root, newPathOf(file)), contents.get(file));
console.log(`${pending.length} moved, ${changed.length} rewritten`);
