// What the pickle machine (pickleMachine.ts) is given and gives back.
import type { StorageSizes } from './tensorView';

export interface PickleProblem {
  /**
   * `blocked`: a callable outside the allow-list (not run); `error`: reading stopped here;
   * `tensor`: a tensor whose view does not fit its storage (tensorView.ts), reading went on.
   */
  kind: 'blocked' | 'error' | 'tensor';
  message: string;
  /** Byte offset in the pickle where it happened. */
  offset: number;
  /** Samples handed over before it happened (so it is in sample `sample`, 0-based, if any). */
  sample: number;
  callable?: string;
}

export interface PickleOptions {
  /** Count lists of numbers instead of keeping them (for analysis; an export keeps them). */
  summarize?: boolean;
  /**
   * Called with each element of the root dict's `samples` list (torch.save of miles'
   * `dict(rollout_id=…, metadata=…, samples=[…])`) once it is complete: when the next element
   * begins, or when its batch is appended. The value is only whole during the call (its long
   * texts are released after it) and is not kept.
   */
  onSample?: (value: unknown, index: number) => void;
  /**
   * With `summarize`: samples (by index) also built in full, lists of numbers kept. Each is read
   * again from its bytes as soon as it is handed on, and given to `onFullSample` after `onSample`
   * had its summarised value; or undefined where it cannot be built so (its bytes are not its own
   * alone, or it holds a list of numbers from an earlier sample, which the summarising machine
   * counted): the caller then reads the dump without summarising.
   */
  fullSamples?: ReadonlySet<number>;
  onFullSample?: (value: unknown, index: number) => void;
  isCancelled?: () => boolean;
  /** The byte sizes of the zip's `data/<key>` storage records by key, to check tensors' views against. */
  storages?: StorageSizes;
  /** Read size per chunk (default 4 MiB). */
  chunkSize?: number;
}

export interface PickleResult {
  /** The unpickled value (the root), or undefined when reading stopped before STOP. */
  value: unknown;
  /** Samples handed to `onSample`. */
  samples: number;
  problems: PickleProblem[];
  cancelled: boolean;
}
