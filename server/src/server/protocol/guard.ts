// An internal error in one handler must not take the server down or leave a request unanswered:
// it is logged and answered with an LSP error, and the next request works as before.
import { ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken, type Connection } from 'vscode-languageserver';
import { CancelledError } from '../../core/seams/cancellation';
import { describeError } from '../describeError';

/** Wraps a request handler: cancellation → RequestCancelled, anything else → logged InternalError. */
export function guardRequest<P, R>(
  connection: Connection,
  name: string,
  handler: (params: P, token: CancellationToken) => Promise<R> | R,
): (params: P, token: CancellationToken) => Promise<R | ResponseError<never>> {
  return async (params, token) => {
    try {
      const result = await handler(params, token);
      if (token.isCancellationRequested) return new ResponseError<never>(LSPErrorCodes.RequestCancelled, `${name} cancelled`);
      return result;
    } catch (err) {
      if (err instanceof ResponseError) return err as ResponseError<never>;
      if (err instanceof CancelledError || token.isCancellationRequested) {
        return new ResponseError<never>(LSPErrorCodes.RequestCancelled, `${name} cancelled`);
      }
      connection.console.error(`rollout-lens: ${name} failed: ${describeError(err)}`);
      return new ResponseError<never>(ErrorCodes.InternalError, `rollout-lens: ${name} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
}

/** Wraps a notification handler: errors are logged, never thrown into the connection. */
export function guardNotification<P>(connection: Connection, name: string, handler: (params: P) => Promise<void> | void): (params: P) => void {
  return (params) => {
    try {
      const pending = handler(params);
      if (pending) pending.catch((err: unknown) => connection.console.error(`rollout-lens: ${name} failed: ${describeError(err)}`));
    } catch (err) {
      connection.console.error(`rollout-lens: ${name} failed: ${describeError(err)}`);
    }
  };
}
