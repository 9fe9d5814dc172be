// VS Code entry point (bundled to dist/client.js). Everything happens in activation.ts.
import * as vscode from 'vscode';
import { activateExtension, deactivateExtension } from './activation';
import type { RolloutLensApi, RolloutLensTestApi } from './api';

export type { RolloutLensApi, RolloutLensTestApi } from './api';

/**
 * Other extensions get the public API only; the extension's own parts are handed out while it runs
 * from its sources (development and its tests), never from an installed package.
 */
export function activate(context: vscode.ExtensionContext): RolloutLensApi | RolloutLensTestApi {
  const parts = activateExtension(context);
  if (context.extensionMode !== vscode.ExtensionMode.Production) return parts;
  const { ready, client, refresh } = parts;
  return { ready, client, refresh };
}

export function deactivate(): Promise<void> {
  return deactivateExtension();
}
