// Settings per resource (`workspace/configuration`, section `rolloutLens`), validated field by
// field: a bad value falls back to its default with a readable message, the good ones are kept.
// Cached per document URI and dropped when the configuration changes; never kept in globals.
import { DEFAULT_SETTINGS, type RolloutLensSettings } from '../../../../shared/protocol';
import { SETTINGS_FIELD_SCHEMAS as FIELD_SCHEMAS } from '../../core/settingsSchema';

export interface ValidatedSettings {
  settings: RolloutLensSettings;
  /** One readable line per rejected field, e.g. `rolloutLens.maxProblems: must be at least 1 (got -3)`. */
  problems: string[];
}

function describe(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/**
 * Validates what the client sent for the section. Missing keys and `undefined` take defaults
 * silently (the user did not set them); present but invalid keys take defaults and are reported.
 */
export function validateSettings(raw: unknown): ValidatedSettings {
  const settings: RolloutLensSettings = { ...DEFAULT_SETTINGS, fields: { ...DEFAULT_SETTINGS.fields } };
  const problems: string[] = [];
  if (raw === null || raw === undefined) return { settings, problems };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { settings, problems: [`rolloutLens: expected an object of settings, got ${describe(raw)}; using defaults`] };
  }
  const input = raw as Record<string, unknown>;
  for (const key of Object.keys(FIELD_SCHEMAS) as (keyof RolloutLensSettings)[]) {
    if (input[key] === undefined) continue;
    const result = FIELD_SCHEMAS[key].safeParse(input[key]);
    if (result.success) {
      (settings as unknown as Record<string, unknown>)[key] = result.data;
    } else {
      const why = result.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
      problems.push(`rolloutLens.${key}: ${why} (got ${describe(input[key])}); using the default ${describe(DEFAULT_SETTINGS[key])}`);
    }
  }
  return { settings, problems };
}

export type ConfigurationFetcher = (scopeUri: string | undefined) => Promise<unknown>;

/**
 * Per-resource cache. `fetch` asks the client (`workspace/configuration`); when the client cannot
 * answer it, the server passes a fetcher over the last `didChangeConfiguration` payload instead.
 */
export class SettingsCache {
  private readonly cache = new Map<string, Promise<RolloutLensSettings>>();
  private reported = new Set<string>();

  constructor(
    private readonly fetch: ConfigurationFetcher,
    private readonly report: (problem: string) => void,
  ) {}

  get(uri: string): Promise<RolloutLensSettings> {
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
      this.reported = new Set();
    } else {
      this.cache.delete(uri);
    }
  }

  private async load(uri: string): Promise<RolloutLensSettings> {
    let raw: unknown;
    try {
      raw = await this.fetch(uri);
    } catch (err) {
      this.once(`rolloutLens: could not read settings (${err instanceof Error ? err.message : String(err)}); using defaults`);
      raw = undefined;
    }
    const { settings, problems } = validateSettings(raw);
    for (const problem of problems) this.once(problem);
    return settings;
  }

  /** The same bad value is reported once per configuration, not once per document. */
  private once(problem: string): void {
    if (this.reported.has(problem)) return;
    this.reported.add(problem);
    this.report(problem);
  }
}
