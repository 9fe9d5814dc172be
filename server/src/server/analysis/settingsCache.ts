// Settings per resource (`workspace/configuration`, section `rolloutLens`), validated field by
// field: a bad value falls back to its default with a readable message, the good ones are kept.
// Cached per document URI and dropped when the configuration changes; never kept in globals.
import type { RolloutLensSettings } from '../../core/vocabulary/settings';
import { validateSettings } from '../../core/vocabulary/settingsSchema';

export type ConfigurationFetcher = (scopeUri: string | undefined) => Promise<unknown>;

/** The run settings file's part for a log: its keys (merged over the client's), or why it cannot be used. */
export interface RunFileSettings {
  settings: Partial<RolloutLensSettings>;
  problem: string | null;
}

interface Entry {
  settings: RolloutLensSettings;
  problem: string | null;
}

/**
 * Per-resource cache. `fetch` asks the client (`workspace/configuration`); null when the client
 * cannot answer it: then the settings are what the client pushed (`initializationOptions.settings`,
 * then each `didChangeConfiguration` payload, handed to `push`).
 */
export class SettingsCache {
  private readonly cache = new Map<string, Promise<Entry>>();
  private reported = new Set<string>();

  constructor(
    private readonly fetch: ConfigurationFetcher | null,
    private pushed: unknown,
    private readonly report: (problem: string) => void,
    /** The run settings file that applies to a document (found upward from it), merged over the client's. */
    private readonly runFile?: { forUri(uri: string): Promise<RunFileSettings>; drop(): void },
  ) {}

  /** What a client without `workspace/configuration` sent for the section (ignored by clients that have it). */
  push(value: unknown): void {
    this.pushed = value;
  }

  async get(uri: string): Promise<RolloutLensSettings> {
    return (await this.entry(uri)).settings;
  }

  /** The settings and, when the run settings file found for it cannot be used, why. */
  withProblem(uri: string): Promise<{ settings: RolloutLensSettings; problem: string | null }> {
    return this.entry(uri);
  }

  private entry(uri: string): Promise<Entry> {
    let pending = this.cache.get(uri);
    if (!pending) {
      pending = this.load(uri);
      this.cache.set(uri, pending);
    }
    return pending;
  }

  /** Forget one document's settings (closed), or all of them (configuration changed). */
  drop(uri?: string): void {
    if (uri === undefined) {
      this.cache.clear();
      this.runFile?.drop();
      this.reported = new Set();
    } else {
      this.cache.delete(uri);
    }
  }

  private async load(uri: string): Promise<Entry> {
    let raw: unknown;
    try {
      raw = this.fetch ? await this.fetch(uri) : this.pushed;
    } catch (err) {
      this.once(`rolloutLens: could not read settings (${err instanceof Error ? err.message : String(err)}); using defaults`);
      raw = undefined;
    }
    const { settings, problems } = validateSettings(raw);
    for (const problem of problems) this.once(problem);
    if (!this.runFile) return { settings, problem: null };
    const file = await this.runFile.forUri(uri);
    return { settings: { ...settings, ...file.settings }, problem: file.problem };
  }

  /** The same bad value is reported once per configuration, not once per document. */
  private once(problem: string): void {
    if (this.reported.has(problem)) return;
    this.reported.add(problem);
    this.report(problem);
  }
}
