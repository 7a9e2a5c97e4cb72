import MiniSearch from 'minisearch';
import type { Blueprint } from '../blueprints/blueprint.schema.js';

const STOP_WORDS = new Set(
  'a an and are as at be by every each for from give i in into is it me my of on or our please send so some that the their them then this to us we what when with you your'.split(
    ' ',
  ),
);

// Light suffix stripping so "summarise", "summary" and "summaries" meet; a stem keeps at least four letters.
const SUFFIXES = [
  'isation',
  'ization',
  'ising',
  'izing',
  'ised',
  'ized',
  'ise',
  'ize',
  'ies',
  'ing',
  'ly',
  'ed',
  'es',
  's',
  'y',
];

function stem(term: string): string {
  for (const suffix of SUFFIXES)
    if (term.endsWith(suffix) && term.length - suffix.length >= 4) return term.slice(0, -suffix.length);
  return term;
}

const splitWords = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u);

// Numbers and stop words carry no topic: "at 9" must not tie a goal to every blueprint with a 9 in it.
function processTerm(term: string): string | null {
  return term.length >= 2 && !/^\d+$/.test(term) && !STOP_WORDS.has(term) ? stem(term) : null;
}

/** Lower-case words of two or more letters, numbers and stop words left out, lightly stemmed. */
export function rankingTerms(text: string): string[] {
  return splitWords(text).flatMap((term) => processTerm(term) ?? []);
}

interface RankedDocument {
  id: string;
  title: string;
  description: string;
  category: string;
  examples: string;
  slots: string;
}

export interface RankedBlueprint {
  id: string;
  /** 0..1, calibrated to the routing thresholds (see createLocalRanker). */
  score: number;
}

// Fitted on the bundled library: a goal carrying a fifth of an example goal's evidence ("triage alerts from
// our pager" for webhook-triage) scores 0.645, just under the picker (0.65; docs/autopilot.md says so and
// test/autopilot/docs-offline-loop.test.ts holds it); two fifths ("write a report comparing postgres
// and mysql") nearly auto-routes; an example goal itself scores 0.99.
const CALIBRATION = 4.5;

export type LocalRanker = (goal: string) => RankedBlueprint[];

const SEARCH_OPTIONS = {
  boost: { title: 2, examples: 1.5, description: 1, category: 1, slots: 0.5 },
  fuzzy: 0.15,
  prefix: true,
  combineWith: 'OR' as const,
};

/**
 * Ranks blueprints for a goal with MiniSearch's BM25+ over title, description, category, example goals
 * and slot descriptions. Raw BM25 is unbounded and grows with the corpus, so each blueprint's raw score is
 * first divided by the raw score its own least specific example goal gets (ratio 1: as much evidence as a
 * known example), then mapped onto 0..1 by 1 - e^(-4.5 · ratio), so that the spec's thresholds keep their
 * meaning: 0.85 auto-routes a goal about as specific as an example, 0.65 offers a plausible match.
 */
export function createLocalRanker(blueprints: Blueprint[]): LocalRanker {
  const index = new MiniSearch<RankedDocument>({
    fields: ['title', 'description', 'category', 'examples', 'slots'],
    tokenize: splitWords,
    processTerm,
  });
  index.addAll(blueprints.map(toDocument));
  const raw = (text: string) => new Map(index.search(text, SEARCH_OPTIONS).map((hit) => [String(hit.id), hit.score]));
  const references = new Map(
    blueprints.map((blueprint) => {
      const examples =
        blueprint.example_goals.length > 0 ? blueprint.example_goals : [`${blueprint.title} ${blueprint.description}`];
      const scores = examples.map((example) => raw(example).get(blueprint.id) ?? 0).filter((score) => score > 0);
      return [blueprint.id, scores.length > 0 ? Math.min(...scores) : Infinity];
    }),
  );
  return (goal) => {
    if (rankingTerms(goal).length === 0) return [];
    return [...raw(goal)]
      .map(([id, score]) => ({
        id,
        score: Math.round((1 - Math.exp(-CALIBRATION * Math.min(1, score / references.get(id)!))) * 1000) / 1000,
      }))
      .filter((entry) => entry.score > 0)
      .sort((a, b) => b.score - a.score);
  };
}

function toDocument(blueprint: Blueprint): RankedDocument {
  return {
    id: blueprint.id,
    title: blueprint.title,
    description: blueprint.description,
    category: blueprint.category,
    examples: blueprint.example_goals.join('\n'),
    slots: blueprint.slots.map((slot) => `${slot.name.replace(/_/g, ' ')} ${slot.description ?? ''}`).join('\n'),
  };
}
