// The codes of the reading kinds (checks.ts `ReadKind`) that the two fast twins switch on,
// milesSample/lineMembers.ts and scan/ptMembers.ts: one numbering for both, so a member's kind is
// the same number in each. 0 is no reader. Each twin lists the kinds it reads (LINE_READERS,
// PT_READERS), which test/unit/formats/memberTables.test.ts holds every table member to.
export const KIND_GROUP_KEY = 1;
export const KIND_INTEGER = 2;
export const KIND_REWARD = 3;
export const KIND_STATUS = 4;
export const KIND_SHORT_TEXT = 5;
export const KIND_ID = 6;
export const KIND_TABLE = 7;
export const KIND_PROMPT_HASH = 8;
export const KIND_SUM = 9;
export const KIND_LIST = 10;
export const KIND_SCALARS = 11;
export const KIND_TAIL = 12;
export const KIND_SKIP = 13;
