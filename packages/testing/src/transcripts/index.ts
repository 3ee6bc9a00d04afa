export { claudeCodeToMessages } from './claude-code-messages.js';
export { codingSources, type LoadTranscriptsOptions, loadTranscripts } from './load-transcripts.js';
export { miniSweAgentToMessages } from './mini-swe-agent-messages.js';
export { openAIChatToMessages } from './openai-chat-messages.js';
export type { Transcript, TranscriptSource } from './transcript.js';
export {
  missingTranscriptsMessage,
  transcriptsDirectory,
  transcriptsVariable,
} from './transcripts-directory.js';
