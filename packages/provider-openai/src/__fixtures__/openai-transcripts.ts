import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAIChatMessage } from '../openai-chat-request.js';

/** A real conversation in Chat Completions shape. */
export interface ChatTranscript {
  name: string;
  messages: OpenAIChatMessage[];
}

/** The tau-bench trajectories and the OpenHands conversation under the transcripts folder. */
export function readChatTranscripts(directory: string): ChatTranscript[] {
  const transcripts: ChatTranscript[] = [];
  const tauBench = join(directory, 'tau-bench', 'gpt-4o-airline.first20.json');
  if (existsSync(tauBench)) {
    const entries = JSON.parse(readFileSync(tauBench, 'utf8')) as Array<{
      task_id: number;
      trial: number;
      traj: OpenAIChatMessage[];
    }>;
    entries.forEach((entry, index) => {
      transcripts.push({
        name: `tau-bench #${index} (task ${entry.task_id}, trial ${entry.trial})`,
        messages: entry.traj,
      });
    });
  }
  const openHands = join(directory, 'openhands', 'fncall-llm-message.json');
  if (existsSync(openHands)) {
    transcripts.push({
      name: 'openhands',
      messages: JSON.parse(readFileSync(openHands, 'utf8')) as OpenAIChatMessage[],
    });
  }
  return transcripts;
}
