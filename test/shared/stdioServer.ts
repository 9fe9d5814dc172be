// The built language server as editors run it (`node dist/server.js --stdio`) in a child process,
// for the test rings that drive it over the wire: spawn it, bound every wait, end it cleanly.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import type { ProtocolConnection } from 'vscode-languageserver-protocol/node';

import { repoRoot } from '../lsp/fixtures';

export const BUNDLE = join(repoRoot(), 'dist/server.js');

/** `promise`, or a rejection naming `what` after `ms`. */
export function bounded<T>(what: string, promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  exited: Promise<number | null>;
  /** What the server wrote to stderr so far. */
  stderr: () => string;
}

/** `node [nodeArgs] dist/server.js --stdio`. */
export function startStdioServer(nodeArgs: string[] = []): ServerProcess {
  const child = spawn(process.execPath, [...nodeArgs, BUNDLE, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

/** `shutdown`, then `exit`: resolves with the process's exit code (each wait bounded by `ms`). */
export async function shutdownAndExit(client: ProtocolConnection, exited: Promise<number | null>, ms: number): Promise<number | null> {
  await bounded('shutdown', client.sendRequest('shutdown'), ms);
  await client.sendNotification('exit');
  return bounded('exit', exited, ms);
}

/** For `finally`: drop the connection and kill the process if it is still running. */
export function endServer(client: ProtocolConnection, child: { exitCode: number | null; kill(): boolean }): void {
  client.dispose();
  if (child.exitCode === null) child.kill();
}
