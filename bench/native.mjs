// The native line validator of bench/floors.mjs (`bench/native/validateLines.cpp`), built once into
// `bench/.data/native/`: simdjson's sources come from its npm package (a pinned version whose
// tarball must match the pinned sha512) and are compiled here with g++, never committed. Where the
// compiler or the package cannot be had, the floors bench leaves the column out and says why.
//   node bench/native.mjs   builds it (if needed) and prints its path, or why it cannot be built
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { root } from './measure.mjs';

const PACKAGE = 'simdjson@0.9.2';
const INTEGRITY = 'sha512-CW97acb8ty4EcxJGsCTrgxh1iiqLKbcuaIAte4DjPdoytK2ps1cRN1HpBJjIzqaL5cn1m/Dqc4AqA6NlKPPKKA==';
const dir = join(root, 'bench/.data/native');
const source = join(root, 'bench/native/validateLines.cpp');
const binary = join(dir, 'validateLines');

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.error) return { ok: false, why: `${cmd}: ${r.error.code ?? r.error.message}` };
  if (r.status !== 0) return { ok: false, why: `${cmd} ${args[0]} exited ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}` };
  return { ok: true, stdout: r.stdout };
}

/** simdjson's sources, unpacked from the pinned package: the folder holding simdjson.h and simdjson.cpp. */
function simdjsonSources() {
  const unpacked = join(dir, PACKAGE.replace('@', '-'));
  const src = join(unpacked, 'package/simdjson/src');
  if (existsSync(join(src, 'simdjson.cpp'))) return { src };
  mkdirSync(dir, { recursive: true });
  const packed = run('npm', ['pack', PACKAGE, '--pack-destination', dir, '--json']);
  if (!packed.ok) return { why: packed.why };
  let filename;
  try {
    filename = JSON.parse(packed.stdout)[0].filename;
  } catch {
    return { why: `npm pack ${PACKAGE} printed no file name` };
  }
  const tarball = join(dir, filename);
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (integrity !== INTEGRITY) {
    rmSync(tarball, { force: true });
    return { why: `${PACKAGE}'s tarball is not the pinned one (${integrity})` };
  }
  rmSync(unpacked, { recursive: true, force: true });
  mkdirSync(unpacked, { recursive: true });
  const untar = run('tar', ['xzf', tarball, '-C', unpacked]);
  if (!untar.ok) return { why: untar.why };
  return existsSync(join(src, 'simdjson.cpp')) ? { src } : { why: `${PACKAGE} has no simdjson/src/simdjson.cpp` };
}

/** `{ path }` of the built validator, or `{ why }` it cannot be built here. */
export function nativeValidator() {
  if (existsSync(binary) && statSync(binary).mtimeMs >= statSync(source).mtimeMs) return { path: binary };
  const compiler = run('g++', ['--version']);
  if (!compiler.ok) return { why: `no C++ compiler (${compiler.why})` };
  const sources = simdjsonSources();
  if (!sources.src) return { why: sources.why };
  // -march=native: the floor is what this machine can do; simdjson picks its kernel at run time anyway
  const built = run('g++', ['-O3', '-march=native', '-std=c++17', '-w', `-I${sources.src}`, '-o', binary, source, join(sources.src, 'simdjson.cpp')]);
  return built.ok ? { path: binary } : { why: built.why };
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  const v = nativeValidator();
  console.log(v.path ?? `cannot build the native validator: ${v.why}`);
}
