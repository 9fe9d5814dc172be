// An editor driven headless by a test (Neovim, Emacs): its output collected, its run bounded as a
// whole (the editor's own script bounds each wait; this kills it if the script itself hangs).
import type { ChildProcess } from 'node:child_process';

export async function boundedRun(child: ChildProcess, limitMs: number): Promise<{ code: number | null; output: string }> {
  let output = '';
  child.stdout?.on('data', (b: Buffer) => (output += b.toString()));
  child.stderr?.on('data', (b: Buffer) => (output += b.toString()));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  return { code, output };
}
