// Preloaded into a measured child (`node -r bench/maxrss.cjs …`): reports its peak RSS and CPU
// time on exit (CPU time is steadier than wall time on a shared machine). The peak is the
// process's own high-water mark (VmHWM, Linux): `resourceUsage().maxRSS` keeps the RSS the child
// had as a fork of the bench (Linux carries it over exec), so a child of a bench that had read a
// big file in process reported at least the bench's size.
const { readFileSync } = require('node:fs');

function peakKb(u) {
  try {
    const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // not Linux: the rusage figure
  }
  return u.maxRSS;
}

process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(`\nRL_MAXRSS_KB ${peakKb(u)}\nRL_CPU_US ${u.userCPUTime + u.systemCPUTime}\n`);
});
