import { resolveBudget } from '@compaction/core';
import { startTestServer, type TestServer } from '@compaction/testing/loopback-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeOnFullRun } from '../__fixtures__/full-run.js';
import { type AgentFixture, agentFixtures, decodeRequests } from './__fixtures__/agents/agent-fixture.js';
import { checkForwarded, type ForwardedCheck, prefixHeld } from './__fixtures__/agents/forwarded-checks.js';
import {
  countRequest,
  scriptedUpstream,
  type UpstreamExchange,
} from './__fixtures__/agents/scripted-upstream.js';
import { startProxy } from './__fixtures__/start-proxy.js';

// The request sequences of the real coding agents (Codex CLI, Claude Code, pi, opencode), recorded by
// `pnpm agents` (agents/run.mjs) with the scripted files' text stored as placeholders, replayed through the proxy
// at the window of the live run against a loopback upstream that refuses what passes its limit as the provider
// does. The Node 22 compatibility run does not register them: the proxy's work on these requests does not
// depend on the Node version, and proxy-compaction.test.ts runs the proxy there.

const requestHeader = 'x-agents-request';

/** What a replay saw: each agent request's forwarded attempts, the client's answers, the upstream's exchanges. */
interface Replay {
  originals: Record<string, unknown>[];
  statuses: number[];
  failedStreams: number;
  exchanges: UpstreamExchange[];
  /** The attempts the upstream received for each agent request, in order. */
  attempts: UpstreamExchange[][];
}

