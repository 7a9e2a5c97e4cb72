/** The instructions that make the autopilot model write a blueprint our validator accepts. */
export function blueprintWriterPrompt(tools: string[]): string {
  return [
    'You design automation blueprints. Answer with one JSON object and nothing else, shaped like this:',
    '{"id": "kebab-case-id", "version": "1", "title": "...", "description": "...", "category": "...", "mode": "one_off or recurring",',
    ' "required_slots": [{"name": "snake_case", "type": "str|int|float|bool|list[str]|cron|url", "description": "..."}],',
    ' "optional_slots": [{"name": "...", "type": "...", "default": "..."}],',
    ' "tools_required": [], "agent_graph": {"entry": "first", "nodes": [{"id": "first", "kind": "llm", "role": "researcher",',
    ' "prompt": "text using {{slot_name}} and {{step_<earlier node id>_output}}", "tools": []}], "edges": [["first", "second"]]},',
    ' "success_criteria": ["..."]}',
    'A recurring blueprint has a required slot named "schedule" of type "cron". Edges must not form a cycle.',
    `Tools that exist: ${tools.length > 0 ? tools.join(', ') : 'none'}. Use no other tool names.`,
  ].join('\n');
}
