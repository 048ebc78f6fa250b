import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * An element's content size, kept current with a ResizeObserver (react-arborist virtualises its
 * rows and needs a height and a width in pixels). 0 × 0 until it is first shown; while it is
 * hidden again, the last size shown.
 */
export function useElementSize<T extends HTMLElement>(): [
  RefObject<T | null>,
  { width: number; height: number },
] {
  const ref = useRef<T>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      const width = Math.floor(el.clientWidth);
      const height = Math.floor(el.clientHeight);
      if (width === 0 && height === 0) return; // hidden
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, size];
}
