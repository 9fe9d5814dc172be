// VS Code entry point (bundled to dist/client.js). Everything happens in activation.ts.
import type * as vscode from 'vscode';
import { activateExtension, deactivateExtension } from './activation';
import type { RolloutLensTestApi } from './api';

export type { RolloutLensApi, RolloutLensTestApi } from './api';

export function activate(context: vscode.ExtensionContext): RolloutLensTestApi {
  return activateExtension(context);
}

export function deactivate(): Promise<void> {
  return deactivateExtension();
}
