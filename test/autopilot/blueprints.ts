/** Blueprints the fake hosted service hands out; they only use tools and providers the test config has. */

export const VENDOR_WATCH = {
  id: 'vendor-watch',
  version: '1',
  title: 'Vendor price watch',
  description: 'Checks vendor prices on a schedule and summarises changes',
  category: 'monitoring',
  mode: 'recurring',
  required_slots: [
    { name: 'vendors', type: 'list[str]', description: 'vendors to watch' },
    { name: 'schedule', type: 'cron', description: 'when to check' },
  ],
  optional_slots: [{ name: 'max_items', type: 'int', default: 5 }],
  tools_required: ['get_current_time'],
  agent_graph: {
    entry: 'research',
    nodes: [
      {
        id: 'research',
        kind: 'llm',
        role: 'researcher',
        prompt: 'List up to {{max_items}} price changes for {{vendors}}',
        tools: [],
      },
      { id: 'summarize', kind: 'llm', role: 'writer', prompt: 'Summarise: {{step_research_output}}', tools: [] },
    ],
    edges: [['research', 'summarize']],
  },
  success_criteria: ['a summary per vendor'],
};

export const ONE_OFF_REPORT = {
  id: 'one-off-report',
  version: 2,
  title: 'One-off report',
  description: 'Writes a short report on a topic',
  category: 'research',
  required_slots: { topic: 'str' },
  optional_slots: { audience: { type: 'str', default: 'engineers' } },
  agent_graph: {
    entry: 'draft',
    nodes: [
      { id: 'draft', role: 'analyst', prompt: 'Draft a report on {{topic}} for {{audience}}' },
      { id: 'polish', role: 'editor', prompt: 'Polish this report: {{step_draft_output}}' },
    ],
    edges: [['draft', 'polish']],
  },
};

export const json = (blueprint: object): string => JSON.stringify(blueprint);

/** A candidate list: the given blueprint at each score, with distinct ids so pickers can tell them apart. */
export function scored(...scores: number[]): { blueprint_json: string; score: number }[] {
  return scores.map((score, index) => ({
    blueprint_json: json({ ...ONE_OFF_REPORT, id: `report-${index}`, title: `Report ${index}` }),
    score,
  }));
}
