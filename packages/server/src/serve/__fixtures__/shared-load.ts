import type { serveClient } from './serve-client.js';

/** How much load {@link measureLoad} sends: a bounded run that stops by itself. */
export interface LoadSettings {
  clients: number;
  sessions: number;
  requestsPerClient: number;
}

/** What a load run measured. */
export interface LoadResult {
  requests: number;
  failures: number;
  requestsPerSecond: number;
  p99Ms: number;
}

/**
 * Creates `sessions` sessions, then has `clients` concurrent clients each append `requestsPerClient` messages,
 * one at a time, to a session, spreading the requests over the servers in turn (as a round-robin load
 * balancer would). Measures appends only.
 */
export async function measureLoad(
  servers: Array<ReturnType<typeof serveClient>>,
  settings: LoadSettings,
): Promise<LoadResult> {
  const sessionIds: string[] = [];
  for (let index = 0; index < settings.sessions; index++) {
    const created = await servers[index % servers.length]!('/v1/sessions', {
      method: 'POST',
      json: { format: 'core' },
    });
    sessionIds.push(((await created.json()) as { id: string }).id);
  }
  const latencies: number[] = [];
  let failures = 0;
  let turn = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: settings.clients }, async (_, clientIndex) => {
      const sessionId = sessionIds[clientIndex % sessionIds.length]!;
      for (let step = 0; step < settings.requestsPerClient; step++) {
        const call = servers[turn++ % servers.length]!;
        const sent = performance.now();
        const response = await call(`/v1/sessions/${sessionId}/messages`, {
          method: 'POST',
          json: {
            messages: [
              {
                role: 'user',
                content: [{ type: 'text', text: `client ${clientIndex} step ${step}: run the tests` }],
              },
            ],
          },
        });
        await response.arrayBuffer();
        latencies.push(performance.now() - sent);
        if (response.status !== 200) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((left, right) => left - right);
  return {
    requests: latencies.length,
    failures,
    requestsPerSecond: latencies.length / seconds,
    p99Ms: latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)]!,
  };
}