async function replay(fixture: AgentFixture, upstream: TestServer, limit: number): Promise<Replay> {
  upstream.reset();
  const exchanges: UpstreamExchange[] = [];
  upstream.handle(fixture.path, scriptedUpstream(fixture.format, limit, exchanges));
  const proxy = await startProxy([upstream.url], { 'context-window': String(fixture.window) });
  const originals = decodeRequests(fixture);
  const statuses: number[] = [];
  let failedStreams = 0;
  try {
    for (const [index, body] of originals.entries()) {
      const response = await fetch(`${proxy.url}${fixture.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [requestHeader]: String(index) },
        body: JSON.stringify(body),
      });
      const text = await response.text();
      statuses.push(response.status);
      if (text.includes('"response.failed"')) failedStreams++;
    }
  } finally {
    await proxy.close();
  }
  const attempts = originals.map((_, index) =>
    exchanges.filter((exchange) => exchange.request.headers[requestHeader] === String(index)),
  );
  return { originals, statuses, failedStreams, exchanges, attempts };
}

/** The last request the upstream received for each agent request: what was answered. */
function lastAttempts(replayed: Replay): Record<string, unknown>[] {
  return replayed.attempts.map((attempts) => attempts.at(-1)!.request.body as Record<string, unknown>);
}

/** The proxy's trigger at a window, with the default settings the replay runs with. */
function triggerOf(contextWindow: number): number {
  const budget = resolveBudget({ contextWindow });
  return budget.trigger ?? budget.limit;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The checks of every request the upstream received (retries included) against what the agent sent. */
function checksOf(fixture: AgentFixture, replayed: Replay): ForwardedCheck[] {
  return replayed.attempts.flatMap((attempts, index) =>
    attempts.map((attempt) =>
      checkForwarded(
        fixture.format,
        fixture.task,
        replayed.originals[index]!,
        attempt.request.body as Record<string, unknown>,
      ),
    ),
  );
}

for (const fixture of agentFixtures()) {
  describeOnFullRun(
    `compaction proxy: ${fixture.title} ${fixture.version} replayed (${fixture.format})`,
    () => {
      let upstream: TestServer;
      let atWindow: Replay;
      let checks: ForwardedCheck[];
      beforeAll(async () => {
        upstream = await startTestServer();
        atWindow = await replay(fixture, upstream, fixture.window);
        checks = checksOf(fixture, atWindow);
      }, 120_000);
      afterAll(() => upstream.close());

      it('outgrows the window, and every request is answered under it', () => {
        expect(
          Math.max(...atWindow.originals.map((body) => countRequest(fixture.format, body))),
        ).toBeGreaterThan(fixture.window);
        expect(atWindow.statuses.every((status) => status === 200)).toBe(true);
        expect(atWindow.failedStreams).toBe(0);
        expect(atWindow.exchanges.filter((exchange) => exchange.refused)).toEqual([]);
        const compacted = atWindow.attempts.filter(
          (attempts, index) =>
            JSON.stringify(attempts.at(-1)!.request.body) !== JSON.stringify(atWindow.originals[index]),
        ).length;
        expect(compacted).toBeGreaterThan(0);
        process.stdout.write(
          `${fixture.title} ${fixture.version}: ${atWindow.originals.length} requests, ${compacted} compacted, ` +
            `${atWindow.exchanges.length} upstream at a ${fixture.window}-token window\n`,
        );
      });

      it('breaks no rule of the provider that the agent kept, in any forwarded request', () => {
        const broken = checks.flatMap((check) => check.violations.map((violation) => violation.rule));
        expect([...new Set(broken)]).toEqual([]);
      });

      it('keeps the task in every forwarded request', () => {
        expect(checks.filter((check) => !check.taskKept)).toHaveLength(0);
      });

      it("keeps the agent's newest turn (a tool result perhaps shortened) in every forwarded request", () => {
        expect(checks.filter((check) => !check.newestKept)).toHaveLength(0);
      });

      it('leaves at most one note per removed span, never two in one message', () => {
        const piled = checks.filter((check) => check.notes > check.spans || check.notesInOneItem > 1);
        expect(piled.map((check) => `${check.notes} notes for ${check.spans} removed spans`)).toEqual([]);
      });

      it('breaks the cached prefix only where keeping it would cross the trigger', () => {
        const forwarded = lastAttempts(atWindow);
        const trigger = triggerOf(fixture.window);
        // Where the agent itself changed what it had sent (a title request), no proxy could; moved cache marks
        // change no prefix (prefixHeld leaves them aside).
        const agentHeld = prefixHeld(fixture.format, atWindow.originals);
        const needless = prefixHeld(fixture.format, forwarded).flatMap((held, index) => {
          if (held || !agentHeld[index]) return [];
          const added =
            countRequest(fixture.format, atWindow.originals[index + 1]!) -
            countRequest(fixture.format, atWindow.originals[index]!);
          const withPrefix = countRequest(fixture.format, forwarded[index]!) + added;
          // The proxy counts messages and tools, this count the whole JSON: a little slack for the difference.
          return withPrefix > trigger * 0.95
            ? []
            : [`request ${index + 1}: ${withPrefix} tokens with the prefix`];
        });
        expect(needless, `trigger ${trigger}`).toEqual([]);
      });

      it('keeps the cached prefix in at least 2 of 3 consecutive requests where the window has room for it', () => {
        const forwarded = lastAttempts(atWindow);
        const held = prefixHeld(fixture.format, forwarded);
        // A compaction keeps the opening and the newest turn: when what it must keep and two more turns of the
        // agent's usual size pass the trigger, no proxy can hold the prefix across two requests in a row.
        const trigger = triggerOf(fixture.window);
        const sizes = forwarded.map((body) => countRequest(fixture.format, body));
        const afterCompaction = Math.min(...sizes.filter((_, index) => index > 0 && !held[index - 1]));
        const growth = median(
          atWindow.originals
            .slice(1)
            .map(
              (body, index) =>
                countRequest(fixture.format, body) - countRequest(fixture.format, atWindow.originals[index]!),
            ),
        );
        const share = held.filter(Boolean).length / held.length;
        process.stdout.write(
          `${fixture.title}: prefix held in ${held.filter(Boolean).length} of ${held.length}; ` +
            `${afterCompaction} tokens after a compaction, turns of ${growth}, trigger ${trigger}\n`,
        );
        if (afterCompaction + 2 * growth <= trigger) expect(share).toBeGreaterThanOrEqual(2 / 3);
        else expect(share).toBeGreaterThanOrEqual(0.4);
      });

      it('with the provider limit at half the window, gets under it with at most one refusal', async () => {
        const halfLimit = await replay(fixture, upstream, Math.floor(fixture.window / 2));
        expect(halfLimit.statuses.every((status) => status === 200)).toBe(true);
        expect(halfLimit.failedStreams).toBe(0);
        expect(halfLimit.exchanges.filter((exchange) => exchange.refused).length).toBeLessThanOrEqual(1);
        // What holds at the window holds under the provider's lower limit too.
        const halfChecks = checksOf(fixture, halfLimit);
        expect([
          ...new Set(halfChecks.flatMap((check) => check.violations.map((violation) => violation.rule))),
        ]).toEqual([]);
        expect(halfChecks.filter((check) => !check.taskKept)).toHaveLength(0);
        expect(halfChecks.filter((check) => !check.newestKept)).toHaveLength(0);
      }, 120_000);
    },
  );
}

describe('recorded agent fixtures', () => {
  it('hold at least the Codex CLI sequence', () => {
    expect(agentFixtures().map((fixture) => fixture.agent)).toContain('codex');
  });

  it('are checked by checks that catch a lost task, piled-up notes and a lost newest turn', () => {
    const fixture = agentFixtures().find((each) => each.agent === 'codex')!;
    const original = decodeRequests(fixture).at(-1)!;
    const items = original.input as Record<string, unknown>[];
    const task = items.findIndex((item) => JSON.stringify(item).includes(fixture.task));
    // Codex's task is its second user message, after <environment_context>: the shape the proxy lost it in.
    const note = (count: number) => ({
      type: 'message',
      role: 'user',
      content: [
        { type: 'input_text', text: `[${count} earlier messages skipped to fit the context window.]` },
      ],
    });
    const noted = {
      ...items[task - 1]!,
      content: [...(items[task - 1]!.content as unknown[]), ...note(2).content, ...note(2).content],
    };
    const forwarded = {
      ...original,
      input: [...items.slice(0, task - 1), noted, note(6), ...items.slice(task + 7, -2)],
    };
    const check = checkForwarded(fixture.format, fixture.task, original, forwarded);
    expect(check.taskKept).toBe(false);
    expect(check.newestKept).toBe(false);
    expect(check.notesInOneItem).toBe(2);
    expect(check.notes).toBeGreaterThan(check.spans);
  });
});
