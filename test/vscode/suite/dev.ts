// Extension tests against the extension under development (the repository), in the test
// workspace (a copy of examples/run). Order: the screenshot before the quick fixes change the
// eval config, run-level findings before the quick fixes too (they change what the eval dump
// recomputes), the huge log last (it adds a step to the run).
import './welcome';
import './rollout';
import './hostile';
import './screenshot';
import './views';
import './runViewLive';
import './runLevel';
import './runStatus';
import './evalDatasets';
import './ptDump';
import './dumpFolder';
import './driftStatus';
import './compareRun';
import './hugeFile';
import { runAll } from './runner';

export function run(): Promise<void> {
  return runAll('rollout-lens (development build)');
}
