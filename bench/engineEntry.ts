// What the benchmark calls in-process (bundled by bench/run.mjs into bench/.data/engine.cjs).
export { analyzeFiles, scanFile } from '../server/src/core/engine';
export { nodeFileAccess } from '../server/src/node/nodeFileAccess';
export { DEFAULT_SETTINGS } from '../shared/protocol';
export { parseByRule } from '../server/src/core/reader/ruleParse';
export { buildRule } from '../server/src/core/formats/rule';
export { WorkerPool } from '../server/src/node/parallelScan';
export { DeflateThread } from '../server/src/node/deflateThread';
export { exportPtLines } from '../server/src/core/reader/pt/exportLines';
export { loadEvalConfig } from '../server/src/core/eval/config';
export { analyzeTrainStep } from '../server/src/core/train/trainStep';
export { findDrift, driftFinding } from '../server/src/core/train/drift';
export { readTrainFile, tensorsOf } from '../server/src/core/train/trainFile';
export { StorageBatch } from '../server/src/core/reader/pt/storageBatch';
export { UNLOGGED_KEYS } from '../server/src/core/train/loggedFigures';
