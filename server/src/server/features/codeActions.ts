// Quick fixes for `misgrouped-dataset` and `passk-group-size-mismatch`, built from the
// diagnostic's `data` (no re-analysis): a WorkspaceEdit setting the dataset's
// `n_samples_per_eval_prompt` in the eval config, made by the engine's pure config edit (comments
// and layout kept), and, where the global value is a right fix, a client command setting it.
// Edits go only to the eval config the finding names, and only inside a workspace folder.
import {
  CodeActionKind,
  TextDocumentEdit,
  type CancellationToken,
  type CodeAction,
  type CodeActionParams,
  type Diagnostic,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SetNSamplesPerEvalPromptCommand, type RolloutLensInitializationOptions, type SetNSamplesPerEvalPromptArgs } from '../../../../shared/protocol';
import { isFixable } from '../../core/vocabulary/catalog';
import { fixEvalConfigText } from '../../core/evalConfigFile';
import { readFileText } from '../../core/fileText';
import type { SetNSamplesFix } from '../../core/vocabulary/types';
import { SOURCE, type DiagnosticData } from '../diagnostics/toDiagnostics';
import type { ServerContext } from '../serverContext';
import { isEvalConfigName } from '../../core/locate/evalConfig';
import { dirname } from 'node:path';
import { numericSettingEdit } from '../../core/locate/settingsFile';
import { isInside, pathToUri, uriToPath } from '../documents/uris';

const MAX_CONFIG_BYTES = 8 * 1024 * 1024;

function dataOf(d: Diagnostic): DiagnosticData | null {
  if (d.source !== SOURCE || typeof d.code !== 'string' || !isFixable(d.code)) return null;
  const data = d.data as Partial<DiagnosticData> | undefined;
  const fix = data?.fix;
  if (!fix || fix.kind !== 'set-n-samples-per-eval-prompt' || typeof fix.dataset !== 'string' || !Number.isInteger(fix.value) || fix.value < 1) return null;
  return { fix, configUri: data.configUri ?? null, group: data.group ?? null, dataset: data.dataset ?? null, globalValue: data.globalValue ?? null };
}

/** Why the config may not be edited, or null when it may. */
function refuseEdit(
  ctx: ServerContext,
  fix: SetNSamplesFix,
  configUri: string | null,
  usedConfig: string | null | undefined,
  runRoot: string | null = null,
): string | null {
  if (!fix.configFile || !configUri) return 'the finding names no eval config';
  const path = uriToPath(configUri);
  if (path !== fix.configFile) return 'the diagnostic data does not match the finding';
  if (usedConfig !== undefined && usedConfig !== path) return 'the eval config is not the one the analysis used';
  // A config the analysis found for the log by its name, inside the run its settings file marks
  // (rollout-lens.yaml), belongs to the run, also when the client opened no folder or another one.
  const inRun = runRoot !== null && usedConfig === path && isEvalConfigName(path) && isInside(runRoot, path);
  if (!inRun && !ctx.folders.some((f) => isInside(f, path))) return 'the eval config is outside the workspace';
  return null;
}

async function configText(ctx: ServerContext, path: string): Promise<string> {
  const stat = await ctx.overlay.stat(path);
  if (stat.size > MAX_CONFIG_BYTES) throw new Error(`${path} is too large for an eval config`);
  return readFileText(ctx.overlay, path, stat.size);
}

async function configEdit(ctx: ServerContext, configUri: string, fix: SetNSamplesFix): Promise<WorkspaceEdit> {
  const path = uriToPath(configUri);
  const text = await configText(ctx, path);
  return textEdit(ctx, configUri, path, text, fixEvalConfigText(text, path, fix).edit);
}

/** One replacement in a file as a WorkspaceEdit: versioned when the file is open, so an edit made against older text is refused. */
function textEdit(
  ctx: ServerContext,
  uri: string,
  path: string,
  text: string,
  change: { startOffset: number; endOffset: number; newText: string },
): WorkspaceEdit {
  const before = TextDocument.create(uri, 'yaml', 0, text);
  const edit = { range: { start: before.positionAt(change.startOffset), end: before.positionAt(change.endOffset) }, newText: change.newText };
  const open = ctx.documents.all().find((d) => uriToPath(d.uri) === path);
  if (ctx.caps.workspace?.workspaceEdit?.documentChanges) {
    return { documentChanges: [TextDocumentEdit.create({ uri: open?.uri ?? uri, version: open ? open.version : null }, [edit])] };
  }
  return { changes: { [open?.uri ?? uri]: [edit] } };
}

