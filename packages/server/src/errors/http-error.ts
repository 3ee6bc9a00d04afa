import { CompactionError } from '@compaction/core';

/** An error the server answers with a status and `{"error": {"code", "message"}}`. */
export class HttpError extends CompactionError {
  static override readonly marker: string = 'compaction.error.http';
  override readonly name: string = 'HttpError';
  readonly status: number;
  /** The code in the JSON error body, such as `not-found` or `payload-too-large`. */
  readonly errorCode: string;

  constructor({ status, errorCode, message }: { status: number; errorCode: string; message: string }) {
    super({ code: 'cli/http-status', message });
    this.status = status;
    this.errorCode = errorCode;
  }
}

/** A 400 with a code. */
export function badRequest(errorCode: string, message: string): HttpError {
  return new HttpError({ status: 400, errorCode, message });
}
