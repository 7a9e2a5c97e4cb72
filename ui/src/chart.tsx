import { useEffect, useRef, useSyncExternalStore } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartSeries {
  label: string;
  values: number[];
  format: (value: number) => string;
}

const COLORS = ['#2563eb', '#d97706', '#dc2626', '#059669', '#7c3aed', '#db2777'];

/**
 * A uPlot line chart over time (x in seconds) with a legend of each series' total: the canvas is for the eye,
 * the legend and the hidden table carry the same numbers for screen readers and tests.
 */
export function TimeChart({
  title,
  x,
  series,
  bars = false,
  dual = false,
}: {
  title: string;
  x: number[];
  series: ChartSeries[];
  bars?: boolean;
  /** The second series has its own axis on the right (e.g. cost beside counts). */
  dual?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const dark = useDarkScheme();
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const step = x.length > 1 ? x[1] - x[0] : 0;
    const axis = { stroke: dark ? '#cbd5e1' : '#334155', grid: { stroke: dark ? '#334155' : '#e2e8f0' } };
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 280),
        height: 220,
        legend: { show: false },
        scales: {
          // Bars at the ends would be cut in half: the x range gets half a bucket on each side.
          x:
            bars && x.length > 1
              ? { time: true, range: (_plot, min, max) => [min - step / 2, max + step / 2] }
              : { time: true },
          y: { auto: true },
          y2: { auto: true },
        },
        series: [
          {},
          ...series.map((item, index) => ({
            label: item.label,
            stroke: COLORS[index % COLORS.length],
            fill: bars ? `${COLORS[index % COLORS.length]}55` : undefined,
            width: 2,
            paths: bars ? uPlot.paths.bars?.({ size: [0.6, 40] }) : undefined,
            points: { show: !bars && x.length < 40 },
            scale: dual && index === 1 ? 'y2' : 'y',
          })),
        ],
        axes: [axis, { ...axis, scale: 'y' }, ...(dual ? [{ ...axis, scale: 'y2', side: 1 }] : [])],
      },
      [x, ...series.map((item) => item.values)],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 280), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [x, series, bars, dual, dark]);
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <div ref={box} role="img" aria-label={`${title}: ${legendText(series)}`} />
      <ul className="legend">
        {series.map((item, index) => (
          <li key={item.label}>
            <span className="swatch" style={{ background: COLORS[index % COLORS.length] }} aria-hidden="true" />
            <span className="legend-label">{item.label}</span>{' '}
            <span className="legend-value">{item.format(item.values.reduce((sum, value) => sum + value, 0))}</span>
          </li>
        ))}
      </ul>
    </figure>
  );
}

function legendText(series: ChartSeries[]): string {
  return series
    .map((item) => `${item.label} ${item.format(item.values.reduce((sum, value) => sum + value, 0))}`)
    .join(', ');
}

const DARK = '(prefers-color-scheme: dark)';

/** True while the system asks for the dark theme: the canvas axes are redrawn when it changes (CSS follows by itself). */
function useDarkScheme(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const media = window.matchMedia(DARK);
      media.addEventListener('change', notify);
      return () => media.removeEventListener('change', notify);
    },
    () => window.matchMedia(DARK).matches,
  );
}