/** An edit of the run settings file's `nSamplesPerEvalPrompt`, or null (unreadable, or not a plain number there). */
async function settingsFileEdit(ctx: ServerContext, path: string, value: number): Promise<WorkspaceEdit | null> {
  let text: string;
  try {
    text = await configText(ctx, path);
  } catch (err) {
    ctx.connection.console.warn(`rollout-lens: no quick fix in ${path}: ${err instanceof Error ? err.message : String(err)}`);
    return null;
  }
  const change = numericSettingEdit(text, path, 'nSamplesPerEvalPrompt', value);
  return change ? textEdit(ctx, pathToUri(path), path, text, change) : null;
}

export function clientCommands(ctx: ServerContext): string[] {
  const opts = ctx.initializationOptions as RolloutLensInitializationOptions | undefined;
  return Array.isArray(opts?.clientCommands) ? opts.clientCommands.filter((c) => typeof c === 'string') : [];
}

async function actionsFor(ctx: ServerContext, uri: string, d: Diagnostic, data: DiagnosticData, usedConfig: string | null | undefined): Promise<CodeAction[]> {
  const fix = data.fix!;
  const actions: CodeAction[] = [];
  const settingsFile = await ctx.runFiles.fileFor(dirname(uriToPath(uri)));
  const refusal = refuseEdit(ctx, fix, data.configUri, usedConfig, settingsFile ? dirname(settingsFile) : null);
  if (refusal === null) {
    try {
      const edit = await configEdit(ctx, data.configUri!, fix);
      const file = fix.configFile!.split(/[\\/]/).pop();
      actions.push({
        title: `Set n_samples_per_eval_prompt of ${fix.dataset} to ${fix.value} in ${file}`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        edit,
      });
    } catch (err) {
      ctx.connection.console.warn(`rollout-lens: no quick fix for ${fix.dataset}: ${err instanceof Error ? err.message : String(err)}`);
    }
  } else if (fix.configFile) {
    ctx.connection.console.warn(`rollout-lens: quick fix for ${fix.dataset} not offered: ${refusal}`);
  }
  if (data.globalValue !== null) {
    const fromFile = settingsFile !== null && 'nSamplesPerEvalPrompt' in (await ctx.runFiles.forUri(uri)).settings;
    if (fromFile) {
      // The run settings file's value wins over the client's setting: the fix edits the file.
      const edit = await settingsFileEdit(ctx, settingsFile, data.globalValue);
      if (edit) {
        actions.push({
          title: `Set nSamplesPerEvalPrompt to ${data.globalValue} in ${settingsFile.split(/[\\/]/).pop()}`,
          kind: CodeActionKind.QuickFix,
          diagnostics: [d],
          edit,
        });
      }
    } else if (clientCommands(ctx).includes(SetNSamplesPerEvalPromptCommand)) {
      const args: SetNSamplesPerEvalPromptArgs = { resourceUri: uri, value: data.globalValue };
      actions.push({
        title: `Set the global n_samples_per_eval_prompt (rolloutLens.nSamplesPerEvalPrompt) to ${data.globalValue}`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        command: { title: 'Set rolloutLens.nSamplesPerEvalPrompt', command: SetNSamplesPerEvalPromptCommand, arguments: [args] },
      });
    }
  }
  if (actions.length > 0) actions[0].isPreferred = true; // exactly one per diagnostic
  return actions;
}

export async function provideCodeActions(ctx: ServerContext, params: CodeActionParams, token: CancellationToken): Promise<CodeAction[]> {
  const only = params.context.only;
  if (only && !only.some((k) => k === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(`${k}.`) || k === CodeActionKind.Empty)) return [];
  const fixable = params.context.diagnostics.map((d) => ({ d, data: dataOf(d) })).filter((x) => x.data !== null);
  if (fixable.length === 0) return [];
  const result = await ctx.resultFor(params.textDocument.uri, token);
  const actions: CodeAction[] = [];
  for (const { d, data } of fixable) {
    if (token.isCancellationRequested) break;
    actions.push(...(await actionsFor(ctx, params.textDocument.uri, d, data!, result ? result.evalConfig : undefined)));
  }
  return actions;
}
