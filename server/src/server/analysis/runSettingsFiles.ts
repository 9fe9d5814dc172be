// The run settings file of each log (core/locate/settingsFile.ts finds and reads it: the nearest
// `rollout-lens.yaml`, `.yml` or `.json` above the log's folder), read through the editor's file
// access so an unsaved, open settings file counts. Cached per folder and per file until any
// settings file changes (then every document's settings are fetched again).
import type { FileAccess } from '../../core/seams/fileAccess';
import { parentDir } from '../../core/locate/paths';
import { findSettingsFile, loadSettingsFile, SETTINGS_FILE_NAMES, SettingsFileError } from '../../core/locate/settingsFile';
import type { RunFileSettings } from './settingsCache';
import { uriToPath } from '../documents/uris';

export function isSettingsFile(path: string): boolean {
  return SETTINGS_FILE_NAMES.includes(path.split(/[\\/]/).pop() ?? '');
}

export class RunSettingsFiles {
  private readonly byDir = new Map<string, Promise<string | null>>();
  private readonly byFile = new Map<string, Promise<RunFileSettings>>();

  constructor(private readonly access: FileAccess) {}

  drop(): void {
    this.byDir.clear();
    this.byFile.clear();
  }

  /** The settings file that applies to files in `dir`, or null. */
  fileFor(dir: string): Promise<string | null> {
    let found = this.byDir.get(dir);
    if (!found) {
      found = findSettingsFile(dir, this.access);
      this.byDir.set(dir, found);
    }
    return found;
  }

  async forUri(uri: string): Promise<RunFileSettings> {
    if (!uri.startsWith('file:')) return { settings: {}, problem: null };
    const dir = parentDir(uriToPath(uri));
    const file = dir === null ? null : await this.fileFor(dir);
    if (file === null) return { settings: {}, problem: null };
    let loaded = this.byFile.get(file);
    if (!loaded) {
      loaded = loadSettingsFile(file, this.access).then(
        (settings) => ({ settings, problem: null }),
        (err: unknown) => ({ settings: {}, problem: err instanceof SettingsFileError ? err.message : `${file}: ${String(err)}` }),
      );
      this.byFile.set(file, loaded);
    }
    return loaded;
  }
}
