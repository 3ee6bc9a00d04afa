import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findMessageIssues, latestUserMessageIndex, type Message, toolCallsOf } from '@compaction/core';
import {
  claudeCodeToMessages,
  loadTranscripts,
  missingTranscriptsMessage,
  type Transcript,
  transcriptsDirectory,
} from '@compaction/testing/transcripts';
import { describe, expect, it } from 'vitest';
import { checkCompactedSession } from './__fixtures__/claude-code-session.js';
import { temporaryDirectory } from './__fixtures__/run-binary.js';
import { runCommand } from './__fixtures__/run-command.js';

const directory = transcriptsDirectory();
const transcripts = directory === undefined ? [] : loadTranscripts({ directory });
// Every source, at most five conversations each, so the run stays short.
const sample = transcripts.filter(
  (transcript, index) =>
    transcripts.slice(0, index).filter((other) => other.source === transcript.source).length < 5,
);

/** Runs tasks two at a time (the CI machines have two cores). */
async function inPairs<T, R>(items: readonly T[], task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all([worker(), worker()]);
  return results;
}

// The Node 22 compatibility run (scripts/test-node-22.sh) does not register this sweep of every transcript
// source through the commands (independent of the Node version): the Node 20 run has made it, and the reading
// and writing of each format still runs on Node 22 in the command tests.
const describeOnFullRun: (name: string, body: () => void) => void =
  process.env.COMPACTION_COMPATIBILITY_RUN === undefined
    ? describe.skipIf(directory === undefined)
    : () => {};

