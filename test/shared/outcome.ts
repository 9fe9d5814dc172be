// What a read gave: its value, or the message it threw (for tests that compare two readers' outcomes).
export function outcome(read: () => unknown): unknown {
  try {
    return { ok: read() };
  } catch (err) {
    return { error: (err as Error).message };
  }
}
