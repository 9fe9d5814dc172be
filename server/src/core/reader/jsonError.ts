/** A JSON syntax error: a short reason and the byte index in the line where it was found. */
export class JsonError extends Error {
  constructor(
    readonly reason: string,
    readonly position: number,
  ) {
    super(reason);
  }
}
