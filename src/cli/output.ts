/** Prints rows as an aligned text table, or as JSON with --json. */
export function printRows(rows: Record<string, unknown>[], columns: string[], json: boolean): void {
  if (json) {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  if (rows.length === 0) {
    console.log('(none)');
    return;
  }
  const cells = rows.map((row) => columns.map((column) => formatCell(row[column])));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((line) => line[i].length)));
  const line = (values: string[]) =>
    values
      .map((value, i) => value.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  console.log(line(columns.map((column) => column.toUpperCase())));
  for (const row of cells) console.log(line(row));
}

/** Prints one object as `key: value` lines, or as JSON with --json. */
export function printObject(value: Record<string, unknown>, json: boolean): void {
  if (json) {
    console.log(JSON.stringify(value, null, 2));
    return;
  }
  const width = Math.max(...Object.keys(value).map((key) => key.length));
  for (const [key, item] of Object.entries(value)) console.log(`${`${key}:`.padEnd(width + 1)} ${formatCell(item)}`);
}

function formatCell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (Array.isArray(value)) return value.map(String).join(',');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value); // eslint-disable-line @typescript-eslint/no-base-to-string -- objects, null and undefined were handled above
}
