import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { matchRoute } from './routes.js';

// Not on the Node 22 compatibility run: matching routes is plain code, with no module of the runtime (the Node 20
// run has run it).
describeOnFullRun('matchRoute', () => {
  it('finds a route and decodes its parameters', () => {
    expect(matchRoute('GET', '/v1/sessions')).toEqual({ key: 'GET /v1/sessions', parameters: {} });
    expect(matchRoute('POST', '/v1/sessions/a%2Db_C9/messages')).toEqual({
      key: 'POST /v1/sessions/{id}/messages',
      parameters: { id: 'a-b_C9' },
    });
  });

  it('answers 404 with a stable code for an id or handle that cannot name anything', () => {
    for (const id of ['a%00b', 'a%20b', 'caf%C3%A9', '.x', 'x'.repeat(129), "x'--"]) {
      expect(() => matchRoute('GET', `/v1/sessions/${id}`), id).toThrow(
        expect.objectContaining({ status: 404, errorCode: 'session-not-found' }),
      );
      expect(() => matchRoute('GET', `/v1/sessions/ok/archive/${id}`), id).toThrow(
        expect.objectContaining({ status: 404, errorCode: 'archive-not-found' }),
      );
    }
    expect(matchRoute('GET', `/v1/sessions/${'x'.repeat(128)}`).parameters.id).toHaveLength(128);
    // The method is checked first: a path that takes no such method is a 405 whatever its id.
    expect(() => matchRoute('PUT', '/v1/sessions/a%00b')).toThrow(expect.objectContaining({ status: 405 }));
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
