// What the webview pages' scripts share: the VS Code API where there is one (not in a report
// opened in a browser), and building elements whose text is set only through textContent (log
// strings are hostile: they never become markup).
import { formatForPeople, formatOrMissing } from '../../shared/numberFormat';
import { pyFloatRepr } from '../../shared/pythonRepr';
import type { RunPageMessage, SamplePageMessage } from '../../shared/webviewMessages';

interface VsCodeApi {
  /** Only the shapes the panels accept (shared/webviewMessages.ts). */
  postMessage(message: RunPageMessage | SamplePageMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

export const vscode: VsCodeApi | null = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : null;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | number | null, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}

/** A titled section appended to `app`, with a muted note under the title when one is given. */
export function section(app: HTMLElement, title: string, note?: string): HTMLElement {
  const s = el('section');
  s.appendChild(el('h2', title));
  if (note) s.appendChild(el('p', note, 'muted'));
  app.appendChild(s);
  return s;
}

/** A chart tooltip's line in the one number format for people (shared/numberFormat.ts). */
export function tooltipLabel(item: { raw: unknown; formattedValue: string; dataset: { label?: string } }): string {
  const value = typeof item.raw === 'number' ? formatForPeople(item.raw) : item.formattedValue;
  return item.dataset.label ? `${item.dataset.label}: ${value}` : value;
}

/** A value's cell: 4 significant digits, the exact value (as Python prints it) on hover. */
export function numCell(v: number | null | undefined): HTMLTableCellElement {
  const td = el('td', formatOrMissing(v), 'num');
  if (v !== null && v !== undefined) td.title = pyFloatRepr(v);
  return td;
}
