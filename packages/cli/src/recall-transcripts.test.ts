import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Message } from '@compaction/core';
import { createSqliteCompactionStore } from '@compaction/store-sqlite';
import {
  loadTranscripts,
  missingTranscriptsMessage,
  transcriptsDirectory,
} from '@compaction/testing/transcripts';
import { describe, expect, it } from 'vitest';
import {
  handlesNamedIn,
  holdsInOrder,
  originalResult,
  outputText,
  removedMessages,
  toolResultNaming,
} from './__fixtures__/recall-check.js';
import { type LooseJson, runBinary, temporaryDirectory } from './__fixtures__/run-binary.js';
import { runCommand } from './__fixtures__/run-command.js';

// Through the CLI on the shared SWE-bench coding runs: compacted by the built binary with masking and with
// sliding-window into a store, every handle the output names recalls exactly the text that was removed. The
// recalls (dozens a transcript) run the recall command in this process: a process each took minutes on two
// cores, and recall-command.test.ts runs recall through the binary.

const directory = transcriptsDirectory();
const transcripts =
  directory === undefined ? [] : loadTranscripts({ directory, sources: ['mini-swe-agent', 'swe-agent'] });

const configs = {
  masking: { strategy: { name: 'tool-result-truncation', options: { mode: 'mask' } } },
  'sliding-window': { strategy: 'sliding-window' },
};

/** Runs tasks two at a time (the CI machines have two cores). */
async function inPairs<T>(items: readonly T[], task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all([worker(), worker()]);
}

// The Node 22 compatibility run (scripts/test-node-22.sh) does not register this check (a sweep of every
// transcript, independent of the Node version): the Node 20 run has made it, and compact --store and recall run
// on Node 22 in their command tests.
const describeOnFullRun: (name: string, body: () => void) => void =
  process.env.COMPACTION_COMPATIBILITY_RUN === undefined
    ? describe.skipIf(directory === undefined)
    : () => {};

describeOnFullRun(`recall on the coding transcripts (${directory ?? missingTranscriptsMessage})`, () => {
  for (const [strategy, config] of Object.entries(configs)) {
    it(`recalls exactly what ${strategy} removed, for every handle the output names`, async () => {
      const folder = temporaryDirectory();
      const configPath = join(folder, 'compaction.config.json');
      writeFileSync(configPath, JSON.stringify(config));
      const store = join(folder, 'archive.sqlite');
      const counts: string[] = [];
      for (const transcript of transcripts) {
        const session = transcript.name;
        const input = join(folder, `${transcript.name.replace(/\W+/g, '-')}.json`);
        const output = `${input}.out`;
        writeFileSync(input, JSON.stringify(transcript.messages));
        const run = await runBinary(
          [
            'compact',
            input,
            '-c',
            configPath,
            '--store',
            store,
            '--session',
            session,
            '--json',
            '-o',
            output,
          ],
          { cwd: folder },
        );
        expect(run.code, `${session}: ${run.stderr}`).toBe(0);
        const report = JSON.parse(run.stdout) as LooseJson;
        if (!report.compacted) {
          counts.push(`${session}: not compacted`);
          continue;
        }
        const compacted = JSON.parse(readFileSync(output, 'utf8')) as Message[];
        const named = handlesNamedIn(compacted);
        // What the store holds is what the report lists.
        const reader = createSqliteCompactionStore({ path: store });
        const [record] = await reader.list(session);
        await reader.close();
        const archived = new Map((record?.archived ?? []).map((item) => [item.handle, item]));
        expect(report.archived.map((item: LooseJson) => item.handle)).toEqual([...archived.keys()]);
        expect(named.length, `${session}: a compaction that removed text names a handle`).toBeGreaterThan(0);
        // Texts of the handles named outside tool results (markers, summaries), in the order named.
        const spans: string[] = new Array(named.length).fill('');
        let results = 0;
        await inPairs([...named.entries()], async ([index, handle]) => {
          expect(archived.has(handle), `${session}: ${handle} is listed`).toBe(true);
          const recalled = await runCommand(['recall', '--store', store, '--session', session, handle], {
            cwd: folder,
          });
          expect(recalled.code, `${session} ${handle}: ${recalled.stderr}`).toBe(0);
          expect(recalled.stdout === archived.get(handle)!.text, `${session} ${handle} as stored`).toBe(true);
          // What was removed, from the input itself: a cleared or shortened result's original output.
          const placeholder = toolResultNaming(compacted, handle);
          if (placeholder === undefined) {
            spans[index] = recalled.stdout;
            return;
          }
          const original = originalResult(transcript.messages, placeholder.toolCallId)!;
          expect(recalled.stdout === outputText(original), `${session} ${handle} is the result`).toBe(true);
          results++;
        });
        // The messages dropped whole (not those whose results stay, placeholders in their place) are all
        // in the texts of the other handles, in order.
        const staying = new Set(
          compacted.flatMap((message) =>
            message.content.flatMap((part) => (part.type === 'tool-result' ? [part.toolCallId] : [])),
          ),
        );
        const dropped = removedMessages(transcript.messages, compacted).filter(
          (message) =>
            !message.content.some((part) => part.type === 'tool-result' && staying.has(part.toolCallId)),
        );
        expect(holdsInOrder(spans.join('\n'), dropped), `${session}: dropped messages`).toBeUndefined();
        counts.push(
          `${session}: ${named.length} handles named, all recalled exactly (${results} tool results, ` +
            `${named.length - results} spans holding ${dropped.length} dropped messages)`,
        );
      }
      process.stderr.write(`recall after ${strategy}:\n  ${counts.join('\n  ')}\n`);
      // A compaction process per transcript: minutes on a loaded two-core machine.
    }, 900_000);
  }
});
