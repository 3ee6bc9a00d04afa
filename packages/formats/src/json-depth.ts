/**
 * The deepest nesting of arrays and objects the CLI and the server accept. Real conversations nest a few dozen
 * levels at most; the limit keeps every recursive step after parsing (validation, counting, serializing) far
 * from the call-stack limit, which `JSON.parse` itself does not hit.
 */
export const maxJsonDepth = 1000;

/** Where a JSON value nests too deeply. */
export interface ExcessiveNesting {
  /** The path to the first value past the limit, such as `messages[1].content[0].input[0][0]…`. */
  path: string;
  /** The limit that was exceeded. */
  maxDepth: number;
}

/** Path segments shown before the rest of a deep path is elided. */
const shownSegments = 8;

interface Visit {
  value: unknown;
  depth: number;
  parent: Visit | undefined;
  key: string | number | undefined;
}

/**
 * Finds the first place where `value` nests arrays and objects more than `maxDepth` levels deep (`[]` is one
 * level), or returns `undefined`. Walks the value with an explicit stack, so it never overflows the call stack
 * whatever the depth: run it on parsed input before anything recursive touches it. The server answers such a
 * body with a 400; the CLI exits with 2.
 */
export function findExcessiveNesting(value: unknown, maxDepth = maxJsonDepth): ExcessiveNesting | undefined {
  if (!isContainer(value)) return undefined;
  // Only containers are visited; `depth` counts the containers from the root down to this one.
  const stack: Visit[] = [{ value, depth: 1, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    if (visit.depth > maxDepth) return { path: pathOf(visit), maxDepth };
    const current = visit.value as Record<string, unknown> | unknown[];
    const depth = visit.depth + 1;
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) {
        const item = current[index];
        if (isContainer(item)) stack.push({ value: item, depth, parent: visit, key: index });
      }
    } else {
      const keys = Object.keys(current);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index]!;
        const item = current[key];
        if (isContainer(item)) stack.push({ value: item, depth, parent: visit, key });
      }
    }
  }
  return undefined;
}

/**
 * {@link findExcessiveNesting} for JSON kept as text, such as an OpenAI tool call's `arguments`: `undefined`
 * when the text is not JSON or nests within the limit.
 */
export function findExcessiveNestingInJsonText(
  text: string,
  maxDepth = maxJsonDepth,
): ExcessiveNesting | undefined {
  const start = text.trimStart()[0];
  if (start !== '[' && start !== '{') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return findExcessiveNesting(value, maxDepth);
}

function isContainer(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

/** One line that says where and how deep, for an error message. */
export function describeExcessiveNesting(nesting: ExcessiveNesting): string {
  const where = nesting.path === '' ? 'the input' : nesting.path;
  return `${where} is nested more than ${nesting.maxDepth.toLocaleString('en-US')} levels deep`;
}

function pathOf(visit: Visit): string {
  const keys: Array<string | number> = [];
  for (let current: Visit | undefined = visit; current !== undefined; current = current.parent) {
    if (current.key !== undefined) keys.push(current.key);
  }
  keys.reverse();
  const shown = keys.slice(0, shownSegments).map((key, index) => {
    if (typeof key === 'number') return `[${key}]`;
    return /^[A-Za-z_$][\w$]*$/.test(key) ? `${index === 0 ? '' : '.'}${key}` : `[${JSON.stringify(key)}]`;
  });
  return shown.join('') + (keys.length > shownSegments ? '…' : '');
}
