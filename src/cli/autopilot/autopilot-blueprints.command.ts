import { Command } from 'commander';
import { readBlueprintArgument } from './autopilot-files.js';
import { printRows } from '../output.js';

type Call = <T>(flags: Record<string, unknown>, method: string, path: string, body?: unknown) => Promise<T>;
/** The global flags every verb takes (commander hands them over untyped). */
type Flags = { json?: boolean } & Record<string, unknown>;
type Verb = (parent: Command, name: string, description: string) => Command;

interface BlueprintSummary {
  id: string;
  title: string;
  category: string;
  mode: string;
  source: string;
  example_goals: string[];
  slots: { name: string; type: string; required: boolean; description: string | null; default?: unknown }[];
  nodes: { id: string; kind: string; role: string; tools: string[] }[];
  notes?: string[];
  unknown_fields?: string[];
}

/** `autopilot blueprints list|show <id>|validate FILE`: the local library and validation against this server. */
export function blueprintsCommand(verb: Verb, call: Call): Command {
  const blueprints = new Command('blueprints').description(
    'the local blueprint library (bundled and autopilot.blueprints_dir)',
  );
  verb(blueprints, 'list', 'list the local blueprints').action(async (flags: Flags) => {
    const list = await call<BlueprintSummary[]>(flags, 'GET', '/blueprints');
    printRows(list as unknown as Record<string, unknown>[], ['id', 'source', 'mode', 'title'], flags.json ?? false);
    if (!flags.json && list.length > 0) console.log('\nSee one with: autopilot blueprints show <id>');
  });
  verb(blueprints, 'show', 'show a local blueprint: slots, nodes and example goals')
    .argument('<blueprint_id>')
    .action(async (id: string, flags: Flags) =>
      printBlueprint(
        await call<BlueprintSummary>(flags, 'GET', `/blueprints/${encodeURIComponent(id)}`),
        flags.json ?? false,
      ),
    );
  verb(
    blueprints,
    'validate',
    "validate a blueprint file (JSON or YAML, ours or the hosted catalogue's vocabulary) against this server",
  )
    .argument('<file>')
    .action(async (file: string, flags: Flags) => {
      const blueprint = await call<BlueprintSummary>(flags, 'POST', '/blueprints/validate', {
        blueprint_json: readBlueprintArgument(file),
      });
      printBlueprint(blueprint, flags.json ?? false);
      if (!flags.json)
        console.log(
          `\nValid. Create a mission from it with: autopilot create --blueprint ${file} --slot <name>=<value>`,
        );
    });
  return blueprints;
}

function printBlueprint(blueprint: BlueprintSummary, json: boolean): void {
  if (json) return void console.log(JSON.stringify(blueprint, null, 2));
  console.log(`${blueprint.id}  "${blueprint.title}"  ${blueprint.category}  ${blueprint.mode}  (${blueprint.source})`);
  console.log('Slots:');
  if (blueprint.slots.length === 0) console.log('  (none)');
  for (const slot of blueprint.slots) {
    const extra = [
      slot.required ? 'required' : 'optional',
      slot.default !== undefined ? `default ${JSON.stringify(slot.default)}` : '',
      slot.description ?? '',
    ]
      .filter(Boolean)
      .join(', ');
    console.log(`  ${slot.name} [${slot.type}]  ${extra}`);
  }
  console.log(
    `Nodes: ${blueprint.nodes.map((node) => `${node.id}${node.kind === 'llm' ? '' : ` (${node.kind})`}`).join(' → ')}`,
  );
  if (blueprint.example_goals.length > 0)
    console.log(`Example goals:\n${blueprint.example_goals.map((goal) => `  - ${goal}`).join('\n')}`);
  if (blueprint.unknown_fields?.length) console.log(`Kept, unused fields: ${blueprint.unknown_fields.join(', ')}`);
  for (const note of blueprint.notes ?? []) console.log(`Note: ${note}`);
}
