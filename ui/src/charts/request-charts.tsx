import { useEffect, useRef, useState } from 'react';
import { ErrorMessage } from '../components/notices';
import type { RequestFilter } from '../requests/format';
import { useElementSize } from '../tree/use-element-size';
import type { RequestStats } from '../types';
import { CLASSES, classTotals, latencySummary, rateSummary } from './chart-model';
import './charts.css';
import { readChartColors, useThemeKey } from './theme-colors';
import { useLiveStats } from './use-live-stats';
import type * as ChartsModuleNs from './uplot-charts';
import type { Chart, ChartColors } from './uplot-charts';

type ChartsModule = typeof ChartsModuleNs;

/** The windows offered, in minutes. */
const WINDOWS = [5, 15, 60] as const;

/** uPlot and the drawing code, loaded once, when a request log first shows its charts. */
let loading: Promise<ChartsModule> | undefined;
const loadCharts = () =>
  (loading ??= import('./uplot-charts').catch((e: unknown) => {
    loading = undefined; // a later showing tries again
    throw e;
  }));

/**
 * Above the request log's table: requests per second by status class over the last minutes,
 * and the latency histogram with p50/p95/p99 marked, for the filters in force, live. The figures
 * come from the admin API (GET …/requests/stats); each chart says what it shows in words too.
 */
export function RequestCharts({
  projectId,
  filter,
  reloadKey,
}: {
  projectId: string;
  filter: RequestFilter;
  reloadKey: number;
}) {
  const [minutes, setMinutes] = useState<number>(15);
  const { stats, error } = useLiveStats(projectId, filter, minutes, reloadKey);
  const [lib, setLib] = useState<ChartsModule>();
  const [libError, setLibError] = useState<unknown>();
  useEffect(() => {
    loadCharts().then(setLib, setLibError);
  }, []);
  const totals = stats ? classTotals(stats) : undefined;
  return (
    <section className="request-charts" aria-labelledby="request-charts-title">
      <div className="request-charts-head">
        <h2 id="request-charts-title">Traffic</h2>
        <label htmlFor="charts-window">
          Last
          <select id="charts-window" value={minutes} onChange={(e) => setMinutes(Number(e.target.value))}>
            {WINDOWS.map((m) => (
              <option key={m} value={m}>
                {m} minutes
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorMessage error={error ?? libError} />
      <div className="request-charts-grid">
        <figure className="request-chart">
          <figcaption>
            <strong>Requests per second</strong>
            <ul className="chart-legend" aria-label="Requests by response class">
              {CLASSES.map((c) => (
                <li key={c}>
                  <span className={`chart-swatch class-${c}`} aria-hidden="true" />
                  {c} <span className="chart-count">{totals?.[c] ?? '…'}</span>
                </li>
              ))}
            </ul>
          </figcaption>
          <ChartBox chart={RATE} stats={stats} lib={lib} />
        </figure>
        <figure className="request-chart">
          <figcaption>
            <strong>Latency</strong>{' '}
            <span className="chart-percentiles">{stats ? latencySummary(stats) : '…'}</span>
          </figcaption>
          <ChartBox chart={LATENCY} stats={stats} lib={lib} />
        </figure>
      </div>
    </section>
  );
}

/** What a chart box shows: its name, its figures in words, its drawing (from the lazy module). */
interface ChartKind {
  label: string;
  summarize: (stats: RequestStats) => string;
  draw: (lib: ChartsModule) => (el: HTMLElement, s: RequestStats, width: number, c: ChartColors) => Chart;
  /** Nothing to draw: the summary says so instead. */
  empty?: (stats: RequestStats) => boolean;
}

const RATE: ChartKind = {
  label: 'Requests per second by response class',
  summarize: rateSummary,
  draw: (lib) => lib.drawRateChart,
};

const LATENCY: ChartKind = {
  label: 'Latency histogram',
  summarize: latencySummary,
  draw: (lib) => lib.drawLatencyChart,
  empty: (stats) => stats.latency.count === 0,
};

/** One chart: uPlot in a box as wide as its column, drawn again when the figures, the width or the theme change. */
function ChartBox({
  chart,
  stats,
  lib,
}: {
  chart: ChartKind;
  stats: RequestStats | undefined;
  lib: ChartsModule | undefined;
}) {
  const [box, { width }] = useElementSize<HTMLDivElement>();
  const canvas = useRef<HTMLDivElement>(null);
  const theme = useThemeKey();
  const empty = stats !== undefined && chart.empty?.(stats) === true;
  useEffect(() => {
    const el = canvas.current;
    if (!el || !lib || !stats || width === 0 || empty) return;
    const drawn = chart.draw(lib)(el, stats, width, readChartColors(el));
    return () => drawn.destroy();
  }, [chart, lib, stats, width, theme, empty]);
  const summary = stats ? chart.summarize(stats) : undefined;
  return (
    <div ref={box} className="chart-box" role="img" aria-label={`${chart.label}: ${summary ?? 'loading'}`}>
      {empty ? <p className="chart-empty muted">{summary}</p> : <div ref={canvas} />}
    </div>
  );
}
