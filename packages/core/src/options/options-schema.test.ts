import { describe, expect, it } from 'vitest';
import { InvalidOptionsError } from '../errors/invalid-options-error.js';
import { type OptionsSchema, validateOptions } from './options-schema.js';

const schema: OptionsSchema = {
  type: 'object',
  properties: {
    keep: { type: 'integer', minimum: 0, default: 3 },
    mode: { enum: ['truncate', 'mask'], default: 'truncate' },
    exempt: { type: 'array', items: { type: 'string' }, default: [] },
    cap: { anyOf: [{ type: 'number', exclusiveMinimum: 0 }, { type: 'null' }] },
  },
  additionalProperties: false,
};

describe('validateOptions', () => {
  it('fills in defaults without touching the input', () => {
    const input = { keep: 5 };
    expect(validateOptions(schema, input, 'test')).toEqual({ keep: 5, mode: 'truncate', exempt: [] });
    expect(input).toEqual({ keep: 5 });
    expect(validateOptions(schema, undefined, 'test')).toEqual({ keep: 3, mode: 'truncate', exempt: [] });
  });

  it('lists every problem with its path', () => {
    try {
      validateOptions(
        schema,
        { keep: -1.5, mode: 'drop', exempt: ['a', 2], cap: 'big', extra: true },
        'strategy "x"',
      );
      expect.unreachable();
    } catch (error) {
      expect(InvalidOptionsError.isInstance(error)).toBe(true);
      const issues = (error as InvalidOptionsError).issues;
      expect(issues.map((issue) => issue.path)).toEqual([
        'keep',
        'keep',
        'mode',
        'exempt[1]',
        'cap',
        'extra',
      ]);
      expect((error as Error).message).toMatch(/^Invalid options for strategy "x": keep: must be an integer/);
      expect(issues.at(-1)?.message).toContain('known: keep, mode, exempt, cap');
    }
  });
});
