// The CLI's file access: every stat, open, read and close done on its own thread, as synchronous
// calls (node/syncFileAccess.ts). The CLI has nothing else to do while a read is under way, so
// handing each call to libuv's I/O threads only adds two thread wake-ups per call; and the
// kernel's own read-ahead reads a file ahead of a sequential scan, so a cold disk loses nothing
// either (BENCHMARKS.md, "Design measurements"). The language server keeps the asynchronous calls
// (node/nodeFileAccess.ts): it answers requests while it reads.
export { syncFileAccess as cliFileAccess } from '../node/syncFileAccess';
