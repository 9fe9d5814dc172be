// What `npm test` needs from the operating system, installed before any test runs: the real
// editors and the browser the rings drive. On a Debian machine as root (CI, a fresh developer box)
// the missing packages are installed with apt-get; anywhere else the run stops at once with the
// exact command to run, instead of failing deep inside a test or a native build.
import { spawnSync } from 'node:child_process';

/** Debian packages each ring needs; a ring not listed needs nothing from the system. */
export const RING_PACKAGES = {
  nvim: ['neovim'],
  emacs: ['emacs-nox', 'elpa-eglot'],
  // code-server's `kerberos` module compiles against libkrb5-dev; Chromium drives the workbench.
  vscode: ['chromium', 'libkrb5-dev'],
  // The HTML report is opened in headless Chromium.
  browser: ['chromium'],
};

export function packagesFor(rings) {
  return [...new Set(rings.flatMap((ring) => RING_PACKAGES[ring] ?? []))].sort();
}

function installed(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

/**
 * What to do about the missing packages: nothing, install them (root with apt-get), or stop with
 * the command a person must run. Pure, so the decision is tested without touching the machine.
 */
export function setupPlan({ missing, isRoot, hasApt }) {
  if (missing.length === 0) return { action: 'none' };
  const install = `apt-get install -y ${missing.join(' ')}`;
  if (isRoot && hasApt)
    return {
      action: 'install',
      commands: [
        ['apt-get', ['update', '-qq']],
        ['apt-get', ['install', '-y', '-qq', ...missing]],
      ],
    };
  const command = hasApt ? `sudo apt-get update && sudo ${install}` : `install these Debian packages (or your system's equivalents): ${missing.join(' ')}`;
  return { action: 'stop', message: `npm test needs ${missing.join(', ')}, which ${missing.length === 1 ? 'is' : 'are'} not installed. Run:\n  ${command}` };
}

/** Installs or reports what the rings need; returns false when the run must stop. */
export function ensureSystemPackages(rings, log = console.error) {
  // ROLLOUT_LENS_PRETEND_MISSING: packages to treat as missing, to try the stop path by hand.
  const pretend = (process.env.ROLLOUT_LENS_PRETEND_MISSING ?? '').split(/[ ,]+/).filter(Boolean);
  const missing = packagesFor(rings).filter((pkg) => pretend.includes(pkg) || !installed(pkg));
  const hasApt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0 && pretend.length === 0;
  const plan = setupPlan({ missing, isRoot, hasApt });
  if (plan.action === 'none') return true;
  if (plan.action === 'stop') {
    log(plan.message);
    return false;
  }
  log(`npm test: installing ${missing.join(' ')} (apt-get)`);
  for (const [cmd, args] of plan.commands) {
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (r.status !== 0) {
      log(`npm test: \`${cmd} ${args.join(' ')}\` failed (${r.status ?? r.signal}); install ${missing.join(' ')} and run npm test again`);
      return false;
    }
  }
  const still = missing.filter((pkg) => !installed(pkg));
  if (still.length) log(`npm test: still missing after apt-get: ${still.join(' ')}`);
  return still.length === 0;
}
