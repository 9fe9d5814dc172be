// What a pickle machine records about a file as it reads it (docs/pt.md): each callable outside
// the allow-list once (not run), tensors whose view does not fit their storage up to a bound, and
// where reading stopped.
import { LIMITS } from './limits';
import type { PickleProblem } from './pickleTypes';
import { Blocked } from './values';

export class PickleProblems {
  readonly list: PickleProblem[] = [];
  private readonly blockedSeen = new Set<string>();
  private tensors = 0;

  /** Reading stopped here. */
  error(message: string, offset: number, sample: number): void {
    this.list.push({ kind: 'error', message, offset, sample });
  }

  /** A callable outside the allow-list: recorded once, never run; its stand-in. */
  blocked(callable: string, offset: number, sample: number): Blocked {
    if (!this.blockedSeen.has(callable)) {
      this.blockedSeen.add(callable);
      this.list.push({
        kind: 'blocked',
        callable,
        offset,
        sample,
        message: `the pickle calls ${callable}, which is not a data type: it was not run (nothing in the file was executed) and its result is left out`,
      });
    }
    return new Blocked(callable);
  }

  /** A tensor whose view does not fit its storage (tensorView.ts); a hostile file may hold millions. */
  tensor(message: string, offset: number, sample: number): void {
    if (++this.tensors > LIMITS.tensorProblems) return;
    const more = this.tensors === LIMITS.tensorProblems ? ` (the first ${LIMITS.tensorProblems} such tensors are named; later ones are not)` : '';
    this.list.push({ kind: 'tensor', offset, sample, message: `${message}${more}` });
  }
}
