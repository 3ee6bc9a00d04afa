import type { FilePart, ImagePart, ToolResultPart } from 'ai';
import type { Attachment, ToolCallPlan } from './ai-sdk-conversation-plan.js';

// A 1x1 PNG, a minimal PDF and a silent WAV header: small, real media so converters treat them as such.
const pngBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const pdfBase64 = 'JVBERi0xLjQKJcTl8uXrp/Og0MTGCjEgMCBvYmoKPDwgL1R5cGUgL0NhdGFsb2cgPj4KZW5kb2JqCiUlRU9GCg==';
const wavBase64 = 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=';

/** The part a user message carries for an attachment. */
export function attachmentPart(attachment: Attachment): ImagePart | FilePart | undefined {
  switch (attachment) {
    case 'none':
      return undefined;
    case 'image-base64':
      return { type: 'image', image: pngBase64, mediaType: 'image/png' };
    case 'image-bytes':
      return {
        type: 'image',
        image: Uint8Array.from(atob(pngBase64), (char) => char.charCodeAt(0)),
        mediaType: 'image/png',
      };
    case 'image-url':
      return { type: 'image', image: new URL('https://docs.example.com/screenshot.png') };
    case 'pdf-base64':
      return { type: 'file', data: pdfBase64, mediaType: 'application/pdf', filename: 'report.pdf' };
    case 'pdf-url':
      return {
        type: 'file',
        data: new URL('https://docs.example.com/report.pdf'),
        mediaType: 'application/pdf',
      };
    case 'text-file':
      return {
        type: 'file',
        data: btoa('Build notes: 3 failing tests.'),
        mediaType: 'text/plain',
        filename: 'notes.txt',
      };
    case 'audio-wav':
      return { type: 'file', data: wavBase64, mediaType: 'audio/wav' };
  }
}

/** A file the model generated, as an assistant message carries it. */
export const generatedImage: FilePart = {
  type: 'file',
  data: pngBase64,
  mediaType: 'image/png',
  filename: 'chart.png',
};

/** A tool call's output as the AI SDK records it: every output type, and `content` with every item type. */
export function toolOutput(call: ToolCallPlan): ToolResultPart['output'] {
  if (call.approval === 'denied') return { type: 'execution-denied', reason: 'The user denied running it.' };
  const planned = call.output;
  if (planned.type !== 'content') return planned;
  const text = { type: 'text' as const, text: planned.text };
  switch (planned.item) {
    case 'none':
      return { type: 'content', value: [text] };
    case 'image-data':
      return {
        type: 'content',
        value: [text, { type: 'image-data', data: pngBase64, mediaType: 'image/png' }],
      };
    case 'image-url':
      return {
        type: 'content',
        value: [text, { type: 'image-url', url: 'https://docs.example.com/chart.png' }],
      };
    case 'file-data':
      return {
        type: 'content',
        value: [
          text,
          { type: 'file-data', data: pdfBase64, mediaType: 'application/pdf', filename: 'out.pdf' },
        ],
      };
    case 'file-url':
      return {
        type: 'content',
        value: [
          text,
          { type: 'file-url', url: 'https://docs.example.com/log.pdf', mediaType: 'application/pdf' },
        ],
      };
    case 'file-id':
      return { type: 'content', value: [text, { type: 'file-id', fileId: 'file-abc123' }] };
    case 'image-file-id':
      return { type: 'content', value: [text, { type: 'image-file-id', fileId: { openai: 'file-img456' } }] };
    case 'custom':
      return {
        type: 'content',
        value: [text, { type: 'custom', providerOptions: { trace: { kind: 'span' } } }],
      };
    case 'media':
      // The deprecated item the AI SDK still reads (as image data).
      return { type: 'content', value: [text, { type: 'media', data: pngBase64, mediaType: 'image/png' }] };
  }
}
