// Shared helpers of the throughput benchmarks: a measured child process (wall, CPU, peak RSS of the
// whole process, worker threads included), percentiles, the machine line, files read into the page
// cache before a timed command, and writing one marked
// section of BENCHMARKS.md without touching the others.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;

/**
 * The environment of every process a bench times (commands here, language servers in the editor
 * and run-view benches): this process's, without `NODE_EXTRA_CA_CERTS`.
 * Node reads and parses that certificate bundle at start-up, before any script runs, whether or not
 * the script makes a TLS connection (docs/troubleshooting.md, "Every start costs ~50 ms more on some machines"): a fixed cost
 * of the host's TLS set-up that neither the check nor the `JSON.parse` pass it is compared with uses.
 */
export const timedEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS'));
/** Whether `timedEnv` left anything out (the machine line says so). */
const caCertsLeftOut = Object.keys(timedEnv).length !== Object.keys(process.env).length;

/**
 * The Python that runs the benches' Python scripts (bench/baseline.py): Debian's where it is there,
 * else the one on PATH. A version manager's `python3` on PATH can be a shim script that starts the
 * real interpreter itself (pyenv's: ~0.1 s a start measured on this host), which a timed pass must
 * not count.
 */
export const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/**
 * Runs `node -r bench/maxrss.cjs <args>`, or `PYTHON <args>` when `args[0]` is a Python script
 * (which reports its peak RSS and CPU time as bench/maxrss.cjs does: bench/baseline.py), in
 * `timedEnv`, and returns { wall, cpu, rss, stdout, stderr }.
 */
export function measure(args) {
  const [exe, argv] = args[0].endsWith('.py') ? [PYTHON, args] : [process.execPath, ['-r', join(root, 'bench/maxrss.cjs'), ...args]];
  const t = performance.now();
  const r = spawnSync(exe, argv, { cwd: root, env: timedEnv, encoding: 'utf8', maxBuffer: 1 << 30 });
  const wall = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const rss = Number(/RL_MAXRSS_KB (\d+)/.exec(r.stderr)?.[1] ?? NaN) / 1024;
  const cpu = Number(/RL_CPU_US (\d+)/.exec(r.stderr)?.[1] ?? NaN) / 1e6;
  return { wall, rss, cpu, stdout: r.stdout, stderr: r.stderr };
}

/** Starts the node commands `commands` (argument lists) all at once, in `timedEnv`; their exit codes. */
export function atOnce(commands) {
  return Promise.all(
    commands.map(
      (args) =>
        new Promise((resolve, reject) => {
          const child = spawn(process.execPath, args, { cwd: root, env: timedEnv, stdio: 'ignore' });
          child.on('error', reject);
          child.on('exit', resolve);
        }),
    ),
  );
}

/**
 * `commands` (name → node arguments) timed `runs` times each, interleaved, after one warm-up run of
 * the first (the page cache); each run logged under `label`. Every name of `commands`, and
 * `before`, gets its list of runs (empty when not run).
 */
export function interleaved(label, commands, runs) {
  measure(Object.values(commands)[0]);
  const got = { before: [] };
  for (const k of Object.keys(commands)) got[k] = [];
  for (let r = 0; r < runs; r++) {
    for (const [k, a] of Object.entries(commands)) {
      const m = measure(a);
      got[k].push(m);
      console.log(`  ${label} ${k}: ${m.wall.toFixed(2)} s wall, ${m.cpu.toFixed(2)} s CPU, ${m.rss.toFixed(0)} MB`);
    }
  }
  return got;
}

/** The value after `--<name>` on the command line, or `fallback`. */
export function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
}

/** Nearest-rank percentile. */
export function pct(xs, p) {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

export function machine(loadBefore) {
  const head = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout?.trim() || 'an unknown commit';
  const measured = `measured ${new Date().toISOString().slice(0, 10)} at ${head} on `;
  const caCerts = caCertsLeftOut ? ', timed commands without the host’s `NODE_EXTRA_CA_CERTS`' : '';
  return `${measured}${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 1024 ** 3).toFixed(0)} GiB RAM, Node ${process.version}${caCerts}, load average (1/5/15 min) ${loadBefore} before timing, ${load()} after (the 1-minute figure counts the bench's own runs)`;
}

/** Replaces `<!-- name:start --> … <!-- name:end -->` in BENCHMARKS.md, or inserts it before the editor section. */
export function writeSection(name, body) {
  const path = join(root, 'BENCHMARKS.md');
  let md = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  const section = `<!-- ${name}:start -->\n${body.trim()}\n<!-- ${name}:end -->`;
  const re = new RegExp(`<!-- ${name}:start -->[\\s\\S]*<!-- ${name}:end -->`);
  if (re.test(md)) md = md.replace(re, section);
  else if (md.includes('<!-- editor:start -->')) md = md.replace('<!-- editor:start -->', `${section}\n\n<!-- editor:start -->`);
  else md = `${md.trimEnd()}\n\n${section}\n`;
  writeFileSync(path, md);
}

/** The engine (bench/engineEntry.ts) bundled into `dataDir` and loaded, for in-process checks. */
export async function loadEngine(dataDir) {
  const { build } = await import('esbuild');
  const { createRequire } = await import('node:module');
  const bundle = join(dataDir, 'engine.cjs');
  await build({ entryPoints: [join(root, 'bench/engineEntry.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: bundle, logLevel: 'warning' });
  return createRequire(import.meta.url)(bundle);
}

/**
 * Reads `files` through once, so that the command timed next finds them in the page cache: this
 * machine pages out what was not read for a minute (docs/performance.md, "Reading the figures"),
 * and some benches' rows take minutes each.
 */
export function warm(files) {
  const buf = Buffer.allocUnsafe(16 << 20);
  for (const f of files) {
    const fd = openSync(f, 'r');
    try {
      while (readSync(fd, buf, 0, buf.length, null) > 0);
    } finally {
      closeSync(fd);
    }
  }
}
