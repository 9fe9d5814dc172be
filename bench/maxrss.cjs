// Preloaded into a measured child (`node -r bench/maxrss.cjs …`): reports its peak RSS on exit.
process.on('exit', () => {
  process.stderr.write(`\nRL_MAXRSS_KB ${process.resourceUsage().maxRSS}\n`);
});
