// Helpers of the tests that read `.pt` dumps: the fixtures' dumps, and a dump's scan either way the
// engine can read its miles samples, for tests that compare the two: rows straight from the pickle
// (`direct`) or each sample's JSON line fed to the collector (`ReferencePaths.ptLines`).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { scanPtDump } from '../../../server/src/core/scan/ptDumpScan';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { DEFAULT_SETTINGS } from '../../../shared/protocol';

/** The scan's fields, its rows as records (the resume state left out: it holds the collector). */
export async function scanPtWay(path: string, direct: boolean, chunkSize?: number) {
  const st = await nodeFileAccess.stat(path);
  const s = await scanPtDump(
    { path, displayPath: path },
    { access: nodeFileAccess, settings: DEFAULT_SETTINGS, chunkSize },
    { id: st.id, size: st.size, mtimeMs: st.mtimeMs },
    { ptLines: !direct },
  );
  const { samples, resume: _resume, ...rest } = s;
  return { ...rest, samples: samples.toArray() };
}

/** Every `.pt` file below `dir`. */
export function ptFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return ptFiles(p);
    return name.endsWith('.pt') ? [p] : [];
  });
}
