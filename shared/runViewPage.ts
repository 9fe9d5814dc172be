// The HTML document of the run view (and of the sample view and the diff page, each with its own model and script): the same page in the VS Code
// webview and in the `rollout-lens report` file (and `rollout-lens diff --out`). The model travels as JSON inside a non-executed
// <script type="application/json">, with `<`, `>` and `&` escaped so no log string can close the
// element; the chart script and the styles carry a nonce, and the Content-Security-Policy allows
// nothing else (no remote source, no inline handler). The script renders every log string with
// textContent (webview/src/runView.ts).
import type { DiffChartData } from './diffViewModel';
import type { RunView } from './runViewModel';
import type { SampleView } from './sampleViewModel';

export interface RunViewPageOptions {
  model: RunView | SampleView | DiffChartData;
  /** Id of the JSON element the page script reads (default `run-view-model`). */
  dataId?: string;
  /** Title shown in the page (escaped here). */
  title: string;
  nonce: string;
  /** The chart script: inline text (the report), or a URI the webview may load (VS Code). */
  script: { inline: string } | { src: string };
  styles: string;
  /** The webview's own source (`webview.cspSource`), allowed for the script's URI; omitted in the report. */
  cspSource?: string;
  /** Static HTML after the script's part of the page (the report's findings), built and escaped by the caller. */
  appendix?: string;
  /** Static HTML before the script's part of the page (the diff's gate), built and escaped by the caller. */
  prelude?: string;
}

/** Text for an HTML text node or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON that cannot end its <script> element or open a comment in it. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** A script's text made safe to inline: `</script` cannot occur in it. */
export function inlineScript(text: string): string {
  return text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

export function contentSecurityPolicy(nonce: string, cspSource?: string): string {
  const scripts = cspSource ? `'nonce-${nonce}' ${cspSource}` : `'nonce-${nonce}'`;
  return `default-src 'none'; script-src ${scripts}; style-src 'nonce-${nonce}'; img-src data:; font-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'`;
}

export function runViewHtml(options: RunViewPageOptions): string {
  const { nonce } = options;
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(nonce)) throw new Error('nonce: expected at least 16 base64 characters');
  const script =
    'inline' in options.script
      ? `<script nonce="${nonce}">${inlineScript(options.script.inline)}</script>`
      : `<script nonce="${nonce}" src="${escapeHtml(options.script.src)}"></script>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(nonce, options.cspSource))}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(options.title)}</title>
<style nonce="${nonce}">${options.styles.replace(/<\//g, '<\\/')}</style>
</head>
<body>
<header><h1>${escapeHtml(options.title)}</h1><p id="summary"></p></header>
${options.prelude ? `${options.prelude}\n` : ''}<main id="app"></main>
${options.appendix ? `${options.appendix}\n` : ''}<script type="application/json" id="${options.dataId ?? 'run-view-model'}">${jsonForScript(options.model)}</script>
${script}
</body>
</html>
`;
}
