// Run settings files (`rollout-lens.yaml`, `.yml` or `.json`): found the way linters find their
// configuration, searching upward from a log's folder, the nearest file winning; parsed and
// validated strictly (an unknown key or a wrong type names the file, the key and what was
// expected). One owner for the CLI (`check` without `--config`, and `--config`) and the language
// server (merged over the client's settings), so both analyse a log with the same settings.
import { parseYaml } from '../lazy/yaml';
import { type z } from 'zod';
import type { RolloutLensSettings } from '../../../../shared/protocol';
import type { FileAccess } from '../seams/fileAccess';
import { readFileText } from '../fileText';
import { isAbsolutePath, isFile, joinPath, parentDir, pathExists } from './paths';
import { settingsFileSchema } from '../vocabulary/settingsSchema';
import { gateSectionSchema, type GateSection } from '../compare/gate';

/** Looked for in each folder, in this order. */
export const SETTINGS_FILE_NAMES = ['rollout-lens.yaml', 'rollout-lens.yml', 'rollout-lens.json'];

/** A settings file is a few lines; anything bigger is not one. */
const MAX_SETTINGS_BYTES = 1024 * 1024;
/** Folders climbed at most (a bound on symlinked or odd paths, far above any real depth). */
const MAX_DEPTH = 64;
const PREFIX = 'rolloutLens.';

/** A settings file that cannot be read, parsed or validated; the message starts with its path. */
export class SettingsFileError extends Error {
  constructor(
    readonly path: string,
    /** What is wrong, without the path. */
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/** `dir`, then its parents up to the root: where run files are searched, nearest first. */
function foldersUpward(dir: string): string[] {
  const out: string[] = [];
  for (let d: string | null = dir; d !== null && out.length < MAX_DEPTH; d = parentDir(d)) out.push(d);
  return out;
}

/** The first of `names` that is a file in `dir`, then in its parents: the nearest wins. */
async function findUpward(dir: string, names: readonly string[], access: FileAccess): Promise<string | null> {
  for (const folder of foldersUpward(dir)) {
    for (const name of names) {
      const candidate = joinPath(folder, name);
      if (await isFile(access, candidate)) return candidate;
    }
  }
  return null;
}

/** The run settings file that applies to files in `dir`: the nearest one upward, or null. */
export function findSettingsFile(dir: string, access: FileAccess): Promise<string | null> {
  return findUpward(dir, SETTINGS_FILE_NAMES, access);
}

/** Accepts plain keys, `rolloutLens.`-prefixed keys (as in settings.json), or a `rolloutLens` mapping. */
function unwrap(doc: unknown): unknown {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return doc;
  const obj = doc as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 1 && keys[0] === 'rolloutLens') return obj.rolloutLens;
  const out: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(obj)) out[k.startsWith(PREFIX) ? k.slice(PREFIX.length) : k] = value;
  return out;
}

function issueText(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.join('.') : '(top level)';
  if (issue.code === 'unrecognized_keys')
    return `unknown setting${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}${where === '(top level)' ? '' : ` in ${where}`}`;
  return `${where}: ${issue.message.replace(/^Invalid input: /, '').replace(/^Invalid option: /, '')}`;
}

/** The YAML or JSON document of a settings file, its keys unwrapped (`rolloutLens.` prefixes). */
function parseDocument(text: string, path: string): Record<string, unknown> | unknown {
  let doc: unknown;
  try {
    // YAML is a superset of JSON, so one parser reads both.
    doc = text.trim() === '' ? {} : parseYaml(text);
  } catch (err) {
    throw new SettingsFileError(path, `not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`);
  }
  if (doc === null || doc === undefined) doc = {};
  return unwrap(doc);
}

function isRecord(doc: unknown): doc is Record<string, unknown> {
  return doc !== null && typeof doc === 'object' && !Array.isArray(doc);
}

/**
 * Parses and validates settings file text. `evalConfig` is returned as written. The `gate:`
 * section is `rollout-lens diff --gate`'s (`parseGateSection`), not a setting of the analysis.
 */
