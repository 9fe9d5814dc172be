// What the webview pages' scripts share: the VS Code API where there is one (not in a report
// opened in a browser), and building elements whose text is set only through textContent (log
// strings are hostile: they never become markup).
import { formatForPeople } from '../../shared/numberFormat';

interface VsCodeApi {
  postMessage(message: unknown): void;
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
