/**
 * Work on the event loop cut into slices, so that a server preparing a large request still answers its other
 * clients between them: the event loop is held for at most about {@link sliceMilliseconds} at a time (plus
 * whatever single step cannot be cut, such as parsing a body), not for the whole preparation.
 */

/** How long a slice holds the event loop before it hands it back. */
export const sliceMilliseconds = 8;

/** The work waiting for its turn, in the order it asked. */
const waiting: (() => void)[] = [];

/** Lets the first waiting work go on, and the next one at the event loop's next turn. */
function releaseOne(): void {
  waiting.shift()?.();
  if (waiting.length > 0) setImmediate(releaseOne);
}

/**
 * Hands the event loop back until a later turn: the connections that are ready (a health check, a small
 * request's bytes) are served before the caller goes on. One waiting caller goes on per turn, in order: two
 * large requests prepared at once never run a slice each in the same turn, which would hold the event loop
 * for both.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (waiting.length === 1) setImmediate(releaseOne);
  });
}

/**
 * `items.map(work)`, handing the event loop back whenever a slice has run for {@link sliceMilliseconds}. A list
 * done within one slice never waits for a turn, so small requests pay nothing.
 */
export async function mapInSlices<Item, Result>(
  items: readonly Item[],
  work: (item: Item, index: number) => Result,
): Promise<Result[]> {
  const results: Result[] = new Array(items.length);
  let sliceStart = performance.now();
  for (let index = 0; index < items.length; index++) {
    results[index] = work(items[index]!, index);
    if (performance.now() - sliceStart >= sliceMilliseconds && index < items.length - 1) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  return results;
}

/**
 * Whether `test` holds for every item, handing the event loop back as {@link mapInSlices} does; stops at the
 * first item it fails for.
 */
export async function everyInSlices<Item>(
  items: readonly Item[],
  test: (item: Item, index: number) => boolean,
): Promise<boolean> {
  let sliceStart = performance.now();
  for (let index = 0; index < items.length; index++) {
    if (!test(items[index]!, index)) return false;
    if (performance.now() - sliceStart >= sliceMilliseconds && index < items.length - 1) {
      await nextTurn();
      sliceStart = performance.now();
    }
  }
  return true;
}

/** Bytes decoded at once by {@link utf8InSlices}: a few milliseconds of work. */
const decodedBytes = 256 * 1024;

/**
 * `bytes.toString('utf8')`, decoded a piece at a time with a turn of the event loop between the pieces: a body
 * of megabytes takes tens of milliseconds to decode in one go. A character cut between two pieces is decoded
 * whole (the decoder streams), and a byte order mark is kept, as `toString` keeps it.
 */
export async function utf8InSlices(bytes: Uint8Array): Promise<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let text = '';
  for (let start = 0; start < bytes.length; start += decodedBytes) {
    if (start > 0) await nextTurn();
    text += decoder.decode(bytes.subarray(start, start + decodedBytes), { stream: true });
  }
  return text + decoder.decode();
}
