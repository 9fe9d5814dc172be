// VS Code entry point (bundled to dist/client.js). Everything happens in activation.ts.
import type * as vscode from 'vscode';
import { activateExtension, deactivateExtension } from './activation';
import type { RolloutLensApi } from './api';

export type { RolloutLensApi } from './api';

export function activate(context: vscode.ExtensionContext): RolloutLensApi {
  return activateExtension(context);
}

export function deactivate(): Promise<void> {
  return deactivateExtension();
}
