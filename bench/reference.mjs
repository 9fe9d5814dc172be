// The full-parse reference for the correctness check: every record's extracted fields computed
// with JSON.parse, independently of the engine's scanner and schemas.
import { closeSync, openSync, readSync } from 'node:fs';

/** Calls `onLine(text, lineNumber)` for each line of the file. */
export function eachLine(path, onLine) {
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(1 << 20);
  let position = 0;
  let carry = [];
  let line = 0;
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, position);
      if (n <= 0) break;
      let i = 0;
      for (;;) {
        const nl = buf.indexOf(10, i);
        if (nl < 0 || nl >= n) break;
        const piece = buf.subarray(i, nl);
        const text = carry.length ? Buffer.concat([...carry, piece]).toString('utf8') : piece.toString('utf8');
        carry = [];
        onLine(text, ++line);
        i = nl + 1;
      }
      if (i < n) carry.push(Buffer.from(buf.subarray(i, n)));
      position += n;
    }
  } finally {
    closeSync(fd);
  }
}

/** What the engine must extract from a miles `Sample.to_dict()` line (docs/semantics.md#formats, #reward-value). */
export function referenceRecord(text, line) {
  const o = JSON.parse(text);
  const meta = o.metadata ?? {};
  // JSON.parse loses int vs float: read the reward literal from the text (the generator writes
  // `"reward": ` once per line, at the top level).
  const literal = /"reward": (-?[0-9.eE+-]+|null)[,}]/.exec(text)?.[1] ?? null;
  return {
    line,
    groupKey: o.group_index === null || o.group_index === undefined ? null : String(o.group_index),
    index: o.index ?? null,
    dataset: o.dataset ?? meta.dataset ?? meta.dataset_name ?? o.data_source ?? null,
    status: o.status ?? null,
    aborted: o.status === 'aborted',
    reward: typeof o.reward === 'number' ? o.reward : null,
    rewardIsInt: literal !== null && literal !== 'null' && !/[.eE]/.test(literal),
    cause: meta.exit_status ? meta.exit_status : null,
    responseLength: o.response_length ?? null,
    step: o.rollout_id ?? null,
    prompt: JSON.stringify(o.prompt),
  };
}
