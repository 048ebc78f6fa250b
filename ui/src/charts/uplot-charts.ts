import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { RequestStats } from '../types';
import {
  binLabel,
  formatMs,
  histogramData,
  percentileMarks,
  STACK_ORDER,
  stackedRateData,
  type ClassName,
} from './chart-model';

/**
 * The request log's two charts drawn with uPlot. This module (and uPlot with it) is loaded only
 * when the request log shows its charts (a dynamic import), so the first screen does not carry it.
 */

/** The colours the charts draw with, read from the page's theme (request-charts.tsx). */
export interface ChartColors {
  text: string;
  /** The charts' background (behind the percentiles' labels). */
  background: string;
  grid: string;
  bar: string;
  classes: Record<ClassName, string>;
  /** p50, p95, p99 */
  marks: [string, string, string];
}

export interface Chart {
  destroy(): void;
}

const HEIGHT = 180;

function axis(colors: ChartColors, extra: uPlot.Axis = {}): uPlot.Axis {
  return {
    stroke: colors.text,
    grid: { stroke: colors.grid, width: 1 },
    ticks: { stroke: colors.grid, width: 1 },
    font: '12px system-ui, sans-serif',
    labelFont: '12px system-ui, sans-serif',
    ...extra,
  };
}

/** What both charts set alike: the size, no legend or cursor (the text beside says it), y from 0 with headroom. */
function chartOptions(
  width: number,
  x: uPlot.Scale,
  headroom: number,
  rest: Pick<uPlot.Options, 'axes' | 'series' | 'hooks'>,
): uPlot.Options {
  return {
    width,
    height: HEIGHT,
    legend: { show: false },
    cursor: { show: false },
    scales: { x, y: { range: (_u, _min, max) => [0, Math.max(1, max * headroom)] } },
    ...rest,
  };
}

/** Requests per second over the window, a bar per bucket stacked by status class (2xx at the bottom). */
export function drawRateChart(
  el: HTMLElement,
  stats: RequestStats,
  width: number,
  colors: ChartColors,
): Chart {
  const bars = uPlot.paths.bars!({ size: [0.8, 24], align: 0 });
  return new uPlot(
    chartOptions(
      width,
      { time: true, range: [Date.parse(stats.from) / 1000, Date.parse(stats.to) / 1000] },
      1.1,
      {
        axes: [axis(colors), axis(colors, { size: 52, values: (_u, splits) => splits.map((v) => `${v}/s`) })],
        series: [
          {},
          ...STACK_ORDER.map((c) => ({
            label: c,
            fill: colors.classes[c],
            stroke: colors.classes[c],
            paths: bars,
            points: { show: false },
          })),
        ],
      },
    ),
    stackedRateData(stats),
    el,
  );
}

/** The latency histogram, a bar per bin, with p50, p95 and p99 marked by labelled lines. */
export function drawLatencyChart(
  el: HTMLElement,
  stats: RequestStats,
  width: number,
  colors: ChartColors,
): Chart {
  const bins = stats.latency.histogram;
  const marks = percentileMarks(stats);
  const bars = uPlot.paths.bars!({ size: [0.8, 64], align: 0 });
  // Every bin is a split; when they crowd the axis only every n-th is labelled.
  const every = Math.max(1, Math.ceil((bins.length * 56) / Math.max(1, width - 60)));
  return new uPlot(
    chartOptions(width, { time: false, range: [-0.5, Math.max(0.5, bins.length - 0.5)] }, 1.2, {
      axes: [
        axis(colors, {
          label: 'ms',
          labelSize: 18,
          grid: { show: false },
          splits: () => bins.map((_, i) => i),
          values: (_u, splits) => splits.map((i) => (i % every === 0 ? binLabel(bins[i]!) : '')),
        }),
        axis(colors, {
          size: 44,
          values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? String(v) : '')),
        }),
      ],
      series: [
        {},
        { label: 'requests', fill: colors.bar, stroke: colors.bar, paths: bars, points: { show: false } },
      ],
      hooks: {
        draw: [
          (u) => {
            const ctx = u.ctx;
            const top = u.bbox.top;
            const bottom = top + u.bbox.height;
            ctx.save();
            ctx.font = `${Math.round(12 * uPlot.pxRatio)}px system-ui, sans-serif`;
            ctx.textBaseline = 'top';
            ctx.textAlign = 'left'; // uPlot leaves the last axis' alignment set
            marks.forEach((m, i) => {
              const x = Math.round(u.valToPos(m.x, 'x', true));
              ctx.strokeStyle = colors.marks[i]!;
              ctx.lineWidth = 2 * uPlot.pxRatio;
              ctx.setLineDash([4 * uPlot.pxRatio, 3 * uPlot.pxRatio]);
              ctx.beginPath();
              ctx.moveTo(x, top);
              ctx.lineTo(x, bottom);
              ctx.stroke();
              const text = `${m.name} ${formatMs(m.ms)}`;
              const w = ctx.measureText(text).width;
              // the label beside its line, on the side with more room (so a later mark's line,
              // further right, never crosses it), one row per mark so labels never overlap
              const left =
                x > u.bbox.left + u.bbox.width / 2 ? x - 4 * uPlot.pxRatio - w : x + 4 * uPlot.pxRatio;
              const y = top + i * 15 * uPlot.pxRatio;
              ctx.fillStyle = colors.background;
              ctx.fillRect(left - 2, y, w + 4, 14 * uPlot.pxRatio);
              ctx.fillStyle = colors.marks[i]!;
              ctx.fillText(text, left, y);
            });
            ctx.restore();
          },
        ],
      },
    }),
    histogramData(stats),
    el,
  );
}
