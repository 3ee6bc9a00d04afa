import { randomUUID } from 'node:crypto';

/**
 * What a request id taken from a client looks like: 1 to 128 letters, digits, `-`, `_`, `.` or `:`. Anything
 * else (spaces, quotes, control characters, a very long value) would be unsafe to echo in a header and a log
 * line, so a new id is made instead.
 */
const saneRequestId = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's own `x-request-id` when it is a sane token, otherwise a new UUID. */
export function requestIdOf(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given !== undefined && saneRequestId.test(given) ? given : randomUUID();
}
