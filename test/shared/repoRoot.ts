// The repository a test runs from: tests are compiled into out/test/<ring>/ inside it.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root (the folder holding package.json above the compiled test). */
export function repoRoot(): string {
  let dir = __dirname;
  for (let i = 0; i < 10 && !existsSync(join(dir, 'package.json')); i++) dir = dirname(dir);
  return dir;
}
