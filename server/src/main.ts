// Language server entry: `node dist/server.js --stdio` or `--node-ipc` (the transport is picked
// from the command line by vscode-languageserver). All behaviour lives in startServer.
import { ProposedFeatures, createConnection } from 'vscode-languageserver/node';
import { DeflateThread, wantsDeflateThread } from './node/deflateThread';
import { nodeFileAccess } from './node/nodeFileAccess';
import { keepYoungGenerationSmall } from './node/youngGeneration';
import { startServer } from './server/startServer';

keepYoungGenerationSmall();

const connection = createConnection(ProposedFeatures.all);
startServer(connection, { access: nodeFileAccess, deflate: wantsDeflateThread() ? new DeflateThread() : undefined });
