// The engine's root holds its root doors and nothing else (docs/architecture.md, "Rooms"): a module
// only the engine uses belongs in a room, so a new file at the root fails here until it is moved
// or named a door in scripts/engineRooms.mjs (the lists lint holds hosts to).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../../shared/repoRoot';

interface EngineRooms {
  ENGINE_DOORS: string[];
  ENGINE_VOCABULARY: string[];
  ENGINE_SEAMS: string[];
  READER_MAY_IMPORT: string[];
  ROOT_DOORS: string[];
}

const core = join(repoRoot(), 'server/src/core');

async function engineRooms(): Promise<EngineRooms> {
  // A path, not a literal: the lists are plain JavaScript, shared with eslint.config.mjs.
  return (await import(pathToFileURL(join(repoRoot(), 'scripts/engineRooms.mjs')).href)) as EngineRooms;
}

test("the engine's root holds exactly the root doors", async () => {
  const { ROOT_DOORS } = await engineRooms();
  const rootFiles = readdirSync(core)
    .filter((name) => statSync(join(core, name)).isFile())
    .map((name) => name.replace(/\.ts$/, ''))
    .sort();
  assert.deepEqual(rootFiles, [...ROOT_DOORS].sort());
});

test('every door, vocabulary, seam and reader exception names a module or a folder that exists', async () => {
  const rooms = await engineRooms();
  const entries = [...rooms.ENGINE_DOORS, ...rooms.ENGINE_VOCABULARY, ...rooms.ENGINE_SEAMS, ...rooms.READER_MAY_IMPORT];
  const missing = entries.filter((entry) => {
    if (entry.endsWith('/.+')) {
      const folder = join(core, entry.slice(0, -'/.+'.length));
      return !existsSync(folder) || readdirSync(folder).length === 0;
    }
    return !existsSync(join(core, `${entry}.ts`));
  });
  assert.ok(entries.length >= 10, `the lists were read (${entries.length} entries)`);
  assert.deepEqual(missing, []);
});
