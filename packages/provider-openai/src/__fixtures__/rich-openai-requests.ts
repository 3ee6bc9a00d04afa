import type { OpenAIChatMessage } from '../openai-chat-request.js';
import type { OpenAIResponsesItem } from '../openai-responses-request.js';

/** Chat Completions messages using every role, part and field the converters must carry. */
export const richChatMessages: OpenAIChatMessage[] = [
  { role: 'developer', content: 'Follow the repository rules.' },
  { role: 'system', content: [{ type: 'text', text: 'You are a coding agent.' }], name: 'setup' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is wrong in this screenshot?' },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'high' } },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'spec.pdf' } },
      { type: 'file', file: { file_id: 'file-abc' } },
    ],
    name: 'pete',
  },
  {
    role: 'assistant',
    content: 'Let me look.',
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path": "src/a.ts"}' } },
      { id: 'call_2', type: 'function', function: { name: 'bash', arguments: 'ls -la (not JSON)' } },
      { id: 'call_3', type: 'function', function: { name: 'search', arguments: '{"query":"x"}' } },
      { id: 'call_4', type: 'custom', custom: { name: 'apply_patch', input: '*** Begin Patch' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'export const a = 1;' },
  {
    role: 'tool',
    tool_call_id: 'call_2',
    content: [
      { type: 'text', text: 'a.ts' },
      { type: 'text', text: 'b.ts' },
    ],
  },
  { role: 'tool', tool_call_id: 'call_3', content: [{ type: 'text', text: 'no match' }], name: 'search' },
  { role: 'tool', tool_call_id: 'call_4', content: 'Done!' },
  { role: 'assistant', content: null, refusal: 'I cannot help with that.' },
  { role: 'assistant', content: [{ type: 'text', text: 'Only part' }] },
  { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }], tool_calls: [] },
  { role: 'user', content: 'Thanks.' },
];

/** Responses input items using every item type and field the converters must carry. */
export const richResponsesInput: OpenAIResponsesItem[] = [
  { role: 'developer', content: 'Follow the repository rules.' },
  { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'You are a coding agent.' }] },
  {
    role: 'user',
    content: [
      { type: 'input_text', text: 'What is wrong here?' },
      { type: 'input_image', image_url: 'https://example.com/a.png', detail: 'high' },
      { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
      { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'spec.pdf' },
      { type: 'input_file', file_id: 'file-abc' },
    ],
  },
  {
    type: 'reasoning',
    id: 'rs_1',
    summary: [{ type: 'summary_text', text: 'Read the file first.' }],
    encrypted_content: 'gAAAAABencrypted==',
  },
  {
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'Let me look.', annotations: [] }],
  },
  {
    type: 'function_call',
    id: 'fc_1',
    call_id: 'call_1',
    name: 'read_file',
    arguments: '{"path": "src/a.ts"}',
    status: 'completed',
  },
  { type: 'function_call', call_id: 'call_2', name: 'bash', arguments: 'ls -la' },
  { type: 'function_call_output', call_id: 'call_1', output: 'export const a = 1;' },
  {
    type: 'function_call_output',
    call_id: 'call_2',
    output: [
      { type: 'input_text', text: 'a.ts' },
      { type: 'input_image', image_url: 'https://example.com/shot.png', detail: 'auto' },
    ],
  },
  { type: 'reasoning', id: 'rs_2', summary: [] },
  { role: 'assistant', content: 'First item.' },
  { role: 'assistant', content: 'Second item.' },
  { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'vitest' } },
  {
    type: 'computer_call_output',
    call_id: 'cc_1',
    output: { type: 'computer_screenshot', image_url: 'https://example.com/s.png' },
  },
  { type: 'item_reference', id: 'msg_0' },
  { role: 'user', content: 'Thanks.' },
];
