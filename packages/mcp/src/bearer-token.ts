import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether an `Authorization` header carries the bearer token. Both sides are hashed first, so the
 * comparison takes the same time whatever the given token's length or content: neither the length nor a
 * matching prefix of the secret shows in how long a refusal takes. A blank token matches nothing: it would
 * otherwise let `Authorization: Bearer ` in.
 *
 * The same check as `@compaction/server`'s (`src/serve/bearer-token.ts`), kept in step with it by hand: this
 * package does not depend on the server, and a check that needs `node:crypto` has no place in the core.
 */
export function hasBearerToken(header: string | undefined, token: string): boolean {
  const match = /^Bearer[ \t]+(.*)$/i.exec(header ?? '');
  const given = match === null ? '' : match[1]!.trim();
  // Compared even when the header is missing or malformed, so a refusal costs the same either way.
  const equal = timingSafeEqual(digest(given), digest(token));
  return equal && match !== null && token.trim() !== '';
}
