/**
 * A JSON syntax error: a short reason and the byte index in the line where it was found. Thrown
 * once or twice per bad line (the per-line path, then the full scan) and always caught by the
 * reader, so it carries no stack trace: capturing one cost more than reading the line (a file of
 * bad lines was read 10 times slower than a good one; BENCHMARKS.md, "Design measurements").
 */
export class JsonError extends Error {
  readonly reason: string;
  readonly position: number;

  constructor(reason: string, position: number) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(reason);
    Error.stackTraceLimit = limit;
    this.reason = reason;
    this.position = position;
  }
}
