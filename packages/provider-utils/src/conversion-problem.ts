/**
 * A failure to convert one message, with the path inside it where it happened. Thrown and caught inside a
 * converter, never to its caller: the converter turns it into an `InvalidMessagesError` naming the message, which
 * is why it is a plain `Error` and not a `CompactionError`. Nested readers prefix their own path to an inner one's.
 */
export class ConversionProblem extends Error {
  /** Where in the message the conversion failed (`content[2].input`), empty for the message itself. */
  readonly path: string;
  constructor(path: string, message: string) {
    super(message);
    this.path = path;
  }
}
