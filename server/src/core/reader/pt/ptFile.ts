// One `.pt` file (torch.save's zip) → its samples, one by one, and what could not be read
// (docs/pt.md). Reads through FileAccess only; runs nothing the file names.
import type { FileAccess, OpenFile } from '../../seams/fileAccess';

import { PickleMachine, type PickleOptions, type PickleProblem } from './pickleMachine';
import { PyDict, PyList } from './values';
import { entryData, findDataPkl, readZipDirectory, type ZipEntry, ZipError } from './zip';

export interface PtReadResult {
  /** The root value (miles: a dict of rollout_id, metadata, samples), or undefined if unreadable. */
  root: unknown;
  /** The root's entries other than `samples` (rollout_id, metadata), when the root is a dict. */
  header: Map<unknown, unknown>;
  samples: number;
  /** Zip and pickle problems; `blocked` ones name a callable that was not run. */
  problems: PickleProblem[];
  cancelled: boolean;
  /** The storage records (`data/<key>` under the pickle's stem, stored) by that name. */
  records: Map<string, ZipEntry>;
  /** The storages' byte order: `<stem>/byteorder` (torch ≥ 1.13 writes it), little without one. */
  littleEndian: boolean;
}

/** True for the first bytes of a zip (a torch.save `.pt` since PyTorch 1.6). */
export function looksLikeZip(head: Uint8Array): boolean {
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
}

export async function readPt(access: FileAccess, path: string, options: PickleOptions): Promise<PtReadResult> {
  const size = (await access.stat(path)).size;
  const file = await access.open(path);
  const fail = (message: string): PtReadResult => ({
    root: undefined,
    header: new Map(),
    samples: 0,
    problems: [{ kind: 'error', message, offset: 0, sample: 0 }],
    cancelled: false,
    records: new Map(),
    littleEndian: true,
  });
  try {
    let entries;
    try {
      entries = await readZipDirectory(file, size);
    } catch (err) {
      if (err instanceof ZipError) return fail(err.message);
      throw err;
    }
    const pkl = findDataPkl(entries);
    if (!pkl)
      return fail(
        `the zip holds no <name>/data.pkl, so it is not a torch.save file (entries: ${
          entries
            .slice(0, 5)
            .map((e) => e.name)
            .join(', ') || 'none'
        })`,
      );
    if (pkl.method !== 0) return fail(`${pkl.name} is compressed (zip method ${pkl.method}); torch.save stores it uncompressed`);
    let data;
    try {
      data = await entryData(file, size, pkl);
    } catch (err) {
      if (err instanceof ZipError) return fail(err.message);
      throw err;
    }
    const records = storageRecords(entries, pkl.name.slice(0, -'data.pkl'.length));
    const storages = new Map<string, number>();
    for (const [name, e] of records) storages.set(name.slice('data/'.length), e.size);
    const littleEndian = (await byteOrder(file, size, entries, `${pkl.name.slice(0, -'data.pkl'.length)}byteorder`)) !== 'big';
    const machine = new PickleMachine(file, data.dataOffset, data.size, { ...options, storages });
    const r = await machine.run();
    const header = new Map<unknown, unknown>();
    if (r.value instanceof PyDict) for (const [k, v] of r.value.map) if (!(k === 'samples' && v instanceof PyList)) header.set(k, v);
    return { root: r.value, header, samples: r.samples, problems: r.problems, cancelled: r.cancelled, records, littleEndian };
  } finally {
    await file.close();
  }
}

/**
 * torch.save's storage records beside the pickle: `<stem>/data/<key>`, by `data/<key>`. Only
 * stored ones: a compressed record is not a byte range of the file, so no view can read it.
 */
function storageRecords(entries: readonly ZipEntry[], prefix: string): Map<string, ZipEntry> {
  const out = new Map<string, ZipEntry>();
  for (const e of entries)
    if (e.method === 0 && e.name.startsWith(`${prefix}data/`) && e.name.length > prefix.length + 5) out.set(e.name.slice(prefix.length), e);
  return out;
}

/** The text of the `byteorder` record (`little` or `big`), or null without a readable one. */
async function byteOrder(file: OpenFile, size: number, entries: readonly ZipEntry[], name: string): Promise<string | null> {
  const e = entries.find((x) => x.name === name);
  if (e === undefined || e.method !== 0 || e.size > 16) return null;
  try {
    const at = await entryData(file, size, e);
    const buf = new Uint8Array(at.size);
    const n = await file.read(buf, 0, at.size, at.dataOffset);
    return new TextDecoder().decode(buf.subarray(0, n)).trim();
  } catch (err) {
    if (err instanceof ZipError) return null;
    throw err;
  }
}
