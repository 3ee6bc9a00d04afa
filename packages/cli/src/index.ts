export { ChatSession, type ChatTurn } from './chat/chat-session.js';
export { runCli } from './cli.js';
export { type CliIO, processIO } from './cli-io.js';
export { countTokens, type TokenBreakdown } from './count-tokens.js';
