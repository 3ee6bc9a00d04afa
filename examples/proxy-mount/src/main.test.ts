import { expect, it } from 'vitest';
import { runExample } from './main.js';

it('compacts a conversation sent through the proxy the application mounts, and keeps its own route', async () => {
  const { exchanges, health, status, lines } = await runExample();
  expect(exchanges).toHaveLength(16);
  // Early requests fit the window and pass unchanged; later ones reach the provider with fewer messages.
  expect(exchanges[0]).toEqual({ sent: 3, received: 3 });
  const compacted = exchanges.filter(({ sent, received }) => received < sent);
  expect(compacted.length).toBeGreaterThan(0);
  expect(exchanges.at(-1)!.received).toBeLessThan(exchanges.at(-1)!.sent);
  expect(status).toEqual({ requests: 16, compactions: lines.length });
  expect(lines.length).toBeGreaterThan(0);
  expect(lines[0]).toMatch(/^compaction proxy: conversation \S+: \d+ → \d+ tokens/);
  // The application's own route answers beside the proxy.
  expect(health).toEqual({ status: 200, body: { ok: true } });
});
