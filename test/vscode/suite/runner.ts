// A small test runner for the extension host (where the outer node test runner cannot reach):
// tests run one after another, each bounded, each reported on its own line (the host relays
// console output to the outer `npm test`), and `run()` rejects when any failed, which makes
// VS Code exit with code 1.
export type TestFn = () => Promise<void> | void;
interface Case {
  name: string;
  fn: TestFn;
  timeoutMs: number;
}

const allCases: Case[] = [];

export function test(name: string, fn: TestFn, timeoutMs = 60_000): void {
  allCases.push({ name, fn, timeoutMs });
}

function bounded<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export async function runAll(suiteName: string): Promise<void> {
  const failed: string[] = [];
  // ROLLOUT_LENS_TEST_GREP=<text>: run only the tests whose name contains it (while iterating).
  const grep = process.env.ROLLOUT_LENS_TEST_GREP;
  const cases = grep ? allCases.filter((c) => c.name.includes(grep)) : allCases;
  console.log(`# suite ${suiteName}: ${cases.length} tests`);
  for (const c of cases) {
    const start = Date.now();
    try {
      await bounded(Promise.resolve().then(c.fn), c.timeoutMs, c.name);
      console.log(`ok - ${c.name} (${Date.now() - start} ms)`);
    } catch (e) {
      failed.push(c.name);
      const detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
      console.log(`not ok - ${c.name} (${Date.now() - start} ms)\n${detail.replace(/^/gm, '    ')}`);
    }
  }
  console.log(`# suite ${suiteName}: ${cases.length - failed.length} passed, ${failed.length} failed`);
  if (failed.length) throw new Error(`${failed.length} failed: ${failed.join('; ')}`);
}
