import { CompactionError } from '@compaction/core';

/** A name a class or code could have: what an error's `name` holds when it is not a message in disguise. */
const identifier = /^[A-Za-z_$][\w$.]{0,63}$/;

/**
 * The `error.type` of a failure: a Compaction error's stable code, another error's class name, else `_OTHER`
 * (the OpenTelemetry conventions' fallback). Never the message, which may quote the conversation or a key.
 */
export function errorType(error: unknown): string {
  if (CompactionError.isInstance(error)) return error.code;
  if (error instanceof Error && identifier.test(error.name)) return error.name;
  return '_OTHER';
}
