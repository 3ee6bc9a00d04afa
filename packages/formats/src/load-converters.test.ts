import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { FormatError } from './format-error.js';
import { formats } from './formats.js';
import {
  type AnthropicConverters,
  loadAnthropicConverters,
  loadOpenAIConverters,
  loadProviderPackage,
  type OpenAIConverters,
  type ProviderPackageName,
} from './load-converters.js';

describe('the provider converters', () => {
  it('are what the provider packages export, by their own types', async () => {
    // The formats have no build-time dependency on the providers: this is where their types meet.
    expectTypeOf(await import('@compaction/provider-anthropic')).toExtend<AnthropicConverters>();
    expectTypeOf(await import('@compaction/provider-openai')).toExtend<OpenAIConverters>();
    const anthropic = await loadAnthropicConverters();
    expect(anthropic.fromAnthropicRequest({ messages: [{ role: 'user', content: 'hi' }] })).toMatchObject([
      { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    ]);
    const openAI = await loadOpenAIConverters();
    expect(openAI.toOpenAIChatMessages([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }])).toEqual([
      { role: 'user', content: 'hi' },
    ]);
  });

  it('say which package to install when it is not installed', async () => {
    const absent = '@compaction/provider-absent' as ProviderPackageName;
    const error = await loadProviderPackage(absent, []).catch((caught: unknown) => caught);
    expect(FormatError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'formats/missing-package',
      reason: 'missing-package',
      message: 'this format needs @compaction/provider-absent; install it next to @compaction/formats',
    });
  });

  it('say to update a package that lacks an export', async () => {
    await expect(loadProviderPackage('@compaction/provider-openai', ['fromNothing'])).rejects.toMatchObject({
      code: 'formats/missing-package',
      message:
        '@compaction/provider-openai does not export fromNothing; update it to a version that matches @compaction/formats',
    });
  });

  it('are never imported statically: a conversation of another format loads no provider package', () => {
    const sources = readdirSync(import.meta.dirname, { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('.ts') && !file.endsWith('.test.ts'),
    );
    const importing = sources.filter((file) =>
      /^import [^;]*from '@compaction\/provider-/m.test(
        readFileSync(join(import.meta.dirname, file), 'utf8'),
      ),
    );
    expect(importing).toEqual([]);
  });

  it('say which field of a Responses request continues context the API stores', async () => {
    const stored = await formats['openai-responses'].read({ previous_response_id: 'resp_1', input: 'next' });
    expect(stored.storedContext).toBe('previous_response_id');
    const whole = await formats['openai-responses'].read({ input: [{ role: 'user', content: 'hi' }] });
    expect(whole.storedContext).toBeUndefined();
  });
});
