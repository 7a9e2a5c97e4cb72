/**
 * Blueprints in the hosted catalogue's vocabulary: `type_`/`validator_name` slot specs, an object
 * success_criteria with metrics, prompt_ref/model_ref/max_steps nodes, branches, `composition`,
 * event-keyed training hooks and fields our schema has never heard of.
 */

export const CATALOGUE_NEWS_DIGEST = {
  id: 'cat-news-digest',
  version: 3,
  title: 'News digest (catalogue)',
  description: 'Collects the news on a topic and writes a digest',
  category: 'digest',
  quality_tier: 'gold',
  providers_required: ['openai'],
  example_goals: ['send me a digest of AI news every morning'],
  required_slots: {
    topic: { type_: 'string', description: 'what the news is about', required: true },
    schedule: { type: 'string', validator_name: 'cron', required: true },
  },
  optional_slots: {
    vendors: { type_: 'list', description: 'vendors to single out', required: false },
    max_items: { type_: 'integer', default: 5 },
  },
  prompts: { collect: 'List up to {{max_items}} news items about {{topic}} (vendors: {{vendors}})' },
  agent_graph: {
    entry: 'collect',
    nodes: [
      {
        id: 'collect',
        kind: 'llm',
        role: 'researcher',
        prompt_ref: 'collect',
        model_ref: 'anthropic/claude-3-5-haiku',
        tools: [],
        max_steps: 3,
      },
      { id: 'write', kind: 'llm', role: 'writer', prompt: 'Write the digest: {{step_collect_output}}', tools: [] },
    ],
    edges: [['collect', 'write']],
  },
  success_criteria: {
    dataset_id: 'ds-news-eval',
    metrics: [
      { name: 'faithfulness', op: '>=', value: 0.8 },
      { name: 'coverage', target: 0.7 },
    ],
  },
  training_data_hooks: [
    { event: 'step_completed', dataset: 'catalogue/news-digest', format: 'chat', quality_filter: { min_score: 0.5 } },
  ],
  learning_loop_target: {
    trigger_after_labeled_samples: 200,
    base_model: 'llama-3.1-8b',
    eval_gate_dataset_id: 'ds-news-eval',
  },
  sandbox_requirements: { network: 'none' },
  x_vendor_meta: { owner: 'catalogue-team' },
};

/** The newer `composition` form: a list of steps that run one after the other. */
export const CATALOGUE_COMPOSED = {
  id: 'cat-composed-brief',
  title: 'Composed brief',
  slots: { subject: { type_: 'str', required: true } },
  composition: {
    steps: [
      { id: 'outline', kind: 'llm', prompt: 'Outline a brief on {{subject}}' },
      { id: 'stamp', kind: 'deterministic', prompt: 'BRIEF\n{{step_outline_output}}' },
    ],
  },
  success_criteria: { metrics: [{ name: 'length', op: '<', value: 2000 }] },
};

/** A classifier whose output picks the branch: only the taken branch's node runs. */
export const CATALOGUE_TRIAGE = {
  id: 'cat-triage',
  title: 'Ticket triage',
  slots: { ticket: { type_: 'str', required: true } },
  agent_graph: {
    entry: 'classify',
    nodes: [
      { id: 'classify', kind: 'llm', prompt: 'Classify this ticket: {{ticket}}' },
      { id: 'escalate', kind: 'llm', prompt: 'Escalate: {{step_classify_output}}' },
      { id: 'file', kind: 'llm', prompt: 'File it: {{step_classify_output}}' },
    ],
    edges: [],
    branches: {
      classify: [
        { condition: 'urgent', target: 'escalate' },
        { condition: 'default', target: 'file' },
      ],
    },
  },
};

const graph = (nodes: object[], edges: [string, string][] = []) => ({ entry: 'a', nodes, edges });

/** Candidates a catalogue may send that this installation cannot execute, each for one named reason. */
export const UNEXECUTABLE = {
  noGraph: { id: 'cat-no-graph', title: 'No graph', success_criteria: { metrics: [] } },
  cycle: {
    id: 'cat-cycle',
    title: 'Cycle',
    agent_graph: {
      ...graph(
        [
          { id: 'a', prompt: 'x' },
          { id: 'b', prompt: 'y' },
          { id: 'c', prompt: 'z' },
        ],
        [
          ['a', 'b'],
          ['b', 'c'],
          ['c', 'b'],
        ],
      ),
    },
  },
  unknownTool: {
    id: 'cat-unknown-tool',
    title: 'Unknown tool',
    agent_graph: graph([{ id: 'a', kind: 'llm', prompt: 'x', tools: [{ name: 'teleport' }] }]),
  },
  both: {
    id: 'cat-both',
    title: 'Both',
    agent_graph: graph([{ id: 'a', prompt: 'x' }]),
    composition: [{ id: 'a', prompt: 'x' }],
  },
};
