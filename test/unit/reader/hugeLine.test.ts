import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { DEFAULT_SETTINGS } from '../../../shared/protocol';
import { scanFile } from '../../../server/src/core/engine';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';

import { tempDir } from './helpers';

test('reader: a 100 MB single line (token array) is read and parsed, with the lines around it', async (t) => {
  const path = join(tempDir(t), 'huge.jsonl');
  const fd = openSync(path, 'w');
  writeSync(fd, '{"group_index": 0, "index": 0, "prompt": "p", "response": "r", "status": "completed", "reward": 1.0}\n');
  writeSync(fd, '{"group_index": 0, "index": 1, "prompt": "p", "response": "r", "status": "completed", "reward": 0.0, "tokens": [');
  const block = Buffer.from('123456, '.repeat(1 << 17)); // 1 MiB
  let written = 0;
  while (written < 100 * 1024 * 1024) {
    writeSync(fd, block);
    written += block.length;
  }
  writeSync(fd, '7]}\n{"group_index": 1, "index": 2, "prompt": "q", "response": "r", "status": "aborted", "reward": null}\n');
  closeSync(fd);
  const s = await scanFile({ path, displayPath: 'huge.jsonl' }, { access: nodeFileAccess, settings: DEFAULT_SETTINGS });
  assert.equal(s.invalidLines, 0);
  assert.deepEqual(
    s.samples.toArray().map((x) => [x.line, x.index, x.reward]),
    [
      [1, 0, 1],
      [2, 1, 0],
      [3, 2, null],
    ],
  );
  assert.ok(s.samples.at(1).byteLength > 100 * 1024 * 1024);
});
