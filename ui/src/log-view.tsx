import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';

const LINE_HEIGHT = 18;

/** A prompt log as pretty JSON, virtualised: only the lines in view are in the DOM, however long the log. */
export function LogView({ value, label }: { value: unknown; label: string }) {
  const lines = useMemo(() => JSON.stringify(value, null, 2).split('\n'), [value]);
  const parent = useRef<HTMLDivElement>(null);
  const rows = useVirtualizer({
    count: lines.length,
    getScrollElement: () => parent.current,
    estimateSize: () => LINE_HEIGHT,
    overscan: 20,
  });
  return (
    <div
      ref={parent}
      className="log-view"
      role="region"
      aria-label={`${label} (${lines.length} lines)`}
      tabIndex={0}
      style={{ height: Math.min(320, lines.length * LINE_HEIGHT + 4) }}
    >
      <div style={{ height: rows.getTotalSize(), position: 'relative' }}>
        {rows.getVirtualItems().map((row) => (
          <div
            key={row.key}
            className="log-line"
            style={{
              position: 'absolute',
              top: 0,
              left: 0,
              height: LINE_HEIGHT,
              transform: `translateY(${row.start}px)`,
            }}
          >
            {lines[row.index]}
          </div>
        ))}
      </div>
    </div>
  );
}
