import { useCallback, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';

/** Where the tree pane's width is kept in the browser (per origin: the UI's address). */
export const TREE_WIDTH_KEY = 'mockdev.endpointTree.width';
export const TREE_WIDTH = { min: 200, initial: 320, step: 16 } as const;
/** What the editor keeps beside the tree, at least (the pane never takes it). */
const EDITOR_MIN = 400;

function stored(): number {
  try {
    const n = Number(localStorage.getItem(TREE_WIDTH_KEY));
    return Number.isFinite(n) && n >= TREE_WIDTH.min ? Math.round(n) : TREE_WIDTH.initial;
  } catch {
    return TREE_WIDTH.initial; // storage refused (a private window's policy): the default
  }
}

export interface PaneWidth {
  /** The width the tree pane has: as chosen, within what the screen leaves the editor. */
  width: number;
  max: number;
  /** Sets it (kept in the browser when `keep`: at the end of a drag, on each key). */
  set: (width: number, keep?: boolean) => void;
}

/**
 * The endpoint tree pane's width, chosen by dragging (or the keyboard on) the bar between the
 * tree and the editor, and kept between sessions in the browser's localStorage. `layoutWidth`
 * is the width of the screen's two panes together (0 before it is measured).
 */
export function usePaneWidth(layoutWidth: number): PaneWidth {
  const [chosen, setChosen] = useState(stored);
  const max = layoutWidth > 0 ? Math.max(TREE_WIDTH.min, layoutWidth - EDITOR_MIN) : Number.MAX_SAFE_INTEGER;
  const width = Math.min(Math.max(chosen, TREE_WIDTH.min), max);
  const set = useCallback(
    (w: number, keep = true) => {
      const next = Math.round(Math.min(Math.max(w, TREE_WIDTH.min), max));
      setChosen(next);
      if (keep)
        try {
          localStorage.setItem(TREE_WIDTH_KEY, String(next));
        } catch {
          // not kept: the width still holds for this page
        }
    },
    [max],
  );
  return { width, max, set };
}

/**
 * The bar between the tree and the editor: a focusable `separator` whose value is the tree's
 * width in pixels. Drag it, or with it focused: Left/Right (Shift: four times as far), Home
 * (narrowest), End (widest); a double click goes back to the default width.
 */
export function PaneResizer({ pane, controls }: { pane: PaneWidth; controls: string }) {
  const drag = useRef<{ x: number; width: number } | null>(null);
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus();
    drag.current = { x: e.clientX, width: pane.width };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d) pane.set(d.width + e.clientX - d.x, false);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    drag.current = null;
    pane.set(d.width + e.clientX - d.x, true);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = TREE_WIDTH.step * (e.shiftKey ? 4 : 1);
    const to =
      e.key === 'ArrowLeft'
        ? pane.width - step
        : e.key === 'ArrowRight'
          ? pane.width + step
          : e.key === 'Home'
            ? TREE_WIDTH.min
            : e.key === 'End'
              ? pane.max
              : undefined;
    if (to === undefined) return;
    e.preventDefault();
    pane.set(to);
  };
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Endpoint tree width"
      aria-controls={controls}
      aria-valuenow={pane.width}
      aria-valuemin={TREE_WIDTH.min}
      aria-valuemax={Math.max(pane.width, Math.min(pane.max, 10_000))}
      aria-valuetext={`${pane.width} pixels`}
      tabIndex={0}
      className="pane-resizer"
      title="Drag to resize the endpoint tree (double click: default width)"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => (drag.current = null)}
      onDoubleClick={() => pane.set(TREE_WIDTH.initial)}
      onKeyDown={onKeyDown}
    />
  );
}
