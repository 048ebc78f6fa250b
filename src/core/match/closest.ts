import { parseSegment, splitPath, type RouteLike } from './router.js';

/**
 * The endpoints closest to an unmatched request, for the 404 body: same method and similar
 * segments rank first. Only runs for unmatched requests, so a linear scan is fine here.
 */
export function closestRoutes<E extends RouteLike>(
  endpoints: readonly E[],
  method: string,
  path: string,
  limit = 3,
): E[] {
  const wanted = splitPath(path);
  const scored: { e: E; score: number; index: number }[] = [];
  endpoints.forEach((e, index) => {
    if (e.enabled === false) return;
    const template = splitPath(e.path);
    let score = e.method.toUpperCase() === method.toUpperCase() ? 0.75 : 0;
    const n = Math.max(template.length, wanted.length);
    for (let i = 0; i < n; i++) {
      const t = template[i];
      const w = wanted[i];
      if (t === undefined || w === undefined) {
        score -= 0.5;
        continue;
      }
      const pieces = parseSegment(t);
      if (pieces.some((p) => 'param' in p)) score += 0.8;
      else if (t === w) score += 1;
      else score += 0.5 * similarity(t.toLowerCase(), w.toLowerCase());
    }
    scored.push({ e, score, index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, limit).map((s) => s.e);
}

/** 1 for equal strings, 0 for nothing in common (normalised Levenshtein distance). */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const max = Math.max(a.length, b.length);
  if (max === 0) return 1;
  if (max > 200) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return 1 - prev[b.length]! / max;
}
