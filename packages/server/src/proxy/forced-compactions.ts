import { HttpError } from '../errors/http-error.js';
import { proxySessionPrefix } from './prefix-memory.js';

/** The path below which a conversation's forced compaction is asked for: `/compaction/conversations/{key}/compact`. */
export const conversationsPath = '/compaction/conversations/';

/** The key that stands for whichever conversation sends the proxy its next request. */
export const nextConversationKey = 'next';

/** Most conversations marked at once; marking one more drops the oldest mark. */
const maximumMarks = 1000;

/** What a forced compaction of a conversation's next request runs with. */
export interface ForcedCompaction {
  instructions?: string;
}

/**
 * Conversations whose next request is compacted whatever its size (a manual compaction with `force`), as asked
 * through `POST /compaction/conversations/{key}/compact`: the proxy holds no conversation between requests, so
 * the mark waits for the next one. Marks are few and short-lived: while any is set, every request is read.
 */
export class ForcedCompactions {
  private readonly marks = new Map<string, ForcedCompaction>();

  /** Whether any conversation is marked. */
  get size(): number {
    return this.marks.size;
  }

  /** Marks `key` (or {@link nextConversationKey}); a later mark of the same conversation replaces it. */
  mark(key: string, compaction: ForcedCompaction): void {
    this.marks.delete(key);
    this.marks.set(key, compaction);
    for (const oldest of this.marks.keys()) {
      if (this.marks.size <= maximumMarks) break;
      this.marks.delete(oldest);
    }
  }

  /** The mark of `key`'s conversation, or the one for the next conversation, removed: it is used once. */
  take(key: string): ForcedCompaction | undefined {
    for (const candidate of [key, nextConversationKey]) {
      const found = this.marks.get(candidate);
      if (found === undefined) continue;
      this.marks.delete(candidate);
      return found;
    }
    return undefined;
  }
}

const keyPattern = /^[A-Za-z0-9._:-]{1,200}$/;
/** The key of a conversation without a name: its format and a hash of its first messages. */
const hashedKey = /^(anthropic|openai-chat|openai-responses):[0-9a-f]{16}$/;

/**
 * The conversation key of a path below {@link conversationsPath} ending in `/compact`; `undefined` for another
 * path; 400 for a key that no conversation can have. The key is taken as the store names the conversation
 * (`proxy:<key>`, as `compaction_status` lists it), as the proxy keys it (`named:<name>`, or a hashed key), or as
 * the name a client gave in its `x-compaction-conversation` header.
 */
export function forcedCompactionKey(path: string): string | undefined {
  if (!path.startsWith(conversationsPath) || !path.endsWith('/compact')) return undefined;
  const encoded = path.slice(conversationsPath.length, -'/compact'.length);
  let key: string;
  try {
    key = decodeURIComponent(encoded);
  } catch {
    key = '';
  }
  if (key.startsWith(proxySessionPrefix)) key = key.slice(proxySessionPrefix.length);
  const named = key === nextConversationKey || key.startsWith('named:') || hashedKey.test(key);
  if (!named) key = `named:${key}`;
  if (!keyPattern.test(key)) {
    throw new HttpError({
      status: 400,
      errorCode: 'invalid-conversation',
      message: `a conversation key is 1 to 200 letters, digits, ".", "_", ":" or "-", or "${nextConversationKey}"`,
    });
  }
  return key;
}
