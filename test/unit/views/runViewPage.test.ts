// The run view page (shared/runViewPage.ts): a log string in the model cannot end the JSON element
// or open markup, the Content-Security-Policy admits only the nonce'd script and style, and a
// script that spells `</script>` cannot close its element early.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentSecurityPolicy, escapeHtml, inlineScript, jsonForScript, runViewHtml } from '../../../shared/runViewPage';
import type { RunView } from '../../../shared/runViewModel';

const NONCE = 'abcdefghijklmnopqrstuvwx';
const hostile = '</script><script>alert(1)</script><!-- \u2028 & "q"';

function model(reason: string): RunView {
  return {
    version: 3,
    reasons: [{ reason, metric: null, kind: 'aborted', cause: reason, causeClass: 'unclassified', reward: null, family: 'other', groups: 1 }],
    steps: [],
    eval: [],
    samples: {},
    samplesOmitted: {},
    findings: {},
    findingRows: [{ code: 'group-dropped', severity: 'warning', message: reason, file: reason, source: reason, line: 1 }],
    findingRowsOmitted: 0,
    runs: [
      {
        root: reason,
        framework: 'miles',
        headline: reason,
        prompts: {
          prompts: 1,
          groups: 1,
          neverLearned: { count: 1, tokens: 3, examples: [{ id: reason, groups: 1, tokens: 3, step: 1, file: reason, source: reason, line: 1 }] },
          solvedStillSampled: { count: 0, groups: 0, tokens: 0, examples: [] },
          waste: { tokens: 3, totalTokens: 3, groups: 1, examples: [] },
        },
        promptGroupsOmitted: 0,
        mismatch: null,
      },
    ],
    headline: reason,
    logged: [],
    totals: { files: 1, samples: 0, groups: 0, kept: 0, dropped: 0, droppedTokens: 0, totalTokens: 0 },
  };
}

test('jsonForScript: no <, > or & survives, and the value parses back unchanged', () => {
  const json = jsonForScript({ s: hostile });
  assert.doesNotMatch(json, /[<>&\u2028]/);
  assert.deepEqual(JSON.parse(json), { s: hostile });
});

test('the page: one JSON element, the title escaped, the script and style nonce-d, a strict CSP', () => {
  const html = runViewHtml({ model: model(hostile), title: `run ${hostile}`, nonce: NONCE, script: { inline: 'var a = "</script>";' }, styles: 'p{}' });
  assert.equal(html.match(/<script/g)?.length, 2);
  assert.equal(html.match(/<\/script>/g)?.length, 2);
  assert.ok(html.includes(`<title>run ${escapeHtml(hostile)}</title>`));
  assert.ok(html.includes(`<script nonce="${NONCE}">var a = "<\\/script>";</script>`));
  assert.ok(html.includes(`<style nonce="${NONCE}">p{}</style>`));
  const csp = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)![1];
  assert.equal(csp, escapeHtml(contentSecurityPolicy(NONCE)));
  assert.match(contentSecurityPolicy(NONCE), /^default-src 'none'; script-src 'nonce-abcdefghijklmnopqrstuvwx'; style-src 'nonce-abcdefghijklmnopqrstuvwx';/);
  const data = /<script type="application\/json" id="run-view-model">([^<]*)<\/script>/.exec(html)![1];
  assert.equal((JSON.parse(data) as RunView).reasons[0].reason, hostile);
});

test('the webview page loads its script by URI from the webview source only', () => {
  const html = runViewHtml({
    model: model('x'),
    title: 't',
    nonce: NONCE,
    script: { src: 'vscode-resource://x/runView.js?a=1&b="' },
    styles: '',
    cspSource: 'vscode-webview://abc',
  });
  assert.ok(html.includes(`<script nonce="${NONCE}" src="vscode-resource://x/runView.js?a=1&#38;b=&#34;"></script>`));
  assert.match(contentSecurityPolicy(NONCE, 'vscode-webview://abc'), /script-src 'nonce-[^']+' vscode-webview:\/\/abc;/);
});

test('a weak nonce is refused; inlineScript breaks comment openers too', () => {
  assert.throws(() => runViewHtml({ model: model('x'), title: 't', nonce: 'short', script: { inline: '' }, styles: '' }), /nonce/);
  assert.equal(inlineScript('a</SCRIPT>b<!--c'), 'a<\\/SCRIPT>b<\\!--c');
});
