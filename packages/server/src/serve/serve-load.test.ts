import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { type LooseJson, packageDirectory } from '../__fixtures__/temporary-directory.js';

// The load script with a small count: 1,000 sessions created, all expired, twice. The full run (10,000) is
// done by hand: node scripts/serve-load.mjs --sessions 10000 --idle 60 --rounds 3.

// The Node 22 compatibility run (scripts/test-node-22.sh) does not register this load run (2,000 sessions
// created and expired, about half a minute): the Node 20 run has made it, and expiry still runs on Node 22 in
// serve-sessions.test.ts.
describeOnFullRun('compaction serve under load', () => {
  it('creates 1,000 sessions, expires every one, and keeps no memory for them after expiry', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        join(packageDirectory, 'scripts', 'serve-load.mjs'),
        '--sessions',
        '1000',
        '--idle',
        '2',
        '--rounds',
        '2',
      ],
      { cwd: packageDirectory, timeout: 150_000 },
    );
    const run = JSON.parse(stdout) as LooseJson;
    for (const round of run.rounds) {
      expect(round.statuses).toEqual({ 201: 1000 });
      expect(round.sessionsAfterExpiry).toBe(0);
      // A live session holds about 11 kB, so 1,000 kept would add about 11 MB; compiled code and grown tables
      // account for 1-2 MB, so a heap more than 6 MB over its start means expired sessions were kept.
      expect(round.heapMB.afterExpiry - run.heapMBBefore).toBeLessThan(6);
    }
    // The second round ends where the first did: nothing accumulates from round to round.
    expect(run.rounds[1].heapMB.afterExpiry - run.rounds[0].heapMB.afterExpiry).toBeLessThan(2);
  }, 180_000);
});
