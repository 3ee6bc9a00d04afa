import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { parseByteSize } from './parse-byte-size.js';

// Not on the Node 22 compatibility run: parsing sizes is plain code, with no module of the runtime (the Node 20
// run has run it).
describeOnFullRun('parseByteSize', () => {
  it('parses byte sizes', () => {
    expect(parseByteSize('512kb', '--x')).toBe(512 * 1024);
    expect(parseByteSize('10mb', '--x')).toBe(10 * 1024 ** 2);
    expect(parseByteSize('1g', '--x')).toBe(1024 ** 3);
    expect(parseByteSize('100', '--x')).toBe(100);
    expect(() => parseByteSize('big', '--max-session-size')).toThrow(
      '--max-session-size must be a size such as 512kb or 10mb, got "big"',
    );
    expect(() => parseByteSize('0', '--x')).toThrow('--x must be at least 1 byte');
  });
});
