/**
 * A failure to convert one message, with the path inside it where it happened. Internal: the converters turn it
 * into an `InvalidMessagesError` naming the message.
 */
export class ConversionProblem extends Error {
  readonly path: string;
  constructor(path: string, message: string) {
    super(message);
    this.path = path;
  }
}
