// Members recognised by their remembered leads (core/reader/keyTable.ts): compared four bytes at a
// time, a lead must match exactly its own bytes, whatever its length and wherever a byte differs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyTable, NO_LEAD, RecentTexts } from '../../../server/src/core/reader/keyTable';
import { lineBuffer } from '../../../server/src/core/reader/lineBuffers';

const ascii = (text: string) => new TextEncoder().encode(text);

/** `text` at offset `at` of a fresh buffer, as the reader hands lines over (any alignment). */
function placed(text: string, at: number, kind: 'plain' | 'scan'): Uint8Array {
  const raw = ascii(text);
  const b = kind === 'scan' ? lineBuffer(at + raw.length + 8) : new Uint8Array(at + raw.length + 8);
  b.fill(0x20);
  b.set(raw, at);
  return b.subarray(0, at + raw.length);
}

test('leadAt: a remembered lead of any length matches its own bytes at any offset, and no lead differing in one byte', () => {
  // Leads of 1 to 21 bytes (`, "k…": ` shapes and bare keys), so every split into words and a last,
  // overlapping word occurs; the value `1` follows so the lead never ends the line.
  for (let keyLength = 0; keyLength <= 16; keyLength++) {
    const key = 'abcdefghijklmnopq'.slice(0, keyLength);
    for (const lead of [`, "${key}": `, `"${key}":`, key.slice(0, 5)]) {
      if (lead.length === 0) continue;
      const table = new KeyTable([key]);
      const first = placed(`${lead}1`, 3, 'plain');
      table.keepLead(first, 3, 3 + lead.length, 0, 0);
      for (const at of [0, 1, 2, 3, 5]) {
        for (const kind of ['plain', 'scan'] as const) {
          const same = placed(`${lead}1`, at, kind);
          assert.equal(table.leadAt(same, at, same.length, 0), 0, `${JSON.stringify(lead)} at ${at}`);
          assert.equal(table.keyEnd, at + lead.length);
          for (let k = 0; k < lead.length; k++) {
            const bytes = ascii(lead);
            bytes[k] ^= 0x01;
            const other = placed(`${new TextDecoder().decode(bytes)}1`, at, kind);
            assert.equal(table.leadAt(other, at, other.length, 0), NO_LEAD, `${JSON.stringify(lead)} with byte ${k} changed, at ${at}`);
          }
        }
      }
      // A lead that would reach the end of the line is not there.
      const cut = placed(lead, 0, 'plain');
      assert.equal(table.leadAt(cut, 0, cut.length, 0), NO_LEAD);
    }
  }
});

test('leadAt: nothing remembered at a position is no lead; whitespace after the lead is skipped to the value', () => {
  const table = new KeyTable(['index']);
  const b = placed(', "index":  \t7', 0, 'plain');
  assert.equal(table.leadAt(b, 0, b.length, 0), NO_LEAD);
  table.keepLead(b, 0, ', "index": '.length, 0, 0);
  assert.equal(table.leadAt(b, 0, b.length, 1), NO_LEAD, 'another position');
  assert.equal(table.leadAt(b, 0, b.length, 0), 0);
  assert.equal(b[table.keyEnd], '7'.charCodeAt(0));
});

test('RecentTexts: the text of every value, through runs of new values (paused lookups) and repeats', () => {
  const recent = new RecentTexts();
  // 300 distinct values (past the pause), then repeats of a few, then distinct ones again, escaped too.
  const values = [
    ...Array.from({ length: 300 }, (_, k) => `Cause${k}`),
    ...Array.from({ length: 200 }, (_, k) => ['Submitted', 'TimeLimitExceeded', 'a\\"b'][k % 3]),
    ...Array.from({ length: 200 }, (_, k) => `Other${k}\\u00e9`),
    ...Array.from({ length: 100 }, () => 'Submitted'),
  ];
  for (const v of values) {
    const literal = `"${v}"`;
    const b = placed(literal, 2, 'plain');
    const want = JSON.parse(literal) as string;
    const repeated = recent.repeated(b, 2, b.length);
    if (repeated !== null) {
      assert.equal(repeated, want);
      assert.equal(recent.end, b.length);
    } else assert.equal(recent.text(b, 2, b.length), want, v);
  }
});
