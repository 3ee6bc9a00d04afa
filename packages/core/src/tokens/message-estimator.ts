import { createMediaPricer, type MediaPricingSettings } from '@compaction/token-estimator';
import type { Message, Part, ToolResultContentPart } from '../messages/message.js';
import type { TokenEstimator } from '../specs/token-estimator-v1.js';

/** Fixed costs an estimator adds on top of text, in tokens. */
export interface MessageOverhead {
  /** Per message: role markers and separators. */
  message: number;
  /** Per part: block delimiters. */
  part: number;
  /** Per tool call on top of its name and JSON input: call id and framing. */
  toolCall: number;
  /** Per tool result on top of its output: call id and framing. */
  toolResult: number;
  /** Per image, when set: a flat count instead of the provider's rule for the image's pixel size (`media`). */
  image?: number;
  /** Per file that is neither text nor inline data (a URL): a flat allowance. */
  file: number;
}

/** The overhead used when none is given. */
export const defaultMessageOverhead: MessageOverhead = {
  message: 4,
  part: 2,
  toolCall: 8,
  toolResult: 6,
  file: 1600,
};

/** How to build a {@link TokenEstimator} from a text counter. */
export interface MessageEstimatorSettings {
  name: string;
  /** Tokens of a plain string. */
  countText: (text: string) => number;
  overhead?: Partial<MessageOverhead>;
  /** Whose published rule prices images and PDFs; default the larger of Anthropic's and OpenAI's. */
  media?: MediaPricingSettings;
}

/**
 * Builds a {@link TokenEstimator} from a text counter: text, reasoning, tool names and JSON inputs and tool
 * outputs are counted as text; images by their pixel size and PDFs by their pages, with the provider's published
 * rule (`@compaction/token-estimator`'s `createMediaPricer`); files given by URL by {@link MessageOverhead}.
 * Other base64 file data is counted as text, which over-counts safely.
 */
export function createMessageEstimator(settings: MessageEstimatorSettings): TokenEstimator {
  const overhead: MessageOverhead = { ...defaultMessageOverhead, ...settings.overhead };
  const { countText } = settings;
  const media = createMediaPricer(settings.media);

  const verbatimMedia = (metadata: Part['metadata']): number | undefined => {
    const anthropic = metadata?.anthropic;
    return typeof anthropic === 'object' && anthropic !== null && !Array.isArray(anthropic)
      ? media.verbatimBlock(anthropic.block)
      : undefined;
  };
  const countResultContent = (part: ToolResultContentPart): number => countPart(part);

  function countPart(part: Part): number {
    switch (part.type) {
      case 'text': {
        // A provider block a converter kept verbatim as text (an Anthropic image by Files API id) is media.
        const verbatim = verbatimMedia(part.metadata);
        return overhead.part + (verbatim === undefined ? countText(part.text) : (overhead.image ?? verbatim));
      }
      case 'reasoning':
        return overhead.part + countText(part.text) + (part.redactedData ? countText(part.redactedData) : 0);
      case 'tool-call':
        return overhead.toolCall + countText(part.toolName) + countText(JSON.stringify(part.input) ?? '');
      case 'tool-result': {
        const output =
          typeof part.output === 'string'
            ? countText(part.output)
            : part.output.reduce((sum, item) => sum + countResultContent(item), 0);
        return overhead.toolResult + output;
      }
      case 'image':
        return overhead.part + (overhead.image ?? media.image(part.image));
      case 'file':
        if (isUrl(part.data)) return overhead.part + overhead.file;
        return overhead.part + (media.file(part.data, part.mediaType) ?? countText(part.data));
    }
  }

  return {
    specificationVersion: 'v1',
    name: settings.name,
    countText,
    countMessage(message: Message): number {
      let total = overhead.message;
      for (const part of message.content) total += countPart(part);
      return total;
    },
  };
}

function isUrl(data: string): boolean {
  return data.startsWith('https://') || data.startsWith('http://');
}
