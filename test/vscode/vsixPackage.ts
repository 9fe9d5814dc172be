// Builds the .vsix the way `npm run package` does (production bundles, `vsce package
// --no-dependencies`), from a staging copy so the repository's dist/ is not rewritten while other
// tests may be running, and lists what the archive holds (zip central directory).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './harness';

/** Files the extension needs at run time, copied into the staging folder. */
const STAGED = ['package.json', 'LICENSE', '.vscodeignore', 'media', 'syntaxes', 'README.md'];

export function buildVsix(): { vsix: string; staging: string } {
  const staging = mkdtempSync(join(tmpdir(), 'rollout-lens-vsix-'));
  for (const f of STAGED) if (existsSync(join(repoRoot, f))) cpSync(join(repoRoot, f), join(staging, f), { recursive: true });
  execFileSync(process.execPath, [join(repoRoot, 'esbuild.mjs'), '--production', '--outdir', join(staging, 'dist')], { stdio: 'inherit' });
  const vsix = join(staging, 'rollout-lens.vsix');
  execFileSync(process.execPath, [join(repoRoot, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '-o', vsix], {
    cwd: staging,
    stdio: 'inherit',
  });
  return { vsix, staging };
}

/** Names of the entries of a zip archive, read from its central directory. */
export function zipEntries(path: string): string[] {
  const buf = readFileSync(path);
  // End of central directory: signature 0x06054b50 within the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${path} is not a zip archive`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const names: string[] = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central directory entry ${n} in ${path}`);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    names.push(buf.toString('utf8', p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}
