import { describe, expect, it } from 'vitest';
import { mergeSessionHistory, type ChatMessage } from '../../src/agents/index.js';

const stored: ChatMessage[] = [
  { role: 'system', content: 'Be nice.' },
  { role: 'user', content: 'hi' },
  { role: 'assistant', content: 'hello' },
];

describe('mergeSessionHistory', () => {
  it('takes a request that resends the whole history as is, storing only its new turns', () => {
    const incoming: ChatMessage[] = [...stored, { role: 'user', content: 'more' }];
    expect(mergeSessionHistory(stored, incoming)).toEqual({
      conversation: incoming,
      history: stored,
      pending: [{ role: 'user', content: 'more' }],
    });
    // The conversation starts with the stored objects themselves: prompt logs refer to them.
    expect(mergeSessionHistory(stored, incoming).conversation[0]).toBe(stored[0]);
  });

  it('appends the non-system messages of a request that sends only the new turn', () => {
    const incoming: ChatMessage[] = [
      { role: 'system', content: 'Other.' },
      { role: 'user', content: 'hi' },
    ];
    expect(mergeSessionHistory(stored, incoming)).toEqual({
      conversation: [...stored, { role: 'user', content: 'hi' }],
      history: stored,
      pending: [{ role: 'user', content: 'hi' }],
    });
  });

  it('starts an empty session with everything the request sent', () => {
    const incoming: ChatMessage[] = [
      { role: 'system', content: 's' },
      { role: 'user', content: 'u' },
    ];
    expect(mergeSessionHistory([], incoming)).toEqual({ conversation: incoming, history: [], pending: incoming });
  });
});
