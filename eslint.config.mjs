// Lint rules (`npm run lint`, run by `npm test`). Besides the recommended TypeScript rules, the
// import boundaries of docs/architecture.md: the engine (server/src/core) is pure — no editor, no
// LSP, no Node built-ins, nothing from the server, CLI or Node rooms — the VS Code client
// imports nothing from the server's sources (it shares only shared/), and shared/ imports nothing
// from server/ (the engine depends on shared/, not both ways).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { ENGINE_DOORS, ENGINE_SEAMS, ENGINE_VOCABULARY, READER_MAY_IMPORT } from './scripts/engineRooms.mjs';

const NODE_BUILTINS = [
  'assert',
  'buffer',
  'child_process',
  'crypto',
  'events',
  'fs',
  'fs/promises',
  'http',
  'https',
  'net',
  'os',
  'path',
  'perf_hooks',
  'readline',
  'stream',
  'string_decoder',
  'timers',
  'url',
  'util',
  'v8',
  'vm',
  'worker_threads',
  'zlib',
];

const READER_ONLY = 'reader/ holds bytes only: no format, nothing of scan/ or the rooms above (docs/architecture.md).';
const READER_EXCEPT = READER_MAY_IMPORT.map((path) => `${path}$`).join('|');

/** The engine's import rule (pure: no Node, no editor, no host room), with a room's own patterns added. */
function engineImports(...more) {
  return [
    'error',
    {
      paths: NODE_BUILTINS.map((name) => ({ name, message: 'The engine is pure: files go through FileAccess (docs/architecture.md).' })),
      patterns: [
        { regex: '^node:', message: 'The engine is pure: no Node built-ins (docs/architecture.md).' },
        { regex: '^vscode($|-)', message: 'The engine knows no editor and no LSP (docs/architecture.md).' },
        { regex: '^(\\.\\./)+(server|cli|node)(/|$)', message: 'The engine imports nothing from the server, CLI or Node rooms (docs/architecture.md).' },
        ...more,
      ],
    },
  ];
}

// What the hosts (server/src/server, server/src/cli) may import from the engine, by module path
// under server/src/core (docs/architecture.md, "Rooms"): its doors, its vocabulary and its seams,
// listed by folder in scripts/engineRooms.mjs.
const HOST_ENGINE_IMPORTS = {
  regex: `^(\\.\\./)+core/(?!(${[...ENGINE_DOORS, ...ENGINE_VOCABULARY, ...ENGINE_SEAMS].join('|')})$)`,
  message: "Hosts import the engine's doors, vocabulary and seams, not its rooms (docs/architecture.md; scripts/engineRooms.mjs lists them).",
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'out/',
      '.cache/',
      'bench/.data/',
      'test/.tmp/',
      'test/fixtures/',
      'examples/',
      'server/src/core/reader/numberRunWasm.ts',
      'server/src/core/reader/zlibMatchesWasm.ts',
      'server/src/core/compare/bootstrapDrawsWasm.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: {
        console: 'readonly',
        process: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        queueMicrotask: 'readonly',
        URL: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        WebAssembly: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        AbortController: 'readonly',
        URLSearchParams: 'readonly',
        __dirname: 'readonly',
        require: 'readonly',
        module: 'writable',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // The escapers match control characters on purpose: finding them is their job.
      'no-control-regex': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'prefer-const': 'error',
    },
  },
  {
    files: ['server/src/core/**/*.ts'],
    rules: { 'no-restricted-imports': engineImports() },
  },
  {
    // reader/ holds bytes only: it imports no format, nothing of scan/ or the rooms above (only the
    // seams FileAccess and cancellation, and Python's number text: READER_MAY_IMPORT).
    files: ['server/src/core/reader/*.ts'],
    rules: { 'no-restricted-imports': engineImports({ regex: `^\\.\\./(?!${READER_EXCEPT})`, message: READER_ONLY }) },
  },
  {
    files: ['server/src/core/reader/pt/*.ts'],
    rules: { 'no-restricted-imports': engineImports({ regex: `^\\.\\./\\.\\./(?!${READER_EXCEPT})`, message: READER_ONLY }) },
  },
  {
    // scan/ reads a file through its format: formats/ sits below it.
    files: ['server/src/core/formats/**/*.ts'],
    rules: { 'no-restricted-imports': engineImports({ regex: '^\\.\\./scan/', message: 'formats/ sits below scan/ (docs/architecture.md).' }) },
  },
  {
    files: ['client/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '^(\\.\\./)+server(/|$)', message: 'The client shares only shared/ with the server (docs/architecture.md).' }],
        },
      ],
    },
  },
  {
    // shared/ is what the client and the server both read: the wire's types and the views. The
    // engine may import it; it imports nothing from the engine or the hosts (one direction).
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+server(/|$)',
              message: 'shared/ depends on nothing in server/: the engine imports shared/, not the other way round (docs/architecture.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/server/**/*.ts', 'server/src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [HOST_ENGINE_IMPORTS] }] },
  },
  {
    // protocol/ registers handlers and nothing else: the rooms below it import nothing from it.
    files: ['server/src/server/**/*.ts'],
    ignores: ['server/src/server/protocol/**', 'server/src/server/startServer.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            HOST_ENGINE_IMPORTS,
            { regex: '^\\.{1,2}/protocol/', message: 'protocol/ only registers handlers; what others need lives in their room (docs/architecture.md).' },
          ],
        },
      ],
    },
  },
  {
    // TypeScript checks names itself.
    files: ['**/*.ts'],
    rules: { 'no-undef': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
