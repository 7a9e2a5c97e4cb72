import { describe, expect, it } from 'vitest';
import { orderGraph } from '../../../src/autopilot/blueprints/graph-order.js';
import { validateBlueprint } from '../../../src/autopilot/blueprints/validate-blueprint.js';
import { ONE_OFF_REPORT, VENDOR_WATCH } from '../blueprints.js';

const checks = {
  toolExists: (name: string) => ['get_current_time', 'web__search'].includes(name) || name === 'web__*',
  modelExists: (model: string) => model.startsWith('upstream/'),
  defaultModel: 'upstream/m',
};

function problems(blueprint: object): { field: string; message: string }[] {
  try {
    validateBlueprint(blueprint, checks);
  } catch (error) {
    return (error as { details: { errors: { field: string; message: string }[] } }).details.errors;
  }
  return [];
}

describe('graph order', () => {
  it('starts at the entry and otherwise keeps declaration order', () => {
    const graph = {
      entry: 'a',
      nodes: [{ id: 'c' }, { id: 'b' }, { id: 'a' }, { id: 'd' }],
      edges: [
        ['a', 'b'],
        ['a', 'c'],
        ['b', 'd'],
        ['c', 'd'],
      ] as [string, string][],
    };
    expect(orderGraph(graph)).toEqual({ order: ['a', 'c', 'b', 'd'], cyclic: [] });
  });
});

describe('blueprint validation', () => {
  it('accepts both slot shapes and derives the mode', () => {
    expect(validateBlueprint(VENDOR_WATCH, checks)).toMatchObject({
      mode: 'recurring',
      order: ['research', 'summarize'],
    });
    const report = validateBlueprint(ONE_OFF_REPORT, checks);
    expect(report.mode).toBe('one_off');
    expect(report.version).toBe('2');
    expect(report.slots).toEqual([
      { name: 'topic', type: 'str', required: true },
      { name: 'audience', type: 'str', required: false, description: undefined, default: 'engineers' },
    ]);
  });

  it('names each problem by its field', () => {
    const graph = ONE_OFF_REPORT.agent_graph;
    expect(problems({ ...ONE_OFF_REPORT, agent_graph: { ...graph, entry: 'nope' } })).toEqual([
      { field: 'blueprint.agent_graph.entry', message: 'unknown node "nope"' },
    ]);
    expect(
      problems({
        ...ONE_OFF_REPORT,
        agent_graph: { ...graph, nodes: [...graph.nodes, { id: 'orphan', prompt: 'x' }] },
      })[0].field,
    ).toBe('blueprint.agent_graph.nodes[2]');
    expect(
      problems({
        ...ONE_OFF_REPORT,
        agent_graph: { ...graph, nodes: [{ ...graph.nodes[0], tools: ['web__search', 'nope'] }, graph.nodes[1]] },
      }),
    ).toEqual([{ field: 'blueprint.agent_graph.nodes[0].tools[1]', message: 'unknown tool "nope"' }]);
    expect(
      problems({
        ...ONE_OFF_REPORT,
        agent_graph: { ...graph, nodes: [{ ...graph.nodes[0], model: 'other/m' }, graph.nodes[1]] },
      })[0].field,
    ).toBe('blueprint.agent_graph.nodes[0].model');
    expect(
      problems({
        ...ONE_OFF_REPORT,
        agent_graph: { ...graph, nodes: [{ ...graph.nodes[0], prompt: 'use {{step_polish_output}}' }, graph.nodes[1]] },
      }),
    ).toEqual([
      {
        field: 'blueprint.agent_graph.nodes[0].prompt',
        message: 'unknown placeholder {{step_polish_output}} (slots, goal or the output of an earlier node)',
      },
    ]);
    expect(problems({ ...ONE_OFF_REPORT, required_slots: { topic: { type: 5 } } })[0].field).toMatch(
      /^blueprint\.required_slots\.topic/,
    );
    expect(problems({ ...ONE_OFF_REPORT, optional_slots: [{ name: 'limit', type: 'int', default: 'x' }] })).toEqual([
      { field: 'blueprint.optional_slots.limit.default', message: 'expected an integer' },
    ]);
    expect(problems({ ...ONE_OFF_REPORT, optional_slots: { topic: 'str' } })[0].message).toBe(
      'slot "topic" is declared twice',
    );
  });

  it('requires a model on every node when autopilot.model is not set', () => {
    expect(() => validateBlueprint(ONE_OFF_REPORT, { ...checks, defaultModel: undefined })).toThrow(
      /agent_graph.nodes\[0\].model: no model/,
    );
  });
});
