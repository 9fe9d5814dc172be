// Starts a CommonJS bundle from V8's code cache. Node compiles a file from its source at every
// start, and the CLI's bundle is large enough for that to be a good part of a short check's time
// (BENCHMARKS.md, "Start-up from the code cache"); V8 can instead take the bytecode an earlier run
// made. The build makes that cache with a check of the example run (esbuild.mjs), so there are no
// writes at run time. V8 takes a cache whose source has the same length and whose V8 version and
// flags are the same; a cache that does not fit is rejected and the bundle is compiled from its
// source as Node would. The length alone would take a bundle edited in place (one character for
// another) for the one the cache was made from, and run the old code; so the cache starts with the
// size and modification time of the bundle it was made from and is used only while they are the
// bundle's. (Hashing the bytes would take back a good part of what the cache saves: BENCHMARKS.md,
// "Design measurements".)
import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script } from 'node:vm';

import { keepYoungGenerationSmall } from './youngGeneration';

/** The head of a code cache: the bundle's size and modification time (ms), two float64s. */
const STAMP_BYTES = 16;

/** Where the code cache of `bundle` is kept: beside it. */
export function codeCachePath(bundle: string): string {
  return `${bundle}.codecache`;
}

/** Node's CommonJS wrapper: the bundle sees the same five names as under `require`. */
function wrapped(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;
}

/** The bundle's bytes and, read from the same open file, its stamp. */
function readBundle(bundle: string): { source: Buffer; stamp: Buffer } {
  const fd = openSync(bundle, 'r');
  try {
    const { size, mtimeMs } = fstatSync(fd);
    const source = Buffer.alloc(size);
    let got = 0;
    while (got < size) {
      const n = readSync(fd, source, got, size - got, got);
      if (n === 0) break;
      got += n;
    }
    const stamp = Buffer.alloc(STAMP_BYTES);
    stamp.writeDoubleLE(size, 0);
    stamp.writeDoubleLE(mtimeMs, 8);
    return { source: source.subarray(0, got), stamp };
  } finally {
    closeSync(fd);
  }
}

export interface CompiledBundle {
  script: Script;
  /** The bundle's size and modification time when it was read: the head of its code cache. */
  stamp: Buffer;
  /** Whether V8 compiled it from the cache (false: no cache, another bundle's, or rejected). */
  fromCache: boolean;
}

/** Compiles `source` (the bytes of `bundle`, read at `stamp`) with `cache` when it was made from them. */
export function compileBundle(bundle: string, source: Buffer, stamp: Buffer, cache: Buffer | null): CompiledBundle {
  const fits = cache !== null && cache.length > STAMP_BYTES && stamp.equals(cache.subarray(0, STAMP_BYTES));
  const script = new Script(wrapped(source.toString('utf8')), { filename: bundle, cachedData: fits ? cache.subarray(STAMP_BYTES) : undefined });
  return { script, stamp, fromCache: fits && script.cachedDataRejected === false };
}

/**
 * The code cache of `compiled` as it is now (with the bytecode of every function run so far),
 * written beside `bundle`: to a temporary file renamed over the old one, so that a process
 * starting meanwhile reads a whole cache or none.
 */
export function writeCodeCache(bundle: string, compiled: CompiledBundle): void {
  const path = codeCachePath(bundle);
  const temporary = `${path}.${process.pid}`;
  writeFileSync(temporary, Buffer.concat([compiled.stamp, compiled.script.createCachedData()]));
  renameSync(temporary, path);
}

function readIfAny(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch {
    return null;
  }
}

/** `./name.js`: a file in the requiring bundle's own folder. */
const SIBLING = /^\.\/[^/\\]+\.js$/;

type ModuleFunction = (exports: unknown, require: NodeJS.Require, module: { exports: unknown }, filename: string, dirname: string) => void;

/**
 * Runs bundles as Node would `require` them, each compiled from its code cache when that fits. A
 * bundle's `require` of a file beside it (`./zod.js`: the bundles' lazy parts, esbuild.mjs) is
 * served the same way; anything else goes to Node's own `require`.
 */
export class BundleLoader {
  private readonly modules = new Map<string, { exports: unknown }>();
  /** Every bundle run, in order: what the caches are written from. */
  readonly compiled = new Map<string, CompiledBundle>();

  /** `writeCache`: write every bundle's cache as the process exits (the build's run). */
  constructor(writeCache: boolean) {
    // V8 trusts a cache's contents: a damaged one (a bad copy, a disk error) that passes its other
    // checks ends the process with a fatal error. With this flag, set before any cache is made or
    // read, V8 writes a checksum into each cache and rejects one that does not match.
    setFlagsFromString('--verify-snapshot-checksum');
    if (writeCache) process.once('exit', () => this.compiled.forEach((compiled, bundle) => writeCodeCache(bundle, compiled)));
  }

  /** The exports of `bundle` (an absolute path), run on its first load. */
  load(bundle: string): unknown {
    const known = this.modules.get(bundle);
    if (known !== undefined) return known.exports;
    const { source, stamp } = readBundle(bundle);
    const compiled = compileBundle(bundle, source, stamp, readIfAny(codeCachePath(bundle)));
    this.compiled.set(bundle, compiled);
    const module = { exports: {} as unknown };
    this.modules.set(bundle, module);
    const run = compiled.script.runInThisContext() as ModuleFunction;
    try {
      run.call(module.exports, module.exports, this.requireFor(bundle), module, bundle, dirname(bundle));
    } catch (err) {
      // As Node's `require`: a bundle that failed is not kept, and a later load tries it again.
      this.modules.delete(bundle);
      throw err;
    }
    return module.exports;
  }

  private requireFor(bundle: string): NodeJS.Require {
    const nodeRequire = createRequire(bundle);
    const dir = dirname(bundle);
    const require = ((id: string) => (SIBLING.test(id) ? this.load(join(dir, id.slice(2))) : nodeRequire(id))) as NodeJS.Require;
    return Object.assign(require, { resolve: nodeRequire.resolve, cache: nodeRequire.cache, main: nodeRequire.main, extensions: nodeRequire.extensions });
  }
}

/**
 * The CLI's start (dist/cli.js): its V8 flags first, since a code cache fits only the flags it was
 * made under and the build's run set them too; then `bundle`.
 */
export function startCli(bundle: string, writeCache: boolean): BundleLoader {
  keepYoungGenerationSmall();
  const loader = new BundleLoader(writeCache);
  loader.load(bundle);
  return loader;
}
