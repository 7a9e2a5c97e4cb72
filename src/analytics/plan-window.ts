/**
 * How to read a window: whole UTC days from the daily totals, the partial days at either edge from the
 * usage records. `since` is inclusive and `until` exclusive; both are canonical ISO strings.
 */
export interface WindowPlan {
  /** Whole days `fromDay <= day < toDay`; undefined when the window holds no whole day. */
  days?: { fromDay?: string; toDay?: string };
  /** Stretches shorter than a day, read from the usage records. */
  edges: { since?: string; until?: string }[];
}

const DAY_MS = 86_400_000;

export function planWindow(since?: string, until?: string): WindowPlan {
  const firstWholeDay = since === undefined ? undefined : startOfDayAtOrAfter(since);
  const endOfWholeDays = until === undefined ? undefined : startOfDay(until);
  if (firstWholeDay !== undefined && endOfWholeDays !== undefined && firstWholeDay >= endOfWholeDays) {
    return { edges: [{ since, until }] };
  }
  const edges: WindowPlan['edges'] = [];
  if (since !== undefined && firstWholeDay !== undefined && since < firstWholeDay)
    edges.push({ since, until: firstWholeDay });
  if (until !== undefined && endOfWholeDays !== undefined && endOfWholeDays < until)
    edges.push({ since: endOfWholeDays, until });
  return { days: { fromDay: firstWholeDay?.slice(0, 10), toDay: endOfWholeDays?.slice(0, 10) }, edges };
}

function startOfDay(time: string): string {
  return `${time.slice(0, 10)}T00:00:00.000Z`;
}

function startOfDayAtOrAfter(time: string): string {
  const start = startOfDay(time);
  return start === time ? start : new Date(Date.parse(start) + DAY_MS).toISOString();
}
