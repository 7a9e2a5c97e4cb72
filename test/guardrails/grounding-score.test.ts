import { describe, expect, it } from 'vitest';
import { computeGroundingScore } from '../../src/guardrails/grounding-score.js';
import { createHallucinationGuardrail } from '../../src/guardrails/hallucination-guardrail.js';

const WEATHER =
  '{"city":"Paris","temperature_c":21.5,"conditions":"light rain","humidity":82,"updated":"2025-06-01T10:00:00Z"}';
const GROUNDED = 'The current temperature in Paris is 21.5°C with light rain and 82% humidity.';
const UNGROUNDED = 'The Eiffel Tower was completed in 1889 and is 330 metres tall, designed by Gustave Eiffel.';

describe('computeGroundingScore', () => {
  it('scores an answer restating its sources near 1', () => {
    expect(computeGroundingScore(GROUNDED, [WEATHER])).toBeGreaterThan(0.8);
  });

  it('scores an answer unrelated to its sources near 0', () => {
    expect(computeGroundingScore(UNGROUNDED, [WEATHER])).toBeLessThan(0.1);
  });

  it('weighs invented numbers more than extra words', () => {
    const wrongFigures = computeGroundingScore('The temperature in Paris is 35.2°C with 12% humidity.', [WEATHER]);
    const extraWords = computeGroundingScore('The temperature in Paris is pleasant, 21.5°C with 82% humidity.', [
      WEATHER,
    ]);
    expect(wrongFigures).toBeLessThan(0.5);
    expect(extraWords).toBeGreaterThan(wrongFigures);
  });

  it('normalises number formats and word forms', () => {
    expect(
      computeGroundingScore('Revenue was 1,234,500.00 dollars across 3 regions.', [
        'revenue: 1234500 (dollar), region count 3',
      ]),
    ).toBe(1);
  });

  it('uses every source and treats an answer without claims as grounded', () => {
    expect(
      computeGroundingScore('Paris has light rain; the Louvre opens at 9.', [WEATHER, 'Louvre opening hours: 9 to 18']),
    ).toBe(1);
    expect(computeGroundingScore('OK.', [WEATHER])).toBe(1);
    expect(computeGroundingScore('', [WEATHER])).toBe(1);
  });
});

describe('hallucination guardrail', () => {
  const guardrail = createHallucinationGuardrail({ enabled: true, threshold: 0.3, action: 'warn' });

  it('flags an ungrounded answer with its score', () => {
    const [verdict, ...rest] = guardrail.check(UNGROUNDED, { stage: 'output', sources: [WEATHER] });
    expect(rest).toEqual([]);
    expect(verdict).toEqual({
      type: 'hallucination',
      entity: 'ungrounded_answer',
      action: 'warn',
      score: expect.any(Number),
    });
    expect(verdict.score).toBeLessThan(0.3);
  });

  it('passes a grounded answer', () => {
    expect(guardrail.check(GROUNDED, { stage: 'output', sources: [WEATHER] })).toEqual([]);
  });

  it('is not evaluated without sources, nor on input', () => {
    expect(guardrail.check(UNGROUNDED, { stage: 'output', sources: [] })).toEqual([]);
    expect(guardrail.check(UNGROUNDED, { stage: 'output', sources: ['  '] })).toEqual([]);
    expect(guardrail.check(UNGROUNDED, { stage: 'input', sources: [WEATHER] })).toEqual([]);
  });
});
