import { describe, expect, it } from 'vitest';
import { errorLineCharacters, errorLinesOf } from './error-lines.js';

describe('errorLinesOf', () => {
  it('takes exception lines, error prefixes and shell failures', () => {
    const output = [
      'Traceback (most recent call last):',
      '  File "reproduce.py", line 3, in <module>',
      "TypeError: __init__() got an unexpected keyword argument 'code'",
      'E   AssertionError: 1 != 2',
      'error: pathspec missing',
      'FAILED tests/test_app.py::test_one - ValueError',
      'cat: nothing.txt: No such file or directory',
      'Error: reservation not found',
    ].join('\n');
    expect(errorLinesOf(output)).toEqual([
      "TypeError: __init__() got an unexpected keyword argument 'code'",
      'E AssertionError: 1 != 2',
      'error: pathspec missing',
      'FAILED tests/test_app.py::test_one - ValueError',
      'cat: nothing.txt: No such file or directory',
      'Error: reservation not found',
    ]);
  });

  it('ignores code that merely mentions an error class, and repeated lines', () => {
    const output = 'class ValidationError(Exception):\n    raise ValueError("x")\nKeyError: 1\nKeyError: 1';
    expect(errorLinesOf(output)).toEqual(['KeyError: 1']);
  });

  it('cuts long lines', () => {
    const [line] = errorLinesOf(`RuntimeError: ${'x'.repeat(500)}`);
    expect(line).toHaveLength(errorLineCharacters);
  });
});
