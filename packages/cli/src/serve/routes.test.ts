import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { matchRoute } from './routes.js';

// Not on the Node 22 compatibility run: matching routes is plain code, with no module of the runtime (the Node 20
// run has run it).
describeOnFullRun('matchRoute', () => {
  it('finds a route and decodes its parameters', () => {
    expect(matchRoute('GET', '/v1/sessions')).toEqual({ key: 'GET /v1/sessions', parameters: {} });
    expect(matchRoute('POST', '/v1/sessions/a%20b/messages')).toEqual({
      key: 'POST /v1/sessions/{id}/messages',
      parameters: { id: 'a b' },
    });
  });

  it('answers 405 for a path another method has, 404 for a path none has, 400 for bad encoding', () => {
    expect(() => matchRoute('PUT', '/v1/sessions/x')).toThrow(
      expect.objectContaining({ status: 405, message: 'PUT is not allowed on /v1/sessions/x' }),
    );
    for (const path of ['/v2/everything', '/v1/sessions//messages', '/v1/sessions/x/y/z']) {
      expect(() => matchRoute('GET', path), path).toThrow(expect.objectContaining({ status: 404 }));
    }
    expect(() => matchRoute('GET', '/v1/sessions/%E0%A4%A')).toThrow(
      expect.objectContaining({
        status: 400,
        message: 'the path segment "%E0%A4%A" is not valid percent-encoding',
      }),
    );
  });
});
