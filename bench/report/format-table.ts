export type Cell = string | number | null | undefined;

/** A table as aligned plain text (stdout) or as GitHub Markdown. */
export function formatTable(headers: readonly string[], rows: readonly Cell[][], markdown: boolean): string {
  const text = rows.map((row) => row.map(formatCell));
  if (markdown) {
    const align = headers.map((_, index) =>
      index === 0 || text.every((row) => !/^-?[\d.]/.test(row[index] ?? '')) ? '---' : '---:',
    );
    return [`| ${headers.join(' | ')} |`, `|${align.join('|')}|`, ...text.map((row) => `| ${row.join(' | ')} |`)].join(
      '\n',
    );
  }
  const widths = headers.map((header, index) =>
    Math.max(header.length, ...text.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => (index < 2 ? cell.padEnd(widths[index]) : cell.padStart(widths[index])))
      .join('  ')
      .trimEnd();
  return [line(headers), widths.map((width) => '-'.repeat(width)).join('  '), ...text.map(line)].join('\n');
}

function formatCell(cell: Cell): string {
  if (cell === null || cell === undefined) return '–';
  if (typeof cell === 'number') return Number.isInteger(cell) ? String(cell) : String(Math.round(cell * 100) / 100);
  return cell;
}
