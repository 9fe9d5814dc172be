// Token ids → text from a run's Hugging Face tokenizer.json (core/tokenizer/tokenText.ts), against
// subsets of two real tokenizers (test/fixtures/real/tokenizers, scripts/gen-tokenizer-fixture.mjs):
// Qwen3's (BPE, ByteLevel decoder: the GPT-2 byte ↔ unicode table) and a LlamaTokenizer-class
// SentencePiece BPE (`▁` for a space, `<0xNN>` byte tokens; its ids are Mistral 7B's). The texts asserted are what those vocabularies hold
// (Qwen3's `Ġworld` is " world", its `è` the single byte 0xE8). Partial UTF-8 reads as `\xNN`,
// control and direction characters as escapes, markup as the text it is; the file is read once per
// version, and what is not a tokenizer.json is said.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadSettingsFile } from '../../../server/src/core/locate/settingsFile';
import { loadTokenTexts, parseTokenizerJson, TokenizerError, visibleText } from '../../../server/src/core/tokenizer/tokenText';
import { nodeFileAccess } from '../../../server/src/node/nodeFileAccess';
import { repoRoot } from '../../lsp/fixtures';

const TOKENIZERS = join(repoRoot(), 'test/fixtures/real/tokenizers');
const bytes = (...b: number[]) => Uint8Array.from(b);
const utf8 = (s: string) => new TextEncoder().encode(s);

test("Qwen3's tokenizer (ByteLevel): ids to the text its vocabulary holds, partial UTF-8 as bytes", async () => {
  const t = await loadTokenTexts(nodeFileAccess, join(TOKENIZERS, 'qwen3'));
  assert.equal(t.path, join(TOKENIZERS, 'qwen3', 'tokenizer.json'), 'a folder (a checkpoint) names its tokenizer.json');
  assert.equal(t.decoder, 'ByteLevel');
  const texts: [number, string][] = [
    [9707, 'Hello'],
    [1879, ' world'], // Ġworld
    [220, ' '],
    [262, '   '],
    [198, '\\n'], // Ċ
    [197, '\\t'], // ĉ
    [271, '\\n\\n'],
    [15946, '中'], // ä¸Ń: E4 B8 AD
    [117249, '越来越少'],
    [131721, 'فرق'],
    [30565, ' crops'],
    [7734, '<script'],
    [164, '\\xE8'], // è: the lead byte of a 3-byte character, alone
    [378, '\\xE2\\x80'], // âĢ: two of three bytes
    [151643, '<|endoftext|>'], // added tokens: their content
    [151645, '<|im_end|>'],
  ];
  for (const [id, text] of texts) assert.equal(t.text(id), text, `id ${id}`);
  assert.equal(t.text(9708), null, 'an id the file does not hold');
  assert.equal(t.text(-1), null);
  const source = JSON.parse(readFileSync(join(TOKENIZERS, 'qwen3', 'source.json'), 'utf8')) as { kept: { vocabulary: number; addedTokens: number } };
  assert.equal(t.size, source.kept.vocabulary + source.kept.addedTokens);
});

test('a SentencePiece tokenizer (Llama style): ▁ is a space, <0xNN> a byte', async () => {
  const t = await loadTokenTexts(nodeFileAccess, join(TOKENIZERS, 'sentencepiece', 'tokenizer.json'));
  assert.equal(t.decoder, 'Replace, ByteFallback, Fuse, Strip');
  assert.equal(t.text(22557), ' Hello', '▁Hello: a token keeps its own leading space (Strip trims a whole sequence)');
  assert.equal(t.text(1526), ' world');
  assert.equal(t.text(28705), ' ');
  assert.equal(t.text(3186), 'ette');
  assert.equal(t.text(13), '\\n', '<0x0A>');
  assert.equal(t.text(231), '\\xE4', '<0xE4>: a lead byte alone');
  assert.equal(t.text(30010), '공');
  assert.equal(t.text(1), '<s>');
});

test('visible text: whole characters as they are, broken UTF-8 as bytes, invisible and direction characters escaped', () => {
  assert.equal(visibleText(utf8('<script>alert(1)</script>')), '<script>alert(1)</script>', 'markup is text (the views render text only)');
  assert.equal(visibleText(utf8('a\u202Eb\u2066c\u200Bd\uFEFF')), 'a\\u{202E}b\\u{2066}c\\u{200B}d\\u{FEFF}', 'no token reorders the text around it');
  assert.equal(visibleText(utf8('\u2028\u2029')), '\\u{2028}\\u{2029}');
  assert.equal(visibleText(utf8('\x1b[31m\x7f\u0085\r')), '\\x1B[31m\\x7F\\x85\\r');
  assert.equal(visibleText(utf8('a\\xE8')), 'a\\\\xE8', 'a backslash is escaped: an escape is never ambiguous');
  assert.equal(visibleText(utf8('😀é')), '😀é');
  assert.equal(visibleText(bytes(0xf0, 0x9f, 0x98)), '\\xF0\\x9F\\x98', 'a 4-byte character cut short');
  assert.equal(visibleText(bytes(0xc0, 0x80)), '\\xC0\\x80', 'an overlong form');
  assert.equal(visibleText(bytes(0xed, 0xa0, 0x80)), '\\xED\\xA0\\x80', 'a surrogate');
  assert.equal(visibleText(bytes(0xf4, 0x90, 0x80, 0x80)), '\\xF4\\x90\\x80\\x80', 'past U+10FFFF');
  assert.equal(visibleText(bytes(0x80, 0x41, 0xe4, 0xb8, 0xad)), '\\x80A中', 'a stray continuation byte, then whole characters');
});

