import { CompactionAbortedError } from '@compaction/core';
import { describe, expect, it } from 'vitest';
import type { ModelTableEntry } from './find-model-entry.js';
import { sdkProviderBase } from './sdk-provider-settings.js';

const table: Record<string, ModelTableEntry> = {
  long: { contextWindow: 200, maxOutputTokens: 20, longContextWindow: 1000 },
  short: { contextWindow: 100, maxOutputTokens: 8 },
};
const createClient = () => Promise.resolve({ built: true });
const catalog = { defaultModel: 'long', table, fallback: { contextWindow: 50, maxOutputTokens: 5 } };

describe('sdkProviderBase', () => {
  it('gives the members every provider has, with the default model of the settings or the catalog', () => {
    expect(sdkProviderBase('test', {}, catalog, createClient).members).toMatchObject({
      specificationVersion: 'v1',
      name: 'test',
      modelId: 'long',
    });
    expect(sdkProviderBase('test', { model: 'short' }, catalog, createClient).members.modelId).toBe('short');
  });

  it('reads the table by prefix, with the standard window unless the settings ask for the long one', () => {
    expect(sdkProviderBase('test', {}, catalog, createClient).members.modelLimits('long-2025')).toEqual({
      contextWindow: 200,
      maxOutputTokens: 20,
    });
    expect(
      sdkProviderBase('test', { longContext: true }, catalog, createClient).members.modelLimits(),
    ).toEqual({
      contextWindow: 1000,
      maxOutputTokens: 20,
    });
  });

  it("applies the settings' overrides and warns about an unknown model under the package's name", () => {
    const warnings: string[] = [];
    const { members } = sdkProviderBase(
      'test',
      { modelLimits: { long: { maxOutputTokens: 50 } }, warn: (message) => warnings.push(message) },
      catalog,
      createClient,
    );
    expect(members.modelLimits()).toEqual({ contextWindow: 200, maxOutputTokens: 50 });
    expect(members.modelLimits('other')).toEqual(catalog.fallback);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('@compaction/provider-test: unknown model "other"');
  });

  it("resolves a request's model and output limit, capped at the model's and refused once aborted", () => {
    const { resolve } = sdkProviderBase('test', { maxOutputTokens: 10 }, catalog, createClient);
    expect(resolve({ messages: [] })).toEqual({ modelId: 'long', maxOutputTokens: 10 });
    expect(resolve({ messages: [], modelId: 'short' })).toEqual({ modelId: 'short', maxOutputTokens: 8 });
    expect(resolve({ messages: [], maxOutputTokens: 99 })).toEqual({ modelId: 'long', maxOutputTokens: 99 });
    const aborted = new AbortController();
    aborted.abort();
    expect(() => resolve({ messages: [], abortSignal: aborted.signal })).toThrow(CompactionAbortedError);
  });

  it("gives the settings' client, else builds one on first use and keeps it", async () => {
    const given = { built: false };
    expect(await sdkProviderBase('test', { client: given }, catalog, createClient).getClient()).toBe(given);
    let builds = 0;
    const { getClient } = sdkProviderBase('test', {}, catalog, () =>
      Promise.resolve({ built: ++builds > 0 }),
    );
    expect(builds).toBe(0);
    const first = await getClient();
    expect(await getClient()).toBe(first);
    expect(builds).toBe(1);
  });
});
