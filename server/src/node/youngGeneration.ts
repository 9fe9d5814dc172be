// A small young generation for the CLI and the language server: a scan's per-line objects die
// within a line, so a bigger one only adds resident memory (BENCHMARKS.md, "Scale with the number
// of samples" and "Run view over a large run folder"). V8 reads the maximum semi-space size only
// when it makes the heap, so set at run time it is ignored; the growth factor is read whenever the
// young generation grows: 1 keeps it at its first size (1 MB semi-spaces). Young-generation
// options on the node command line win.
import { setFlagsFromString } from 'node:v8';

export function keepYoungGenerationSmall(): void {
  if (!process.execArgv.some((a) => a.includes('semi-space'))) setFlagsFromString('--semi-space-growth-factor=1');
}
