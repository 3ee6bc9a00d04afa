/** A 1-based line and column in a text. */
export interface TextLocation {
  line: number;
  column: number;
}

/** The line and column of a character offset. */
export function locationOf(text: string, offset: number): TextLocation {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let index = 0; index < end; index++) {
    if (text.charCodeAt(index) === 10) {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/**
 * Parses JSON and, when it is not valid, explains where: `JSON.parse` only sometimes gives a position, so
 * a small scanner finds the offset of the first error itself.
 */
export function parseJsonWithLocation(
  text: string,
): { ok: true; value: unknown } | { ok: false; reason: string; location: TextLocation } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const message = (error as Error).message;
    const offset = firstJsonErrorOffset(text);
    const reason = message
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/, ".*" is not valid JSON$/s, '')
      .replace(/^Unexpected end of JSON input$/, 'unexpected end of input (truncated?)');
    return { ok: false, reason: lowerFirst(reason), location: locationOf(text, offset) };
  }
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/**
 * The offset of the first syntax error in `text` (its length when the text ends too early). Iterative, with
 * its own stack of open containers, so that any depth of nesting is scanned without overflowing the call stack.
 */
export function firstJsonErrorOffset(text: string): number {
  let position = 0;
  const fail = (): never => {
    throw position;
  };
  const skipSpace = () => {
    while (position < text.length && ' \t\n\r'.includes(text[position]!)) position++;
  };
  const expect = (literal: string) => {
    for (const character of literal) {
      if (text[position] !== character) fail();
      position++;
    }
  };
  const parseString = () => {
    position++;
    while (position < text.length) {
      const character = text[position]!;
      if (character === '"') {
        position++;
        return;
      }
      if (character === '\\') position += 2;
      else if (character.charCodeAt(0) < 0x20) fail();
      else position++;
    }
    fail();
  };
  const parseNumber = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(position, position + 400));
    if (match === null || match[0] === '') fail();
    position += match![0].length;
  };
  const parseKey = () => {
    skipSpace();
    if (text[position] !== '"') fail();
    parseString();
    skipSpace();
    expect(':');
  };
  // The containers open around the current position: `]` for arrays, `}` for objects.
  const open: string[] = [];
  try {
    for (;;) {
      // A value is expected here.
      skipSpace();
      const character = text[position];
      if (character === undefined) fail();
      if (character === '{' || character === '[') {
        const close = character === '{' ? '}' : ']';
        position++;
        skipSpace();
        if (text[position] === close) {
          position++;
        } else {
          open.push(close);
          if (close === '}') parseKey();
          continue;
        }
      } else if (character === '"') parseString();
      else if (character === 't') expect('true');
      else if (character === 'f') expect('false');
      else if (character === 'n') expect('null');
      else parseNumber();
      // After a value: close containers until one continues with a comma.
      for (;;) {
        skipSpace();
        const close = open.at(-1);
        if (close === undefined) {
          if (position < text.length) fail();
          return text.length;
        }
        if (text[position] === ',') {
          position++;
          if (close === '}') parseKey();
          break;
        }
        if (text[position] !== close) fail();
        position++;
        open.pop();
      }
    }
  } catch (offset) {
    return Math.min(offset as number, text.length);
  }
}
