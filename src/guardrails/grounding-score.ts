import { STOPWORDS } from './stopwords.js';

/**
 * How well an answer is supported by the sources the run had (tool results, context), in [0, 1].
 *
 * Method: the answer's claims are reduced to features — numbers (weight 3, or 1 for a single digit),
 * named entities (capitalised words not opening a sentence, and acronyms; weight 2) and other content
 * words (weight 1; stopwords dropped, light suffix stemming). The score is the weight of the features
 * that also occur anywhere in the sources divided by the weight of all features. Numbers weigh most
 * because an invented figure is the costliest hallucination. An answer with no features scores 1: it
 * claims nothing. This is lexical support, not entailment: a paraphrase with new words scores lower, a
 * contradiction built from the sources' own words scores high.
 */
export function computeGroundingScore(answer: string, sources: readonly string[]): number {
  const claims = extractFeatures(answer);
  if (claims.size === 0) return 1;
  const supported = new Set(extractFeatures(sources.join('\n')).keys());
  let total = 0;
  let grounded = 0;
  for (const [feature, weight] of claims) {
    total += weight;
    if (supported.has(feature)) grounded += weight;
  }
  return grounded / total;
}

const NUMBER = /(?<![\p{L}\d.])\d[\d,]*(?:\.\d+)?/gu;
const WORD = /[\p{L}][\p{L}\p{N}'’]*/gu;

/** Feature key → weight; keys are `n:<number>` and `w:<stem>`, so numbers and words never collide. */
function extractFeatures(text: string): Map<string, number> {
  const features = new Map<string, number>();
  const add = (key: string, weight: number) => features.set(key, Math.max(weight, features.get(key) ?? 0));
  for (const match of text.matchAll(NUMBER)) {
    const value = normalizeNumber(match[0]);
    if (value !== undefined) add(`n:${value}`, value.replace(/[-.]/g, '').length > 1 ? 3 : 1);
  }
  for (const match of text.matchAll(WORD)) {
    const word = match[0].replace(/['’]s$/u, '');
    const lower = word.toLowerCase();
    if (lower.length < 3 && !isAcronym(word)) continue;
    if (STOPWORDS.has(lower)) continue;
    const entity = isAcronym(word) || (/^\p{Lu}/u.test(word) && !opensSentence(text, match.index));
    add(`w:${stem(lower)}`, entity ? 2 : 1);
  }
  return features;
}

/** "1,234.50" and "1234.5" are the same claim. */
function normalizeNumber(text: string): string | undefined {
  const value = Number(text.replace(/,/g, '').replace(/\.$/, ''));
  return Number.isFinite(value) ? String(value) : undefined;
}

function isAcronym(word: string): boolean {
  return word.length >= 2 && /^[\p{Lu}\d]+$/u.test(word);
}

function opensSentence(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 4), index).trimEnd();
  return before === '' || /[.!?:\n"“(\-*#>]$/u.test(before);
}

/** A light suffix stripper, applied alike to answer and sources, so "rains", "rained" and "raining" meet. */
function stem(word: string): string {
  let root = word;
  if (root.length > 4) {
    if (root.endsWith('ies')) root = `${root.slice(0, -3)}y`;
    else if (/(?:x|z|ch|sh|ss)es$/.test(root)) root = root.slice(0, -2);
    else if (root.endsWith('ing') && root.length >= 6) root = root.slice(0, -3);
    else if (root.endsWith('ed') && root.length >= 5) root = root.slice(0, -2);
    else if (root.endsWith('s') && !/(?:ss|us|is)$/.test(root)) root = root.slice(0, -1);
  }
  // "temperature"/"temperatures" and "create"/"created" meet once a final e is gone.
  return root.length > 4 && root.endsWith('e') ? root.slice(0, -1) : root;
}
