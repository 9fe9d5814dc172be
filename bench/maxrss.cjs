// Preloaded into a measured child (`node -r bench/maxrss.cjs …`): reports its peak RSS and CPU
// time on exit (CPU time is steadier than wall time on a shared machine).
process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write(`\nRL_MAXRSS_KB ${u.maxRSS}\nRL_CPU_US ${u.userCPUTime + u.systemCPUTime}\n`);
});
