/** A strict reader of the Prometheus text exposition format (0.0.4): any line it cannot read throws. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/;
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"(,|$)/;
const SUFFIXES: Record<MetricFamily['type'], string[]> = {
  counter: ['', '_total'],
  gauge: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
  untyped: [''],
};

export function parseExposition(text: string): Map<string, MetricFamily> {
  const families = new Map<string, MetricFamily>();
  const helps = new Map<string, string>();
  text.split('\n').forEach((line, index) => {
    const fail = (why: string): never => {
      throw new Error(`line ${index + 1}: ${why}: ${line}`);
    };
    if (line === '') return;
    if (line.startsWith('# HELP ')) {
      const [name, ...help] = line.slice(7).split(' ');
      if (!NAME.test(name)) fail('bad metric name');
      helps.set(name, help.join(' '));
    } else if (line.startsWith('# TYPE ')) {
      const [name, type, extra] = line.slice(7).split(' ');
      if (!NAME.test(name) || extra !== undefined || !(type in SUFFIXES)) fail('bad TYPE line');
      if (families.has(name)) fail('family declared twice');
      families.set(name, { name, type: type as MetricFamily['type'], help: helps.get(name) ?? '', samples: [] });
    } else if (line.startsWith('#')) {
      return;
    } else {
      const match = SAMPLE.exec(line) ?? fail('not a sample');
      const [, name, labelText = '', valueText] = match;
      const family = familyOf(families, name) ?? fail('sample without a TYPE line before it');
      family.samples.push({ name, labels: parseLabels(labelText, fail), value: parseValue(valueText, fail) });
    }
  });
  return families;
}

function familyOf(families: Map<string, MetricFamily>, sample: string): MetricFamily | undefined {
  for (const family of families.values()) {
    if (SUFFIXES[family.type].some((suffix) => `${family.name}${suffix}` === sample)) return family;
  }
  return undefined;
}

function parseLabels(text: string, fail: (why: string) => never): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest !== '') {
    const match = LABEL.exec(rest) ?? fail('bad label');
    labels[match[1]] = match[2].replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    rest = rest.slice(match[0].length);
  }
  return labels;
}

function parseValue(text: string, fail: (why: string) => never): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  // Prometheus reads NaN in any case; prom-client writes `Nan` (an event-loop lag histogram with no sample yet).
  if (text.toLowerCase() === 'nan') return NaN;
  const value = Number(text);
  return Number.isNaN(value) ? fail('bad value') : value;
}
