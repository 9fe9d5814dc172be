// Cancellation, the one way for every room: a token the caller holds (shape-compatible with LSP's
// CancellationToken, without importing it) and the one error a cancelled piece of work throws.

export interface Cancellation {
  readonly isCancellationRequested: boolean;
}

/** Thrown by work that stopped because its token fired; callers answer "cancelled", not "failed". */
export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

/** Throws `CancelledError` when the token has fired. */
export function throwIfCancelled(token: Cancellation | undefined): void {
  if (token?.isCancellationRequested) throw new CancelledError();
}
