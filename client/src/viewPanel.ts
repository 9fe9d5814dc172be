// The one set-up of the extension's webview panels (run view, sample view): a panel whose page is
// drawn by a bundled script from the extension's dist/ under the strict CSP of
// shared/runViewPage.ts, with no command URIs, no forms and no other local resources.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { type RunViewPageOptions, runViewHtml } from '../../shared/runViewPage';

export interface ViewPanelOptions {
  viewType: string;
  title: string;
  column: vscode.ViewColumn | { viewColumn: vscode.ViewColumn; preserveFocus?: boolean };
  onMessage: (message: unknown) => void;
  onDispose: () => void;
}

export function createViewPanel(extensionUri: vscode.Uri, options: ViewPanelOptions): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel(options.viewType, options.title, options.column, {
    enableScripts: true,
    enableCommandUris: false,
    enableForms: false,
    localResourceRoots: [distUri(extensionUri)],
  });
  panel.onDidDispose(options.onDispose);
  panel.webview.onDidReceiveMessage(options.onMessage);
  return panel;
}

export interface ViewPage {
  model: RunViewPageOptions['model'];
  title: string;
  /** The bundled page script in dist/ (e.g. `runView.js`). */
  script: string;
  styles: string;
  /** The id of the page's model element, when not the run view's. */
  dataId?: string;
  /** Bring the panel to the front (default); a redraw in place does not. */
  reveal?: boolean;
}

/** Sets the panel's page (a fresh nonce each time), reveals the panel unless told not to, and returns the HTML. */
export function showViewPage(extensionUri: vscode.Uri, panel: vscode.WebviewPanel, page: ViewPage): string {
  const webview = panel.webview;
  const html = runViewHtml({
    model: page.model,
    dataId: page.dataId,
    title: page.title,
    nonce: randomBytes(18).toString('base64'),
    script: { src: webview.asWebviewUri(vscode.Uri.joinPath(distUri(extensionUri), page.script)).toString() },
    styles: page.styles,
    cspSource: webview.cspSource,
  });
  webview.html = html;
  if (page.reveal !== false) panel.reveal(undefined, true);
  return html;
}

function distUri(extensionUri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(extensionUri, 'dist');
}
