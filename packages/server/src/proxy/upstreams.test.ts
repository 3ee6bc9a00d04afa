import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { parseUpstreams, upstreamTarget } from './upstreams.js';

// Not on the Node 22 compatibility run: parsing upstreams is plain code, with no module of the runtime (the Node
// 20 run has run it).
describeOnFullRun('parseUpstreams', () => {
  it('reads provider names, provider=URL and a URL for both', () => {
    expect(parseUpstreams(undefined)).toEqual({
      anthropic: new URL('https://api.anthropic.com'),
      openai: new URL('https://api.openai.com'),
    });
    expect(parseUpstreams(['anthropic'])).toEqual({ anthropic: new URL('https://api.anthropic.com') });
    expect(parseUpstreams(['openai=http://127.0.0.1:9000/gateway', 'anthropic'])).toEqual({
      openai: new URL('http://127.0.0.1:9000/gateway'),
      anthropic: new URL('https://api.anthropic.com'),
    });
    const both = new URL('http://127.0.0.1:8080');
    expect(parseUpstreams(['http://127.0.0.1:8080'])).toEqual({ anthropic: both, openai: both });
  });

  it('refuses what is not an http(s) origin, and a provider given twice', () => {
    expect(() => parseUpstreams(['ftp://example.com'])).toThrow('must be an http or https URL');
    expect(() => parseUpstreams(['anthropic-ish'])).toThrow('neither anthropic, openai nor an http(s) URL');
    expect(() => parseUpstreams(['https://user:secret@example.com'])).toThrow('without query or credentials');
    expect(() => parseUpstreams(['anthropic', 'http://127.0.0.1:1'])).toThrow('anthropic is given twice');
  });
});

describeOnFullRun('upstreamTarget', () => {
  it('puts the request path and query after the upstream’s own path', () => {
    expect(upstreamTarget(new URL('http://127.0.0.1:9000/gateway/'), '/v1/messages?beta=true').href).toBe(
      'http://127.0.0.1:9000/gateway/v1/messages?beta=true',
    );
    expect(upstreamTarget(new URL('https://api.openai.com'), '/v1/responses').href).toBe(
      'https://api.openai.com/v1/responses',
    );
  });
});
