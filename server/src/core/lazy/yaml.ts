// The YAML parser, loaded on first use, as zod is (core/lazy/zod.ts): its module code ran at every
// start of the CLI, though only settings files and eval configs are YAML. Wrappers of the few
// functions the engine calls, with the library's own types.
import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

function yaml(): typeof Yaml {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a load deferred to first use (above)
  return (loaded ??= require('yaml') as typeof Yaml);
}

export function parseYaml(text: string): unknown {
  return yaml().parse(text) as unknown;
}

export function parseDocument(text: string, options: Yaml.ParseOptions & Yaml.DocumentOptions & Yaml.SchemaOptions): Yaml.Document.Parsed {
  return yaml().parseDocument(text, options);
}

export function newLineCounter(): Yaml.LineCounter {
  return new (yaml().LineCounter)();
}

export function isMap<K = unknown, V = unknown>(node: unknown): node is Yaml.YAMLMap<K, V> {
  return yaml().isMap(node);
}

export function isSeq<T = unknown>(node: unknown): node is Yaml.YAMLSeq<T> {
  return yaml().isSeq(node);
}

export function isScalar<T = unknown>(node: unknown): node is Yaml.Scalar<T> {
  return yaml().isScalar(node);
}
