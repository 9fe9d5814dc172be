// Open documents re-scan only the lines an edit touched (LineArrayDocument + DocumentScans). Properties:
// the line-array document behaves as vscode-languageserver-textdocument's TextDocument under any
// edits (text, line count, offsets, positions, ranges), and after any edits the kept line scans
// replay to exactly the ScanState a full scan of the edited text gives (samples, findings, counts,
// the pending last line), with sample offsets that read back the right bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument, type TextDocumentContentChangeEvent } from 'vscode-languageserver-textdocument';

import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../shared/protocol';
import { scanFile, type ScanState } from '../../../server/src/core/engine';
import { DocumentScans } from '../../../server/src/core/documentScans';
import { readRange } from '../../../server/src/core/reader/lineReader';
import { DocumentAccess } from '../../../server/src/server/documents/documentAccess';
import { layoutAccess, lineSource } from '../../../server/src/server/documents/openDocuments';
import { LineArrayDocument, splitLines } from '../../../server/src/server/documents/lineArrayDocument';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { milesSample, rolloutLines } from '../../lsp/fixtures';

const PATH = '/nonexistent/rollout_1.jsonl';
const SETTINGS: RolloutLensSettings = { ...DEFAULT_SETTINGS, nSamplesPerPrompt: 4, dynamicFilter: 'check_reward_nonzero_std' };

/** One edit, placed relative to the document as it is when applied. */
interface EditSpec {
  kind: number;
  at: number;
  col: number;
  text: string;
}

const FRAGMENTS = ['\n', '\r\n', '\r', '{', '}', '"', ' ', 'x', '[', ',', '\u00e9', '\ufeff', '"status": "aborted", '];

const editArb: fc.Arbitrary<EditSpec> = fc.record({
  kind: fc.nat(9),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
  col: fc.nat(400),
  text: fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 4 }).map((xs) => xs.join('')),
});

/** Turns a spec into an incremental change on `doc` (status flip, key change, line copy/delete, raw text...). */
function toChange(doc: TextDocument, spec: EditSpec): TextDocumentContentChangeEvent {
  const line = Math.min(doc.lineCount - 1, Math.floor(spec.at * doc.lineCount));
  const lineText = doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$|\r$/, '');
  const pos = (character: number) => ({ line, character });
  const find = (needle: string) => lineText.indexOf(needle);
  switch (spec.kind) {
    case 0: {
      const c = find('"status": "');
      if (c < 0) break;
      const s = c + 11;
      const e = lineText.indexOf('"', s);
      return { range: { start: pos(s), end: pos(e) }, text: lineText.slice(s, e) === 'aborted' ? 'completed' : 'aborted' };
    }
    case 1: {
      const c = find('"group_index": ');
      if (c < 0) break;
      return { range: { start: pos(c + 15), end: pos(c + 16) }, text: String(spec.col % 5) };
    }
    case 2:
      return { range: { start: pos(0), end: pos(Math.min(1, lineText.length)) }, text: spec.text.length % 2 ? '[' : '{' };
    case 3:
      return { range: { start: { line: line + 1, character: 0 }, end: { line: line + 1, character: 0 } }, text: `${lineText}\n` };
    case 4:
      return { range: { start: pos(0), end: { line: line + 1, character: 0 } }, text: '' };
    case 5:
      return {
        range: { start: { line: doc.lineCount, character: 0 }, end: { line: doc.lineCount, character: 0 } },
        text: `${milesSample({ group: spec.col % 4, index: spec.col })}${spec.text.includes('x') ? '' : '\n'}`,
      };
    case 6:
      return { text: doc.getText().replace(/\n/g, spec.text.includes('x') ? '\r\n' : '\n') };
    default:
      break;
  }
  const c = Math.min(spec.col, lineText.length);
  return { range: { start: pos(c), end: pos(Math.min(lineText.length, c + (spec.kind % 3))) }, text: spec.text };
}

async function fullScan(text: string, version: number): Promise<ScanState> {
  const access = new DocumentAccess(nodeFileAccess);
  access.set(PATH, version, () => text);
  return scanFile({ path: PATH, displayPath: PATH }, { access, settings: SETTINGS });
}

function comparable(s: ScanState) {
  const { format, kind, samples, metricsRecords, records, invalidLines, blankLines, findings, droppedFindings, endOffset, pending, lines } = s;
  return { format, kind, samples, metricsRecords, records, invalidLines, blankLines, findings, droppedFindings, endOffset, pending, lines };
}

