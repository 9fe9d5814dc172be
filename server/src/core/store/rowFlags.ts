// The bits of a row's `flags` column (store/chunk.ts): its booleans, and where its miles fields are.
// Read and written as `Flag.X` (`import * as Flag`); the bundle makes these plain constants.
export const ABORTED = 1;
export const REWARD_INT = 2;
export const HAS_REWARD = 4;
/** The row has `miles` fields; its effective length is its response length / null / in `effectiveLength`. */
export const MILES = 8;
/** `repetition` true; REP_OTHER: null or an exception (in the store's `repetitionOther` by row). */
export const REP_TRUE = 16;
export const REP_OTHER = 128;
export const LEN_RESPONSE = 32;
export const LEN_NULL = 64;
/** The reward was a Python bool (REWARD_INT too): quoted as `True` / `False`. Past 8 bits: the flags are 16-bit. */
export const REWARD_BOOL = 256;
