import type { MastraMessageV2 } from '@mastra/core/agent';

/** A message as Mastra hands it to input processors (format 2: AI SDK 4 UI parts). */
export type MastraMessage = MastraMessageV2;

/** The content of a {@link MastraMessage}. */
export type MastraContent = MastraMessage['content'];

/** One part of a {@link MastraMessage}. */
export type MastraPart = MastraContent['parts'][number];