test('LineArrayDocument: same text, lines, offsets, positions and ranges as TextDocument under any incremental or full edits', () => {
  const start = `${rolloutLines().slice(0, 4).join('\n')}\n`;
  fc.assert(
    fc.property(fc.array(editArb, { maxLength: 12 }), fc.array(fc.nat(4000), { minLength: 6, maxLength: 6 }), (edits, probes) => {
      const ref = TextDocument.create('file:///a', 'jsonl', 1, start);
      const doc = new LineArrayDocument('file:///a', 'jsonl', 1, start);
      let version = 1;
      for (const spec of edits) {
        const change = toChange(ref, spec);
        version++;
        TextDocument.update(ref, [change], version);
        doc.update([change], version);
        assert.equal(doc.getText(), ref.getText());
        assert.equal(doc.lineCount, ref.lineCount);
        assert.deepEqual(splitLines(ref.getText()).length, ref.lineCount);
        for (const p of probes) {
          const position = { line: p % (ref.lineCount + 2), character: (p * 7) % 300 };
          assert.equal(doc.offsetAt(position), ref.offsetAt(position));
          assert.deepEqual(doc.positionAt(p), ref.positionAt(p));
          const end = { line: (p * 3) % (ref.lineCount + 1), character: p % 50 };
          assert.equal(doc.getText({ start: position, end }), ref.getText({ start: position, end }));
        }
      }
    }),
    { numRuns: 300 },
  );
});

test('DocumentScans: after any edits, re-scanning only the changed lines gives the ScanState of a full scan of the edited text (invalid JSON and back, group key, status, inserted/deleted lines, CRLF, BOM, pending last line)', async () => {
  const start = `${rolloutLines().join('\n')}\n`;
  await fc.assert(
    fc.asyncProperty(fc.array(editArb, { minLength: 1, maxLength: 10 }), async (edits) => {
      const doc = new LineArrayDocument('file:///a', 'jsonl', 1, start);
      const scans = new DocumentScans();
      doc.onReplace = (from, to, count) => scans.replace(from, to, count);
      assert.ok(scans.refresh(lineSource(doc), SETTINGS));
      let version = 1;
      for (const spec of edits) {
        version++;
        doc.update([toChange(doc as unknown as TextDocument, spec)], version);
        const text = doc.getText();
        if (!scans.refresh(lineSource(doc), SETTINGS)) {
          // A lone '\r' breaks lines for the editor only: the server takes the full path then.
          assert.match(text, /\r(?!\n)/);
          continue;
        }
        const incremental = scans.scanState(PATH, PATH, SETTINGS);
        assert.deepEqual(comparable(incremental), comparable(await fullScan(text, version)));
        // Offsets read back the sample's bytes from the pinned lines (what hover re-reads).
        const access = layoutAccess(PATH, scans.layout(doc.snapshot()), nodeFileAccess);
        const bytes = Buffer.from(text, 'utf8');
        for (const s of incremental.samples) {
          const got = Buffer.from(await readRange(access, PATH, s.offset, s.byteLength));
          assert.ok(got.equals(bytes.subarray(s.offset, s.offset + s.byteLength)), `line ${s.line} reads back its bytes`);
        }
      }
    }),
    { numRuns: 150 },
  );
});

test('DocumentScans: a one-line edit re-scans that line only; inserted lines shift the rest without re-scanning them', () => {
  const doc = new LineArrayDocument('file:///a', 'jsonl', 1, `${rolloutLines().join('\n')}\n`);
  const scans = new DocumentScans();
  doc.onReplace = (from, to, count) => scans.replace(from, to, count);
  scans.refresh(lineSource(doc), SETTINGS);
  assert.equal(scans.lastRescanned, 13); // 12 lines and the empty one after the last newline
  doc.update([{ range: { start: { line: 5, character: 16 }, end: { line: 5, character: 17 } }, text: '8' }], 2);
  scans.refresh(lineSource(doc), SETTINGS);
  assert.equal(scans.lastRescanned, 1);
  doc.update([{ range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } }, text: `${milesSample({ group: 9, index: 99 })}\n` }], 3);
  scans.refresh(lineSource(doc), SETTINGS);
  assert.equal(scans.lastRescanned, 1);
  const st = scans.scanState(PATH, PATH, SETTINGS);
  assert.equal(st.samples.length, 13);
  assert.equal(st.samples.at(2).groupKey, '9');
  assert.equal(st.samples.at(6).groupKey, '8');
  assert.equal(st.samples.at(12).line, 13);
});
