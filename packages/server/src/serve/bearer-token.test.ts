import { describe, expect, it } from 'vitest';
import { hasBearerToken } from './bearer-token.js';

describe('hasBearerToken', () => {
  const token = 's3cret-token';

  it('accepts the token after the Bearer scheme, in any case', () => {
    expect(hasBearerToken(`Bearer ${token}`, token)).toBe(true);
    expect(hasBearerToken(`bearer  ${token}`, token)).toBe(true);
  });

  it('refuses a missing header, another scheme, a prefix, a longer token and an empty one', () => {
    for (const header of [
      undefined,
      '',
      token,
      `Basic ${token}`,
      'Bearer s3cret',
      `Bearer ${token}x`,
      'Bearer ',
      `Bearer ${token.toUpperCase()}`,
    ]) {
      expect(hasBearerToken(header, token), String(header)).toBe(false);
    }
  });

  it('matches nothing with a blank token, not even an empty bearer', () => {
    for (const blank of ['', ' ', '\t']) {
      for (const header of [undefined, '', 'Bearer', 'Bearer ', `Bearer ${blank}`, 'Bearer x']) {
        expect(hasBearerToken(header, blank), `${JSON.stringify(blank)} ${header}`).toBe(false);
      }
    }
  });
});
