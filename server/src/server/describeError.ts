// How an error reads in the server's log: its stack when it has one (the server's own faults),
// else its text. Shared by the handlers' guards and the background analyses.

export function describeError(err: unknown): string {
  if (err instanceof Error) return err.stack ?? `${err.name}: ${err.message}`;
  return String(err);
}
