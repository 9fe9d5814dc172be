// zod, loaded on first use. Its module code was a large share of every start of the CLI
// (BENCHMARKS.md, "Design measurements"), while most runs never call it: records are validated
// by hand first (formats/validation/fast.ts) and zod only words the message of an invalid one;
// settings are validated only where a settings file or an editor's settings exist. `require`
// keeps the load synchronous, as validation is; esbuild.mjs puts zod in a file of its own.
type Zod = typeof import('zod');

let loaded: Zod['z'] | undefined;

/** zod's `z`. */
export function zod(): Zod['z'] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a load deferred to first use (above)
  return (loaded ??= (require('zod') as Zod).z);
}
