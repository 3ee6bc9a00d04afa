import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { CliError } from '../errors/cli-error.js';
import { parseTrigger } from './resolve-settings.js';
import { parseTokenAmount, parseTokenCount } from './token-amount.js';

// Not on the Node 22 compatibility run: parsing token amounts is plain code, with no module of the runtime (the
// Node 20 run has run it).
describeOnFullRun('token amounts', () => {
  it('reads tokens, thousands, millions and fractions', () => {
    expect(parseTokenAmount('32000', '--target')).toBe(32_000);
    expect(parseTokenAmount('32k', '--target')).toBe(32_000);
    expect(parseTokenAmount('1.5M', '--target')).toBe(1_500_000);
    expect(parseTokenAmount('200_000', '--target')).toBe(200_000);
    expect(parseTokenAmount('0.25', '--target')).toBe(0.25);
    expect(parseTokenAmount('1', '--target')).toBe(1);
    expect(parseTokenCount('200k', '--context-window')).toBe(200_000);
    expect(parseTrigger('off')).toBe(false);
    expect(parseTrigger('0.8')).toBe(0.8);
  });

  it('rejects anything else with a usage error naming the flag', () => {
    for (const text of ['', 'lots', '-5', '0', '12.5', '3kb', '0.0']) {
      const error = (() => {
        try {
          parseTokenAmount(text, '--target');
        } catch (caught) {
          return caught;
        }
      })();
      expect(CliError.isInstance(error), text).toBe(true);
      expect((error as CliError).message).toContain('--target');
      expect((error as CliError).exitCode).toBe(1);
    }
    expect(() => parseTokenCount('0.5', '--context-window')).toThrow(/token count/);
  });
});
