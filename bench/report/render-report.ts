import type { BenchResults, ScenarioResult } from './bench-results.js';
import { formatTable, type Cell } from './format-table.js';

/** The whole run as Markdown (latest.md) or as plain text tables (stdout). */
export function renderReport(results: BenchResults, markdown: boolean): string {
  const heading = (level: number, text: string) =>
    markdown ? `${'#'.repeat(level)} ${text}` : `\n${text}\n${'='.repeat(text.length)}`;
  const { machine } = results;
  const lines = [
    heading(1, 'Agent Gateway benchmark'),
    '',
    `Generated ${results.generated_at} by \`${results.command}\` in ${results.total_seconds} s.`,
    `Machine: ${machine.cpus} CPUs (${machine.cpu_model}), ${machine.memory_gb} GB RAM, Node.js ${machine.node}, ${machine.os}.`,
    `Load average (1/5/15 min): ${results.load_average.before.join(' / ')} before, ${results.load_average.after.join(' / ')} after${results.load_average.before[0] > Number(machine.cpus) ? ' — the machine was busy with other work, so absolute numbers are noisy; the interleaved ratios hold up better' : ''}.`,
    `Versions: ${Object.entries(results.versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}.`,
    `Gateway: ${results.gateway_runtime}.`,
    '',
  ];
  if (results.targets?.length) {
    lines.push(heading(2, 'Targets'), '');
    const rows: Cell[][] = results.targets.map((check) => [
      `#${check.issue}`,
      check.target,
      check.measured,
      check.met === null ? '–' : check.met ? 'met' : 'not met',
    ]);
    lines.push(formatTable(['issue', 'target', 'this run', 'status'], rows, markdown), '');
  }
  for (const scenario of results.scenarios) lines.push(...renderScenario(scenario, markdown, heading), '');
  if (results.failures.length > 0) {
    lines.push(heading(2, 'Failed scenarios'), '');
    for (const failure of results.failures) lines.push(`- ${failure.scenario}: ${failure.error.split('\n')[0]}`);
  }
  return `${lines.join('\n')}\n`;
}

function renderScenario(
  scenario: ScenarioResult,
  markdown: boolean,
  heading: (level: number, text: string) => string,
): string[] {
  const lines = [
    heading(2, `${scenario.name} (${scenario.seconds} s, load average ${scenario.load_average[0]} at start)`),
    '',
    scenario.description,
    '',
  ];
  const metrics = unique(scenario.measurements.flatMap((measurement) => Object.keys(measurement.metrics)));
  const rows: Cell[][] = scenario.measurements.map((measurement) => [
    measurement.case,
    measurement.target,
    ...metrics.map((metric) => measurement.metrics[metric]),
  ]);
  lines.push(formatTable(['case', 'target', ...metrics], rows, markdown), '');
  if (scenario.ratios.length > 0) {
    const ratioMetrics = unique(scenario.ratios.map((ratio) => ratio.metric));
    const pairs = unique(scenario.ratios.map((ratio) => `${ratio.case}\u0000${ratio.pair}`));
    const ratioRows: Cell[][] = pairs.map((key) => {
      const [name, pair] = key.split('\u0000');
      return [
        name,
        pair,
        ...ratioMetrics.map((metric) => {
          const ratio = scenario.ratios.find(
            (entry) => entry.case === name && entry.pair === pair && entry.metric === metric,
          );
          if (!ratio || ratio.ratio === null) return null;
          return `${ratio.ratio.toFixed(2)}× (${ratio.difference !== null && ratio.difference >= 0 ? '+' : ''}${ratio.difference})`;
        }),
      ];
    });
    lines.push(
      markdown
        ? "Ratios, pair by pair (ratio, and difference in the metric's unit: for latencies, the ms added):"
        : 'ratio (difference)',
      '',
    );
    lines.push(formatTable(['case', 'pair', ...ratioMetrics], ratioRows, markdown), '');
  }
  for (const note of scenario.notes) lines.push(markdown ? `- ${note}` : `note: ${note}`);
  return lines;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
