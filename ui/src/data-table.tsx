import type { ReactNode } from 'react';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  /** Right-aligned, for numbers with units. */
  numeric?: boolean;
  className?: string;
}

/**
 * The tables of every page: labelled, headers with scope, numbers right-aligned, and scrolling inside their
 * box on a narrow screen. `rowProps` adds attributes to a row (e.g. `data-run-id`).
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  rowProps,
}: {
  label: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  rowProps?: (row: T) => Record<string, string>;
}) {
  const classOf = (column: Column<T>) =>
    [column.numeric ? 'num' : undefined, column.className].filter(Boolean).join(' ') || undefined;
  return (
    <div className="table-wrap">
      <table aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={column.numeric ? 'num' : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((column) => (
                <td key={column.header} className={classOf(column)}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