test('hostile token strings in a tokenizer.json stay text; the decoders of other tokenizers', () => {
  // ByteLevel: âĢ® is E2 80 AE, U+202E (right-to-left override).
  const hostile = parseTokenizerJson(
    JSON.stringify({
      added_tokens: [{ id: 5, content: '<img src=x onerror=alert(1)>', special: true }],
      decoder: { type: 'ByteLevel' },
      model: { type: 'BPE', vocab: { '<script>': 0, 'âĢ®': 1, 'Ġ"\\': 2, big: 1e12, neg: -3, str: '7' }, merges: [['a', 'b']] },
    }),
    'hostile.json',
  );
  assert.equal(hostile.text(0), '<script>');
  assert.equal(hostile.text(1), '\\u{202E}');
  assert.equal(hostile.text(2), ' "\\\\');
  assert.equal(hostile.text(5), '<img src=x onerror=alert(1)>');
  assert.equal(hostile.size, 4, 'ids that are no vocabulary’s (1e12, -3, "7") are passed over');
  // Metaspace (SentencePiece), a Unigram vocabulary ([piece, score] by id), WordPiece's ##.
  const meta = parseTokenizerJson(
    '{"decoder": {"type": "Metaspace", "replacement": "▁"}, "model": {"type": "Unigram", "vocab": [["<unk>", 0], ["▁Hi", -1.5], ["\\u2581\\u2581x", -2]]}}',
    'm.json',
  );
  assert.deepEqual([meta.text(0), meta.text(1), meta.text(2)], ['<unk>', ' Hi', '  x']);
  const wp = parseTokenizerJson(
    '{"model": {"type": "WordPiece", "vocab": {"##ing": 0, "play": 1}}, "decoder": {"type": "WordPiece", "prefix": "##"}}',
    'w.json',
  );
  assert.deepEqual([wp.text(0), wp.text(1)], ['ing', 'play']);
  const none = parseTokenizerJson('{"model": {"vocab": {"Ġa": 0}}}', 'n.json');
  assert.deepEqual([none.decoder, none.text(0)], ['none', 'Ġa'], 'no decoder: the token as the vocabulary writes it');
  for (const [text, why] of [
    ['[1, 2]', /not a JSON object/],
    ['{"model": {"vocab": {}}}', /no model\.vocab and no added_tokens/],
    ['{"model": {"vocab": {"a": 1', /expected ,|expected }/],
    ['{"model": {"vocab": {"a": "', /unterminated string/],
    ['', /not a JSON object/],
  ] as const) {
    assert.throws(
      () => parseTokenizerJson(text, 'bad.json'),
      (err: unknown) => err instanceof TokenizerError && /^bad\.json: /.test(err.message) && why.test(err.message),
      text,
    );
  }
});

test('a tokenizer is read once per file version; a relative setting is relative to its base, in a settings file to its folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rl-tokenizer-'));
  try {
    const file = join(dir, 'ckpt', 'tokenizer.json');
    mkdirSync(join(dir, 'ckpt'));
    writeFileSync(file, '{"model": {"vocab": {"Ġone": 0}}, "decoder": {"type": "ByteLevel"}}');
    const a = await loadTokenTexts(nodeFileAccess, 'ckpt', dir);
    assert.equal(a.text(0), ' one');
    assert.equal(await loadTokenTexts(nodeFileAccess, join(dir, 'ckpt')), a, 'the same file: the table already read');
    writeFileSync(file, '{"model": {"vocab": {"Ġtwo!": 0}}, "decoder": {"type": "ByteLevel"}}');
    const b = await loadTokenTexts(nodeFileAccess, file);
    assert.notEqual(b, a, 'a changed file is read again');
    assert.equal(b.text(0), ' two!');
    await assert.rejects(
      loadTokenTexts(nodeFileAccess, join(dir, 'missing')),
      (err: unknown) => err instanceof TokenizerError && /missing: cannot read the tokenizer \(ENOENT\)/.test(err.message),
    );
    await assert.rejects(
      loadTokenTexts(nodeFileAccess, dir),
      (err: unknown) => err instanceof TokenizerError && /tokenizer\.json: cannot read/.test(err.message),
      'a folder without one',
    );
    writeFileSync(join(dir, 'rollout-lens.yaml'), 'tokenizer: ckpt\n');
    assert.equal((await loadSettingsFile(join(dir, 'rollout-lens.yaml'), nodeFileAccess)).tokenizer, join(dir, 'ckpt'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