function parseSettingsFile(text: string, path: string): Partial<RolloutLensSettings> {
  let doc = parseDocument(text, path);
  if (isRecord(doc) && 'gate' in doc) {
    const { gate: _gate, ...rest } = doc;
    doc = rest;
  }
  const parsed = settingsFileSchema().safeParse(doc);
  if (!parsed.success) throw new SettingsFileError(path, parsed.error.issues.slice(0, 5).map(issueText).join('; '));
  return parsed.data as Partial<RolloutLensSettings>;
}

/** The `gate:` section of settings file text, validated; undefined when the file has none. */
function parseGateSection(text: string, path: string): GateSection | undefined {
  const doc = parseDocument(text, path);
  if (!isRecord(doc) || doc.gate === undefined || doc.gate === null) return undefined;
  const parsed = gateSectionSchema().safeParse(doc.gate);
  if (!parsed.success) {
    throw new SettingsFileError(
      path,
      parsed.error.issues
        .slice(0, 5)
        .map((issue) => issueText({ ...issue, path: ['gate', ...issue.path] }))
        .join('; '),
    );
  }
  return parsed.data;
}

/** Reads a settings file's `gate:` section (rules of `rollout-lens diff --gate`). */
export async function loadGateSection(path: string, access: FileAccess): Promise<GateSection | undefined> {
  const text = await readSettingsText(path, access);
  return parseGateSection(text, path);
}

/** A settings file's text; a file that cannot be read is a SettingsFileError naming why. */
async function readSettingsText(path: string, access: FileAccess): Promise<string> {
  try {
    return await readText(path, access);
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new SettingsFileError(path, `cannot read: ${code ?? (err as Error).message}`);
  }
}

async function readText(path: string, access: FileAccess): Promise<string> {
  const stat = await access.stat(path);
  if (!stat.isFile) throw new Error('not a file');
  if (stat.size > MAX_SETTINGS_BYTES) throw new Error(`${stat.size} bytes; a settings file is at most ${MAX_SETTINGS_BYTES}`);
  return readFileText(access, path, stat.size);
}

/**
 * Reads, parses and validates a settings file. A relative `evalConfig` or `tokenizer` is relative
 * to the file's folder (like tsconfig paths); `alsoRelativeTo` (the CLI's working folder) is accepted when the
 * path exists only there.
 */
export async function loadSettingsFile(path: string, access: FileAccess, alsoRelativeTo?: string): Promise<Partial<RolloutLensSettings>> {
  const text = await readSettingsText(path, access);
  const settings = parseSettingsFile(text, path);
  for (const key of ['evalConfig', 'tokenizer'] as const) {
    const named = settings[key];
    if (!named || isAbsolutePath(named)) continue;
    const besideFile = joinPath(parentDir(path) ?? '.', named);
    const other = alsoRelativeTo !== undefined ? joinPath(alsoRelativeTo, named) : null;
    settings[key] = other !== null && !(await pathExists(access, besideFile)) && (await pathExists(access, other)) ? other : besideFile;
  }
  return settings;
}

/**
 * The edit that sets a top-level numeric key of a run settings file (`nSamplesPerEvalPrompt: 2` in
 * YAML, `"nSamplesPerEvalPrompt": 2` in JSON), keeping the rest of the text and its comments; null
 * when the key is not written as a plain top-level number (then the file is left to the user).
 */
export function numericSettingEdit(text: string, path: string, key: string, value: number): { startOffset: number; endOffset: number; newText: string } | null {
  const json = /\.json$/i.test(path);
  const pattern = json
    ? new RegExp(`("${key}"\\s*:\\s*)(-?\\d+(?:\\.\\d+)?)`, 'g')
    : new RegExp(`^(${key}\\s*:[ \\t]*)(-?\\d+(?:\\.\\d+)?)(?=[ \\t]*(?:#.*)?$)`, 'gm');
  const matches = [...text.matchAll(pattern)];
  if (matches.length !== 1) return null;
  const m = matches[0];
  const startOffset = m.index + m[1].length;
  return { startOffset, endOffset: startOffset + m[2].length, newText: String(value) };
}
