import type { ContentFilterConfig } from '../config/index.js';
import type { Guardrail, GuardrailVerdict } from './types.js';

// A letter, digit or underscore right before or after a hit means it sits inside a longer word.
const WORD_CHAR = String.raw`[\p{L}\p{N}_]`;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One alternation for the whole blocklist, longest entries first so "bad word" wins over "bad". */
function compileBlocklist(entries: string[]): { regex?: RegExp; entityOf: (match: string) => string } {
  const byKey = new Map<string, string>();
  for (const entry of entries) byKey.set(normalize(entry), entry.trim());
  const alternatives = [...byKey.keys()]
    .sort((a, b) => b.length - a.length)
    .map((key) => escapeRegExp(key).replace(/ /g, String.raw`\s+`));
  const regex =
    alternatives.length > 0
      ? new RegExp(`(?<!${WORD_CHAR})(?:${alternatives.join('|')})(?!${WORD_CHAR})`, 'giu')
      : undefined;
  return { regex, entityOf: (match) => byKey.get(normalize(match)) ?? match.toLowerCase() };
}

function normalize(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** Blocklisted words and phrases (case-insensitive, whole words) and configured regular expressions. */
export function createContentFilterGuardrail(config: ContentFilterConfig): Guardrail {
  const blocklist = compileBlocklist(config.blocklist);
  // Validated at load (guardrails.schema.ts); the same flags here, plus g to find every hit.
  const patterns = config.patterns.map((source) => ({ entity: `/${source}/`, regex: new RegExp(source, 'giu') }));
  const verdict = (entity: string, start: number, end: number): GuardrailVerdict => ({
    type: 'content_filter',
    entity,
    action: config.action,
    span: [start, end],
  });
  return {
    type: 'content_filter',
    check(text) {
      const verdicts: GuardrailVerdict[] = [];
      if (blocklist.regex) {
        for (const match of text.matchAll(blocklist.regex))
          verdicts.push(verdict(blocklist.entityOf(match[0]), match.index, match.index + match[0].length));
      }
      for (const { entity, regex } of patterns) {
        for (const match of text.matchAll(regex)) {
          if (match[0].length > 0) verdicts.push(verdict(entity, match.index, match.index + match[0].length));
        }
      }
      return verdicts.sort((a, b) => a.span![0] - b.span![0]);
    },
  };
}
