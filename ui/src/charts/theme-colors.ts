import { useEffect, useState } from 'react';
import type { ChartColors } from './uplot-charts';

/**
 * The charts draw on a canvas, which takes no CSS variables: their colours are the theme's
 * (styles.css), resolved for the scheme in force by the browser through a probe element.
 */
export function readChartColors(root: HTMLElement): ChartColors {
  const probe = document.createElement('span');
  probe.hidden = true;
  root.append(probe);
  const color = (variable: string) => {
    probe.style.color = `var(${variable})`;
    return getComputedStyle(probe).color;
  };
  const colors: ChartColors = {
    text: color('--fg-muted'),
    background: color('--bg-alt'),
    grid: color('--border'),
    bar: color('--accent'),
    classes: {
      '2xx': color('--ok'),
      '3xx': color('--accent'),
      '4xx': color('--warn'),
      '5xx': color('--danger'),
    },
    marks: [color('--ok'), color('--warn'), color('--danger')],
  };
  probe.remove();
  return colors;
}

/** A number that changes when the page's colours may have: the theme setting or the system's scheme. */
export function useThemeKey(): number {
  const [key, setKey] = useState(0);
  useEffect(() => {
    const bump = () => setKey((k) => k + 1);
    const observer = new MutationObserver(bump);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const scheme = matchMedia('(prefers-color-scheme: dark)');
    scheme.addEventListener('change', bump);
    return () => {
      observer.disconnect();
      scheme.removeEventListener('change', bump);
    };
  }, []);
  return key;
}
