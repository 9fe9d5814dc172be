// JSON pointers (RFC 6901) for the `generic` format's field mapping (settings `fields.*`).
// Only object members are addressed: the scanner builds objects along these paths and nothing else.

/** `/meta/group` → ['meta', 'group']; '' → []. Throws on text that is not a pointer. */
export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`JSON pointer must start with '/': ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at `path` in a scanned object, or undefined. */
export function resolvePath(value: unknown, path: readonly string[]): unknown {
  let at: unknown = value;
  for (const key of path) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}
