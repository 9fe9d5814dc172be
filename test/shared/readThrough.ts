// A FileAccess for tests that watch or disturb reads: Node's own, with every read of an opened file
// passed through a function of the test's.
import type { FileAccess } from '../../server/src/core/seams/fileAccess';
import { nodeFileAccess } from '../../server/src/node/nodeFileAccess';

/** nodeFileAccess whose reads go through `read(path, next)`; `next()` does the real read and resolves with the bytes read. */
export function readThrough(read: (path: string, next: () => Promise<number>) => Promise<number>): FileAccess {
  return {
    ...nodeFileAccess,
    async open(path) {
      const file = await nodeFileAccess.open(path);
      return {
        read: (buffer, offset, length, position) => read(path, () => file.read(buffer, offset, length, position)),
        close: () => file.close(),
      };
    },
  };
}
