// zod, loaded on first use. Its module code takes ~30 ms at every start of the CLI (BENCHMARKS.md,
// "Design measurements"), while most runs never call it: records are validated by hand first
// (formats/fastValidate.ts) and zod only words the message of an invalid one; settings are
// validated only where a settings file or an editor's settings exist. `require` keeps the load
// synchronous, as validation is; the bundler turns it into a module that runs when first called.
type Zod = typeof import('zod');

let loaded: Zod['z'] | undefined;

/** zod's `z`. */
export function zod(): Zod['z'] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a load deferred to first use (above)
  return (loaded ??= (require('zod') as Zod).z);
}
