// The baseline of the throughput benchmarks (BENCHMARKS.md): a plain Node `JSON.parse` per line
// over the same file, read in 1 MiB chunks like the engine reads it.
// Usage: node bench/baseline.mjs <file>... (files one after another)
import { eachLine } from './reference.mjs';

let records = 0;
let aborted = 0;
for (const path of process.argv.slice(2)) {
  eachLine(path, (text) => {
    const sample = JSON.parse(text);
    records++;
    if (sample.status === 'aborted') aborted++;
  });
}
process.stdout.write(`${JSON.stringify({ records, aborted })}\n`);
