// The `generic` format's fields (settings `fields.*`, each a JSON pointer into the record),
// gathered into one object under these names before validation (formats/generic.ts).
import type { MemberTable } from './checks';

export const GENERIC = {
  name: 'generic',
  members: [
    { name: 'groupKey', check: 'id', required: true, feeds: ['groupKey'] },
    { name: 'index', check: 'integer', feeds: ['index'] },
    { name: 'status', check: 'status', feeds: ['status', 'aborted'] },
    { name: 'reward', check: 'reward', feeds: ['reward'] },
    { name: 'cause', check: 'text', feeds: ['cause'] },
    { name: 'dataset', check: 'text', feeds: ['dataset'] },
    { name: 'responseLength', check: 'integer', feeds: ['responseLength'] },
    { name: 'prompt', check: null, feeds: ['promptKey'] },
  ],
} as const satisfies MemberTable;
