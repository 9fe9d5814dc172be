// The baseline of the throughput benchmarks (BENCHMARKS.md): a plain Node `JSON.parse` per line
// over the same file, read in 1 MiB chunks like the engine reads it.
// Usage: node bench/baseline.mjs [--count-invalid] <file>... (files one after another; with
// --count-invalid a line JSON.parse refuses is counted, not fatal)
import { eachLine } from './reference.mjs';

const countInvalid = process.argv.includes('--count-invalid');
let records = 0;
let aborted = 0;
let invalid = 0;
for (const path of process.argv.slice(2).filter((a) => a !== '--count-invalid')) {
  eachLine(path, (text) => {
    let sample;
    try {
      sample = JSON.parse(text);
    } catch (err) {
      if (!countInvalid) throw err;
      invalid++;
      return;
    }
    records++;
    if (sample.status === 'aborted') aborted++;
  });
}
process.stdout.write(`${JSON.stringify(countInvalid ? { records, aborted, invalid } : { records, aborted })}\n`);
