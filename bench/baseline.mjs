// The baseline of issue 7: a plain Node `JSON.parse` per line over the same file, read in 1 MiB
// chunks like the engine reads it. Usage: node bench/baseline.mjs <file>... (files one after another)
import { closeSync, openSync, readSync } from 'node:fs';

const buf = Buffer.allocUnsafe(1 << 20);
let records = 0;
let aborted = 0;
for (const path of process.argv.slice(2)) {
  const fd = openSync(path, 'r');
  let position = 0;
  let carry = [];
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, position);
    if (n <= 0) break;
    let i = 0;
    for (;;) {
      const nl = buf.indexOf(10, i);
      if (nl < 0 || nl >= n) break;
      let text;
      if (carry.length > 0) {
        carry.push(buf.subarray(i, nl));
        text = Buffer.concat(carry).toString('utf8');
        carry = [];
      } else {
        text = buf.toString('utf8', i, nl);
      }
      const sample = JSON.parse(text);
      records++;
      if (sample.status === 'aborted') aborted++;
      i = nl + 1;
    }
    if (i < n) carry.push(Buffer.from(buf.subarray(i, n)));
    position += n;
  }
  closeSync(fd);
}
process.stdout.write(`${JSON.stringify({ records, aborted })}\n`);
