import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { parseDecimalInteger } from './decimal-integer.js';

// Not on the Node 22 compatibility run: reading digits is plain code, with no module of the runtime (the Node 20
// run has run it).
describeOnFullRun('parseDecimalInteger', () => {
  it('reads every whole number written in decimal digits, leading zeros included', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.nat({ max: 3 }), (value, zeros) => {
        const text = `${'0'.repeat(zeros)}${value}`;
        expect(parseDecimalInteger(text)).toBe(text.length > 15 ? undefined : value);
      }),
    );
  });

  it('refuses what Number would take besides digits', () => {
    for (const text of [
      '0x10',
      '0o7',
      '0b1',
      '1e1',
      '+5',
      '-5',
      ' 5',
      '5 ',
      '5.0',
      '.5',
      '1_0',
      '',
      'Infinity',
    ]) {
      expect(parseDecimalInteger(text), text).toBeUndefined();
    }
    fc.assert(
      fc.property(fc.string(), (text) => {
        const value = parseDecimalInteger(text);
        if (value !== undefined) expect(String(value).padStart(text.length, '0')).toBe(text);
      }),
    );
  });
});
