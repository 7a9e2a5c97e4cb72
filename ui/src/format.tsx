const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });

/** A time in the browser's zone, with the ISO value on hover (and for machines, in datetime). */
export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <span>—</span>;
  return (
    <time dateTime={iso} title={iso}>
      {dateTime.format(new Date(iso))}
    </time>
  );
}

export function formatUsd(value: number): string {
  if (value === 0) return '$0';
  if (Math.abs(value) < 0.01) return `$${value.toPrecision(2)}`;
  return `$${value.toFixed(value < 10 ? 4 : 2)}`;
}

export function formatTokens(value: number): string {
  return `${integer.format(value)} tokens`;
}

/** `unit` is plural ("runs"): one of them drops its final s ("1 run"). */
export function formatCount(value: number, unit: string): string {
  return `${integer.format(value)} ${value === 1 && unit.endsWith('s') ? unit.slice(0, -1) : unit}`;
}

export function formatMs(value: number): string {
  return value < 1000 ? `${integer.format(value)} ms` : `${(value / 1000).toFixed(2)} s`;
}

export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86_400)} d ${Math.floor((seconds % 86_400) / 3600)} h`;
}

/** Midnight of today (local) shifted by `days`. */
export function startOfDay(days = 0): Date {
  const date = new Date();
  date.setHours(0, 0, 0, 0);
  date.setDate(date.getDate() + days);
  return date;
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status}</span>;
}
