// The engine's rooms as lint holds them (docs/architecture.md, "Rooms"), by module path under
// server/src/core: a plain name is a file at its root, `folder/.+` a whole folder. Read by
// eslint.config.mjs (what hosts may import, what reader/ may import) and by
// test/unit/setup/engineRooms.test.ts (the root holds the root doors and nothing else).

/** What hosts import to run the engine: the root doors, and door folders. */
export const ENGINE_DOORS = [
  'engine',
  'inspect',
  'recordDetail',
  'documentScans',
  'findingCap',
  'evalConfigFile',
  'fileText',
  'ptExport',
  'locate/.+',
  'run/.+',
  'views/.+',
  'compare/.+',
  'tokenizer/tokenText',
  'tokenizer/runTokenizer',
];

/** The words hosts and engine share: records, findings, settings, causes. */
export const ENGINE_VOCABULARY = ['vocabulary/.+'];

/** What a host hands the engine (files, cancellation, threads) and the shapes those take. */
export const ENGINE_SEAMS = ['seams/.+', 'reader/deflateJobs'];

/** reader/ holds bytes only: from the rest of the engine it imports just these. */
export const READER_MAY_IMPORT = ['seams/fileAccess', 'seams/cancellation', 'vocabulary/python'];

/** The doors that are files at the engine's root (the entries without a folder). */
export const ROOT_DOORS = ENGINE_DOORS.filter((entry) => !entry.includes('/'));
