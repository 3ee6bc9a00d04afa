import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether an `Authorization` header carries the bearer token. Both sides are hashed first, so a refusal takes
 * the same time whatever the given token's length or content, and a blank token matches nothing.
 */
export function hasBearerToken(header: string | undefined, token: string): boolean {
  const match = /^Bearer[ \t]+(.*)$/i.exec(header ?? '');
  const given = match === null ? '' : match[1]!.trim();
  const equal = timingSafeEqual(digest(given), digest(token));
  return equal && match !== null && token.trim() !== '';
}
