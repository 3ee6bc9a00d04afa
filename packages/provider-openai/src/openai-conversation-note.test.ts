import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { openaiChatNoteWire, openaiResponsesNoteWire } from './openai-conversation-note.js';

const chatBody: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = {
  model: 'gpt-5.4',
  max_tokens: 4_000,
  messages: [{ role: 'user', content: 'Go.' }],
  tools: [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } }],
};

describe('the note turn of the OpenAI conversations', () => {
  it('Chat Completions: one output limit, no tool calls when there are tools, the answer text', () => {
    const body = openaiChatNoteWire.body(chatBody, 300);
    expect(body).toMatchObject({ max_completion_tokens: 300, tool_choice: 'none' });
    expect(body).not.toHaveProperty('max_tokens');
    expect(chatBody.max_tokens).toBe(4_000);
    const withoutTools = openaiChatNoteWire.body({ ...chatBody, tools: [] }, 300);
    expect(withoutTools).not.toHaveProperty('tool_choice');
    const completion = {
      choices: [{ message: { role: 'assistant', content: 'Keep src/b.ts.' } }],
    } as OpenAI.Chat.ChatCompletion;
    expect(openaiChatNoteWire.text(completion)).toBe('Keep src/b.ts.');
  });

  it('Responses: max_output_tokens, no tool calls when there are tools, the output text', () => {
    const body = openaiResponsesNoteWire.body(
      {
        model: 'gpt-5.4',
        input: [],
        tools: [{ type: 'function', name: 'read_file', parameters: {}, strict: false }],
      },
      300,
    );
    expect(body).toMatchObject({ max_output_tokens: 300, tool_choice: 'none' });
    const response = {
      output: [
        { type: 'reasoning', id: 'rs_1', summary: [] },
        {
          type: 'message',
          id: 'msg_1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Keep src/b.ts.', annotations: [] }],
        },
      ],
    } as unknown as OpenAI.Responses.Response;
    expect(openaiResponsesNoteWire.text(response)).toBe('Keep src/b.ts.');
  });
});
