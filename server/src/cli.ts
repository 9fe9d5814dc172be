// PLACEHOLDER: the `rollout-lens` command (issue 2).
process.stderr.write('rollout-lens: not built yet\n');
process.exitCode = 2;
