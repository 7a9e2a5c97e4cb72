import { describe, expect, it } from 'vitest';
import type { ContentFilterConfig } from '../../src/config/index.js';
import { createContentFilterGuardrail } from '../../src/guardrails/content-filter-guardrail.js';

function hits(config: Partial<ContentFilterConfig>, text: string): Array<[string, string]> {
  const filter = createContentFilterGuardrail({
    enabled: true,
    action: 'block',
    blocklist: [],
    patterns: [],
    ...config,
  });
  return filter.check(text, { stage: 'input', sources: [] }).map((v) => [v.entity, text.slice(v.span![0], v.span![1])]);
}

describe('content filter', () => {
  it('finds blocklisted words case-insensitively, as whole words only', () => {
    expect(hits({ blocklist: ['darn'] }, 'Darn it. DARN! darned darnit undarn')).toEqual([
      ['darn', 'Darn'],
      ['darn', 'DARN'],
    ]);
  });

  it('matches phrases across any whitespace and prefers the longest entry', () => {
    expect(hits({ blocklist: ['secret', 'top  secret'] }, 'This is TOP\nsecret, not just secret.')).toEqual([
      ['top  secret', 'TOP\nsecret'],
      ['secret', 'secret'],
    ]);
  });

  it('treats regex characters in blocklist entries literally and handles non-ASCII words', () => {
    expect(hits({ blocklist: ['c++', 'straße'] }, 'I write c++ in the STRASSE, the Straße, and cxx')).toEqual([
      ['c++', 'c++'],
      ['straße', 'Straße'],
    ]);
  });

  it('finds configured regular expressions, case-insensitively', () => {
    expect(
      hits(
        { patterns: ['api[_-]?key\\s*[:=]\\s*\\S+', '\\bDROP\\s+TABLE\\b'] },
        'my API_KEY = abc123 then drop table users',
      ),
    ).toEqual([
      ['/api[_-]?key\\s*[:=]\\s*\\S+/', 'API_KEY = abc123'],
      ['/\\bDROP\\s+TABLE\\b/', 'drop table'],
    ]);
  });

  it('reports the configured action and nothing for clean text', () => {
    const filter = createContentFilterGuardrail({
      enabled: true,
      action: 'warn',
      blocklist: ['bad'],
      patterns: ['evil'],
    });
    expect(filter.check('bad', { stage: 'output', sources: [] })).toEqual([
      { type: 'content_filter', entity: 'bad', action: 'warn', span: [0, 3] },
    ]);
    expect(filter.check('all good here', { stage: 'output', sources: [] })).toEqual([]);
  });
});
