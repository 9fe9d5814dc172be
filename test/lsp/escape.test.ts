// Hover text from logs must render inert. Checked with a real CommonMark renderer (markdown-it,
// with raw HTML and linkify ON, the most permissive setting) rather than by pattern: whatever the
// input, the rendered output must be one paragraph (or one code block) of plain text equal to
// the input as shown, with no tag, link, image or entity of its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { codeBlock, codeSpan, inline, value } from '../../server/src/server/features/escape';
import { revealInvisible, truncate } from '../../shared/unsafeText';

type Renderer = { render(src: string): string };
// markdown-it: a devDependency, the CommonMark renderer VS Code's own markdown preview uses.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const MarkdownIt = require('markdown-it') as (options: object) => Renderer;
const md = MarkdownIt({ html: true, linkify: true, typographer: false });

function decodeEntities(html: string): string {
  return html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** A paragraph loses trailing spaces and tabs (only those: U+00A0 and friends stay). */
function paragraphText(text: string): string {
  return text.replace(/[ \t]+$/, '');
}

/** Renders `Label: <escaped>` and returns the paragraph's text, failing on any markup. */
function renderInline(text: string): string {
  const html = md.render(`Label: ${inline(text, 100_000)}`).replace(/\n$/, '');
  const m = /^<p>([\s\S]*)<\/p>$/.exec(html);
  assert.ok(m, `not one plain paragraph: ${html}`);
  assert.ok(!m[1].includes('<'), `markup in output: ${html}`);
  return decodeEntities(m[1]);
}

function renderBlock(text: string): string {
  const html = md.render(codeBlock(text, 100_000)).trim();
  const m = /^<pre><code class="language-text">([\s\S]*)<\/code><\/pre>$/.exec(html);
  assert.ok(m, `not one code block: ${html}`);
  assert.ok(!m[1].includes('<'), `markup in output: ${html}`);
  return decodeEntities(m[1]);
}

const INJECTIONS = [
  '[click me](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22rm%20-rf%20~%5Cn%22%7D)',
  '[x](command:rolloutLens.applyFix)',
  '![img](https://evil.example/pixel.png)',
  '<command:workbench.action.reloadWindow>',
  '<https://evil.example>',
  'https://evil.example/steal?x=1',
  'www.evil.example',
  'mail me: someone@evil.example',
  'file:///etc/passwd',
  '[local](file:///etc/passwd)',
  '[js](javascript:alert(1))',
  '[ref]\n\n[ref]: command:foo',
  '<img src=x onerror=alert(1)>',
  '<script>alert(1)</script>',
  '<a href="command:foo">click</a>',
  '<!-- hidden -->',
  '&lt;b&gt; &#x3c;script&#x3e; &amp;',
  '**bold** _em_ ~~strike~~ `code` ``double``',
  '```\nfenced\n```',
  '~~~\ntilde\n~~~',
  '# Heading\n\nSetext\n===',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '> quote\n- item\n1. item',
  '    indented code',
  'trailing backslash \\',
  '\\[not a link\\](command:x)',
  'hard  \nbreak',
  '$x^2$ and [^1] footnote\n\n[^1]: command:foo',
  'right-to-left \u202Eevil.exe\u202C and zero\u200Bwidth and \uFEFFbom',
  'terminal \u001b[31mred\u001b[0m \u0007 bell \u0000 nul \u009b csi',
  'line1\r\nline2\rline3\u2028line4',
  'lone surrogate \ud800 here',
  'emoji 🎉 and 中文 and é',
  '`starts with a backtick',
  'ends with a backtick`',
  '`` two then ```` four then ` one',
  '`[x](command:y)`',
  ' spaced both sides ',
  '``',
];

/** Renders `Label: <code span>` and returns the code's text, failing on any other markup. */
function renderSpan(text: string): string {
  const html = md.render(`Label: ${codeSpan(text, 100_000)}`).trim();
  const m = /^<p>Label: <code>([\s\S]*)<\/code><\/p>$/.exec(html);
  assert.ok(m, `not one code span: ${html}`);
  assert.ok(!m[1].includes('<'), `markup in output: ${html}`);
  return decodeEntities(m[1]);
}

/** CommonMark strips one space each side of a code span when both are there (and it is not all spaces). */
function spanText(text: string): string {
  return revealInvisible(text, false);
}

for (const [i, text] of INJECTIONS.entries()) {
  test(`code span renders injection #${i} as inert text`, () => {
    assert.equal(renderSpan(text), spanText(text));
  });
  test(`inline escaping renders injection #${i} as inert text: ${JSON.stringify(text).slice(0, 40)}`, () => {
    assert.equal(renderInline(text), paragraphText(`Label: ${revealInvisible(text, false)}`));
  });
  test(`code block renders injection #${i} as inert text`, () => {
    assert.equal(renderBlock(text), `${revealInvisible(text, true)}\n`);
  });
}

test('a code span is fenced by a run longer than any inside, padded only when an end needs it', () => {
  assert.equal(codeSpan('metadata.exit_status'), '`metadata.exit_status`');
  assert.equal(codeSpan('a ``` b'), '````a ``` b````');
  assert.equal(codeSpan('`x'), '`` `x ``');
  assert.equal(codeSpan(''), '` `');
});

test('a code block cannot be closed from inside by a longer backtick run', () => {
  const text = 'a\n``````\n[x](command:foo)\n``````';
  assert.equal(renderBlock(text), `${text}\n`);
});

test('invisible and direction characters become visible <U+XXXX> labels', () => {
  assert.equal(revealInvisible('a\u202Eb\u0000c\u001bd', false), 'a<U+202E>b<U+0000>c<U+001B>d');
  assert.equal(revealInvisible('a\nb', false), 'a↵b');
  assert.equal(revealInvisible('a\r\nb', true), 'a\nb');
});

test('truncate never splits a surrogate pair and says how much was cut', () => {
  assert.equal(truncate('ab🎉cd', 3), 'ab… (4 more characters)');
  assert.equal(truncate('abc', 3), 'abc');
});

test('value() shows strings quoted, numbers as Python prints non-finite ones, null as (none)', () => {
  const shown = (v: unknown) =>
    decodeEntities(
      md
        .render(`Label: ${value(v)}`)
        .trim()
        .replace(/^<p>Label: |<\/p>$/g, ''),
    );
  assert.equal(shown('x[y]'), '"x[y]"');
  assert.equal(shown(NaN), 'nan');
  assert.equal(shown(-Infinity), '-inf');
  assert.equal(shown(null), '(none)');
});

test('property: any string renders as exactly its visible text, inline and in a code block', () => {
  const alphabet = fc.constantFrom(...'[]()<>!`*_~#|\\:/.@&;=-+ \n\r\tabc\u202E\u0000\ud800'.split(''));
  const arb = fc.oneof(
    fc.string({ unit: alphabet, maxLength: 60 }),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
  fc.assert(
    fc.property(arb, (text) => {
      assert.equal(renderInline(text), paragraphText(`Label: ${revealInvisible(text, false)}`));
      assert.equal(renderBlock(text), `${revealInvisible(text, true)}\n`);
      if (text.trim() !== '') assert.equal(renderSpan(text), spanText(text));
    }),
    { numRuns: 2000 },
  );
});
