// Language server entry: `node dist/server.js --stdio` or `--node-ipc` (the transport is picked
// from the command line by vscode-languageserver). All behaviour lives in startServer.
import { setFlagsFromString } from 'node:v8';
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { nodeFileAccess } from './node/nodeFileAccess';
import { startServer } from './server/startServer';

// A small young generation, as the CLI has (server/src/cli.ts): a scan's per-line objects die
// within a line, and semi-spaces grown to 16 MB each only add resident memory while a run folder
// is read (BENCHMARKS.md, "Run view over a large run folder"). Set at run time, the growth factor
// is read whenever the young generation would grow; options on the node command line win.
if (!process.execArgv.some((a) => a.includes('semi-space'))) setFlagsFromString('--semi-space-growth-factor=1');

const connection = createConnection(ProposedFeatures.all);
startServer(connection, { access: nodeFileAccess });
