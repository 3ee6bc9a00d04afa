import { CompactionError } from '@compaction/core';

const marker = 'compaction.error.http';
const symbol = Symbol.for(marker);

/** An error the server answers with a status and `{"error": {"code", "message"}}`. */
export class HttpError extends CompactionError {
  private readonly [symbol] = true;
  readonly status: number;
  /** The code in the JSON error body, such as `not-found` or `payload-too-large`. */
  readonly errorCode: string;

  constructor({ status, errorCode, message }: { status: number; errorCode: string; message: string }) {
    super({ code: status >= 500 ? 'strategy-failed' : 'invalid-options', message });
    this.name = 'HttpError';
    this.status = status;
    this.errorCode = errorCode;
  }

  static override isInstance(error: unknown): error is HttpError {
    return CompactionError.hasMarker(error, marker);
  }
}

/** A 400 with a code. */
export function badRequest(errorCode: string, message: string): HttpError {
  return new HttpError({ status: 400, errorCode, message });
}
