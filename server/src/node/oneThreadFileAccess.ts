// `FileAccess` for the CLI on one thread (`--jobs 1`): stat, open and close on the calling thread,
// reads on libuv's I/O threads. Each asynchronous call is a hand-over to an I/O thread and a wait
// for it to be scheduled, which a thread with nothing else to do only loses; a run folder of small
// files pays ~6 of them a file (BENCHMARKS.md, "Comparing runs: summarize and diff"). The reads
// stay asynchronous: the line reader asks for the next chunk before it scans the last one, so a
// big file on a slow disk is read while it is scanned.
import { closeSync, openSync, read } from 'node:fs';

import type { FileAccess, OpenFile } from '../core/seams/fileAccess';
import { settled, syncFileAccess } from './syncFileAccess';

function readAhead(fd: number): OpenFile['read'] {
  return (buffer, bufferOffset, length, position) =>
    new Promise((resolve, reject) => read(fd, buffer, bufferOffset, length, position, (err, n) => (err ? reject(err) : resolve(n))));
}

export const oneThreadFileAccess: FileAccess = {
  ...syncFileAccess,
  open: (path) =>
    settled((): OpenFile => {
      const fd = openSync(path, 'r');
      return { read: readAhead(fd), close: () => settled(() => closeSync(fd)) };
    }),
};