describeOnFullRun(`real transcripts (${directory ?? missingTranscriptsMessage})`, () => {
  it('compacts transcripts of every source as core JSON from loadTranscripts()', async () => {
    const folder = temporaryDirectory();
    const results = await inPairs(sample, async (transcript: Transcript) => {
      const input = join(folder, `${transcript.name.replace(/\W+/g, '-')}.json`);
      const output = `${input}.out`;
      writeFileSync(input, JSON.stringify(transcript.messages));
      const run = await runCommand(['compact', input, '--json', '-o', output]);
      return { transcript, run, output };
    });
    for (const { transcript, run, output } of results) {
      expect(run.code, `${transcript.name}: ${run.stderr}`).toBe(0);
      const report = JSON.parse(run.stdout);
      // The only thing on standard error is the warning that the target was not reached, when it was not.
      expect(run.stderr, transcript.name).toBe(
        report.targetReached
          ? ''
          : `compaction: warning: the target of ${report.target.toLocaleString('en-US')} tokens was not reached: ` +
              `the result has ${report.after.tokens.toLocaleString('en-US')} tokens (within the limit of ${report.limit.toLocaleString('en-US')})\n`,
      );
      expect(report.targetReached).toBe(report.after.tokens <= report.target);
      expect(report.format, transcript.name).toBe('core');
      expect(report.before.messages).toBe(transcript.messages.length);
      const compacted = JSON.parse(readFileSync(output, 'utf8')) as Message[];
      expect(findMessageIssues(compacted), transcript.name).toEqual([]);
      expect(compacted.length).toBe(report.after.messages);
      if (report.compacted) {
        // The target is where strategies aim; the limit is what the result must fit.
        expect(report.after.tokens, transcript.name).toBeLessThan(report.before.tokens);
        expect(report.after.tokens, transcript.name).toBeLessThanOrEqual(report.limit);
        // The newest user request survives verbatim.
        const latest = latestUserMessageIndex(transcript.messages);
        if (latest !== -1) expect(compacted).toContainEqual(transcript.messages[latest]);
      } else {
        expect(report.skipped).toBe('under-target');
      }
    }
    expect(results.filter((result) => JSON.parse(result.run.stdout).compacted).length).toBeGreaterThan(
      sample.length / 2,
    );
  });

  it('reads Claude Code session logs raw (JSONL) and writes them back into the same log', async () => {
    const folder = join(directory!, 'claude-code');
    const sessions = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((name) =>
      name.endsWith('.jsonl'),
    );
    expect(sessions.length).toBeGreaterThan(5);
    const output = temporaryDirectory();
    await inPairs(sessions, async (session) => {
      const path = join(folder, session);
      const text = readFileSync(path, 'utf8');
      const counted = await runCommand(['count', path, '--json']);
      expect(counted.code, session).toBe(0);
      const counts = JSON.parse(counted.stdout);
      expect(counts.format).toBe('claude-code');
      // Every tool call of the session is read (none of these sessions calls a tool on an abandoned branch).
      const toolCalls = (messages: Message[]) =>
        messages.flatMap((message) => toolCallsOf(message).map((call) => call.toolCallId)).sort();
      const asCore = await runCommand(['compact', path, '--to', 'core', '--target', '100k']);
      expect(toolCalls(JSON.parse(asCore.stdout))).toEqual(toolCalls(claudeCodeToMessages(text)));

      const noOp = await runCommand(['compact', path, '--target', '100k']);
      expect(noOp.stdout === text, `${session} round-trips line for line`).toBe(true);

      for (const flags of [
        ['--target', '0.5'],
        ['--target', '0.3', '--strategy', 'tool-result-truncation'],
      ]) {
        const written = join(output, `${session.replace(/\W+/g, '-')}.${flags.length}.jsonl`);
        const run = await runCommand(['compact', path, ...flags, '--json', '-o', written]);
        // Truncation alone makes no progress on a session with few tool results: exit 3, nothing written.
        if (run.code === 3) {
          // With --json the error is a JSON document on standard error.
          expect(JSON.parse(run.stderr).error.message).toMatch(/^cannot reach the target of [\d,]+ tokens/);
          continue;
        }
        expect(run.code, `${session}: ${run.stderr}`).toBe(0);
        const report = JSON.parse(run.stdout);
        if (!report.compacted) continue;
        const compacted = readFileSync(written, 'utf8');
        checkCompactedSession(text, compacted);
        // What Claude Code resumes from the written log is the compacted conversation.
        const reread = JSON.parse((await runCommand(['count', written, '--json'])).stdout);
        expect(reread.messages, session).toBe(report.after.messages);
      }
    });
  });

  it('counts and simulates a transcript of every source', async () => {
    const bySource = new Map<string, Transcript>();
    for (const transcript of transcripts)
      if (!bySource.has(transcript.source)) bySource.set(transcript.source, transcript);
    const folder = temporaryDirectory();
    await inPairs([...bySource.values()], async (transcript) => {
      const input = join(folder, `${transcript.source}.json`);
      writeFileSync(input, JSON.stringify({ messages: transcript.messages }));
      const counted = JSON.parse((await runCommand(['count', input, '--json'])).stdout);
      const sum = (record: Record<string, number>) =>
        Object.values(record).reduce((total, value) => total + value, 0);
      expect(sum(counted.byRole)).toBe(counted.tokens);
      expect(sum(counted.byPartKind)).toBe(counted.tokens);
      const window = Math.max(4000, Math.round(counted.tokens / 2));
      const run = await runCommand(['simulate', input, '--json', '--context-window', String(window)]);
      expect(run.code, `${transcript.name}: ${run.stderr}`).toBe(0);
      const simulation = JSON.parse(run.stdout);
      expect(simulation.steps.length).toBe(
        transcript.messages.filter((message, index) => message.role === 'assistant' && index > 0).length,
      );
      expect(simulation.totals.inputTokens).toBeLessThanOrEqual(simulation.baseline.inputTokens);
    });
  });

  it('reads OpenAI Chat transcripts raw (tau-bench, OpenHands)', async () => {
    const tau = JSON.parse(
      readFileSync(join(directory!, 'tau-bench', 'gpt-4o-airline.first20.json'), 'utf8'),
    );
    const folder = temporaryDirectory();
    const request = join(folder, 'tau.json');
    writeFileSync(request, JSON.stringify({ model: 'gpt-4o', temperature: 0, messages: tau[0].traj }));
    const compacted = await runCommand(['compact', request, '--target', '0.5']);
    expect(compacted.code, compacted.stderr).toBe(0);
    expect(compacted.stderr).toContain('(openai-chat)');
    const output = JSON.parse(compacted.stdout);
    expect(output).toMatchObject({ model: 'gpt-4o', temperature: 0 });
    expect(output.messages.length).toBeLessThan(tau[0].traj.length);
    const openhands = join(directory!, 'openhands', 'fncall-llm-message.json');
    const counted = await runCommand(['count', openhands, '--json']);
    expect(counted.code, counted.stderr).toBe(0);
    expect(JSON.parse(counted.stdout)).toMatchObject({ format: 'openai-chat', messages: 14 });
  });
});
