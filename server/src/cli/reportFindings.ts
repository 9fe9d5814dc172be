// The findings section of the `rollout-lens report` file: each code once with its severity and
// count, its first findings with place and message, and how many of them are not listed. Static
// HTML made here (the page script adds nothing to it); every string is log-derived and so hostile:
// unsafe characters become visible labels (revealInvisible) and the text is HTML-escaped, so no
// message can become markup (shared/runViewPage.ts).
import { escapeHtml } from '../../../shared/runViewPage';
import { revealInvisible, truncate } from '../../../shared/unsafeText';
import type { FindingGroup } from '../core/views/findingGroups';

/** A message is cut here in the report (the CLI's text and JSON reports keep it whole). */
const MAX_MESSAGE = 2000;

export const REPORT_FINDINGS_STYLES = `
#findings td.text { max-width: 760px; }
.sev { font-weight: 600; }
.sev-error { color: #cf222e; }
.sev-warning { color: #9a6700; }
.sev-information, .sev-hint { color: #0969da; }
`;

function text(value: string): string {
  return escapeHtml(revealInvisible(value, false));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** How the report shows paths: a file's, and paths inside a message (cli/reportPaths.ts). */
export interface ShownPaths {
  show(path: string): string;
  inText(text: string): string;
}

const AS_GIVEN: ShownPaths = { show: (p) => p, inText: (t) => t };

/** The section, or a sentence that there are none. */
export function findingsSection(groups: readonly FindingGroup[], paths: ShownPaths = AS_GIVEN): string {
  const total = groups.reduce((a, g) => a + g.count, 0);
  const parts = ['<section id="findings"><h2>Findings</h2>'];
  if (total === 0) {
    parts.push('<p class="muted">No findings.</p></section>');
    return parts.join('');
  }
  parts.push(`<p>${plural(total, 'finding')} of ${plural(groups.length, 'code')}.</p>`);
  for (const g of groups) {
    const sev = escapeHtml(g.severity);
    parts.push(
      `<details class="finding-code" data-code="${escapeHtml(g.code)}"${g.severity === 'error' ? ' open' : ''}>`,
      `<summary><span class="sev sev-${sev}">${sev}</span> <code>${text(g.code)}</code>: ${g.count}</summary>`,
      '<table><tr><th>file</th><th class="num">line</th><th>message</th></tr>',
    );
    for (const f of g.listed) {
      parts.push(
        `<tr><td class="mono">${text(paths.show(f.file))}</td><td class="num">${f.line}</td><td class="text">${text(truncate(paths.inText(f.message), MAX_MESSAGE))}</td></tr>`,
      );
    }
    parts.push('</table>');
    if (g.omitted > 0) parts.push(`<p class="muted omitted">${g.omitted} more not listed</p>`);
    parts.push('</details>');
  }
  parts.push('</section>');
  return parts.join('');
}

/** What the CLI could not read (its stderr lines): the report is written from the rest and says so. Empty: nothing. */
export function notReadSection(problems: readonly string[], paths: ShownPaths = AS_GIVEN): string {
  if (problems.length === 0) return '';
  const items = problems.map((p) => `<li class="text">${text(truncate(paths.inText(p), MAX_MESSAGE))}</li>`).join('');
  return `<section id="not-read"><h2>Not read</h2><p>This report is made from the rest.</p><ul>${items}</ul></section>`;
}
