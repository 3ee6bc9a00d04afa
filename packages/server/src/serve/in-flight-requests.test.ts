import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { InFlightRequests } from './in-flight-requests.js';

/** A stand-in for an answer being written: it closes when the test says, and records its headers. */
function answer(headersSent = false) {
  const response = Object.assign(new EventEmitter(), {
    headersSent,
    headers: {} as Record<string, string>,
    setHeader(name: string, value: string) {
      response.headers[name] = value;
    },
  });
  return response as typeof response & ServerResponse;
}

describe('InFlightRequests', () => {
  it('settles once every request is answered, or reports the timeout', async () => {
    const requests = new InFlightRequests();
    expect(await requests.settled(10)).toBe(true);
    const first = answer();
    const second = answer();
    requests.add(first);
    requests.add(second);
    const settled = requests.settled(60_000);
    first.emit('close');
    expect(requests.size).toBe(1);
    second.emit('close');
    expect(await settled).toBe(true);

    const stuck = answer();
    requests.add(stuck);
    expect(await requests.settled(20)).toBe(false);
    expect(requests.size).toBe(1);
  });

  it('does not wait for event streams, and tells when they have ended', async () => {
    const requests = new InFlightRequests();
    const stream = answer(true);
    requests.add(stream);
    const settled = requests.settled(60_000);
    requests.becomeStream(stream);
    expect(await settled).toBe(true);
    const ended = requests.streamsEnded();
    let done = false;
    void ended.then(() => {
      done = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    stream.emit('finish');
    await ended;
  });

  it('asks the answers not yet started to close their connection', () => {
    const requests = new InFlightRequests();
    const started = answer(true);
    const waiting = answer(false);
    requests.add(started);
    requests.add(waiting);
    requests.closeConnectionsAfterAnswers();
    expect(started.headers).toEqual({});
    expect(waiting.headers).toEqual({ connection: 'close' });
  });
});
