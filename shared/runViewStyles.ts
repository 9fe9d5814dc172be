// Styles of the run view page (shared/runViewPage.ts). VS Code's theme variables when in a
// webview, plain colours in the report.
export const RUN_VIEW_STYLES = `
:root { color-scheme: light dark; }
body { font-family: var(--vscode-font-family, system-ui, sans-serif); font-size: var(--vscode-font-size, 13px);
  color: var(--vscode-foreground, #1f2328); background: var(--vscode-editor-background, #ffffff); margin: 0 16px 32px; }
h1 { font-size: 1.4em; margin: 16px 0 4px; }
h2 { font-size: 1.1em; margin: 24px 0 8px; }
#summary { margin: 0 0 8px; opacity: 0.85; }
section { margin-bottom: 16px; }
.chart { position: relative; height: 300px; max-width: 1100px; }
.chart.small { height: 220px; }
table { border-collapse: collapse; margin: 4px 0 12px; }
th, td { text-align: left; padding: 3px 10px 3px 0; vertical-align: top; border-bottom: 1px solid rgba(128,128,128,0.25); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.text { max-width: 420px; white-space: pre-wrap; overflow-wrap: anywhere; unicode-bidi: plaintext; }
code, .mono { font-family: var(--vscode-editor-font-family, ui-monospace, monospace); unicode-bidi: isolate; }
.wrong { color: #cf222e; }
.class-infrastructure { color: #bc4c00; }
.class-policy { color: #0969da; }
.muted { opacity: 0.7; }
details { margin: 4px 0; }
details.highlight > summary { outline: 2px solid #bf8700; }
summary { cursor: pointer; }
a.reveal, td.reveal { cursor: pointer; text-decoration: underline; }
.headline { font-weight: 600; margin: 0 0 4px; }
.data-time { margin: 0 0 8px; opacity: 0.75; }
.data-time button { margin-left: 8px; }
.severity-error td.severity-error { color: #cf222e; font-weight: 600; }
.severity-warning td.severity-warning { color: #bf8700; }
h3 { font-size: 1em; margin: 12px 0 4px; }
.compare-headline { font-weight: 600; margin: 0 0 4px; }
.compare-headline button { margin-left: 8px; font-weight: normal; }
.compare-deltas { margin: 0 0 8px; }
.gate-failed { color: #cf222e; }
.gate-passed { color: #1a7f37; }
tr.shrank td { color: #bf8700; }
.chart-title { margin: 12px 0 2px; font-weight: 600; }
`;

/** The sample view's extra styles. */
export const SAMPLE_VIEW_STYLES = `${RUN_VIEW_STYLES}
pre.text { white-space: pre-wrap; overflow-wrap: anywhere; unicode-bidi: plaintext; max-height: 480px; overflow: auto;
  background: var(--vscode-textCodeBlock-background, rgba(128,128,128,0.08)); padding: 6px 8px; margin: 4px 0; }
tr.masked td { opacity: 0.55; font-style: italic; }
/* A token's text keeps its spaces, its edges shown by a box. */
td.token-text span { white-space: pre; background: rgba(128,128,128,0.16); border-radius: 2px; padding: 0 1px; }
.message { border-left: 3px solid rgba(128,128,128,0.4); padding-left: 8px; margin: 8px 0; }
.message.role-user { border-color: #0969da; }
.message.role-assistant { border-color: #8250df; }
.message.role-tool { border-color: #bf8700; }
.tool-call { margin-left: 12px; }
tr.current td { font-weight: bold; }
th { white-space: nowrap; }
td.reveal { cursor: pointer; text-decoration: underline; }
.nav button { margin-right: 8px; }
.leaf { margin-left: 16px; }
details details { margin-left: 16px; }
.key { opacity: 0.8; }
`;
