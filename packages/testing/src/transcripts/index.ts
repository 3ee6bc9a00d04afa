export { claudeCodeToMessages } from '@compaction/formats';
export { codingSources, type LoadTranscriptsOptions, loadTranscripts } from './load-transcripts.js';
export { type MiniSweAgentMessage, miniSweAgentToMessages } from './mini-swe-agent-messages.js';
export { type ChatMessage, openAIChatToMessages } from './openai-chat-messages.js';
export type { Transcript, TranscriptSource } from './transcript.js';
export {
  missingTranscriptsMessage,
  transcriptsDirectory,
  transcriptsVariable,
} from './transcripts-directory.js';
