import { describe, expect, it } from 'vitest';
import { convertRunAgentInput } from '../../../src/gateway/agui/convert-run-agent-input.js';

describe('convertRunAgentInput', () => {
  it('turns the AG-UI thread into the run conversation, context first, UI-only messages left out', () => {
    const { messages } = convertRunAgentInput({
      context: [{ description: 'user locale', value: 'fr-FR' }],
      messages: [
        { id: '1', role: 'developer', content: 'Be brief.' },
        {
          id: '2',
          role: 'user',
          content: [
            { type: 'text', text: 'Book ' },
            { type: 'text', text: 'a table' },
          ],
        },
        {
          id: '3',
          role: 'assistant',
          toolCalls: [{ id: 'call_1', type: 'function', function: { name: 'confirm', arguments: '{"n":2}' } }],
        },
        { id: '4', role: 'tool', toolCallId: 'call_1', content: '', error: 'user declined' },
        { id: '5', role: 'activity', activityType: 'progress', content: { percent: 50 } },
        { id: '6', role: 'reasoning', content: 'thinking' },
        { id: '7', role: 'assistant', content: 'Declined, then.' },
      ],
    });
    expect(messages).toEqual([
      { role: 'system', content: 'Context from the application:\n- user locale: fr-FR' },
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Book a table' },
      { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', name: 'confirm', arguments: '{"n":2}' }] },
      { role: 'tool', content: 'Error: user declined', tool_call_id: 'call_1', name: 'confirm' },
      { role: 'assistant', content: 'Declined, then.' },
    ]);
  });

  it('offers the client tools as function tools, with an empty object schema when none is given', () => {
    const { clientTools } = convertRunAgentInput({
      messages: [],
      tools: [
        {
          name: 'confirm',
          description: 'Ask the user',
          parameters: { type: 'object', properties: { n: { type: 'number' } } },
        },
        { name: 'ping', description: 'No arguments' },
      ],
    });
    expect(clientTools).toEqual([
      {
        name: 'confirm',
        description: 'Ask the user',
        parameters: { type: 'object', properties: { n: { type: 'number' } } },
      },
      { name: 'ping', description: 'No arguments', parameters: { type: 'object', properties: {} } },
    ]);
  });
});
