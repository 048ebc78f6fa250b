import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import type { TreeNode } from './build-tree';
import { fullText } from './tree-row';

/** How long a pointer rests on a row before its full text shows, and may take to reach it. */
const HOVER_DELAY_MS = 400;
const LEAVE_DELAY_MS = 150;

interface Tip {
  id: string;
  text: string;
  how: 'hover' | 'focus';
  x: number;
  y: number;
}

export interface RowTipHandle {
  tip: Tip | undefined;
  tipId: string;
  showTip: (node: TreeNode, row: HTMLElement, how: 'hover' | 'focus') => void;
  hideTip: (id: string, how: 'hover' | 'focus') => void;
  /** Hides it now (Escape); true when one was shown. */
  dismiss: () => boolean;
  /** Keeps a hovered tooltip while the pointer is on it, hides it when the pointer leaves. */
  hold: (on: boolean) => void;
}

/**
 * A row's full text in a tooltip (the row shows the path below its folder, cut with an ellipsis
 * when the pane is narrow): on keyboard focus at once, on hover after a short wait; it stays
 * while the pointer is on it, and Escape hides it (WCAG 1.4.13). The focused row is described by it.
 */
export function useRowTip(): RowTipHandle {
  const tipId = useId();
  const [tip, setTip] = useState<Tip>();
  const shown = useRef(tip);
  shown.current = tip;
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const clear = () => clearTimeout(timer.current);
  useEffect(() => clear, []);

  const showTip = useCallback((node: TreeNode, row: HTMLElement, how: 'hover' | 'focus') => {
    clear();
    const r = row.getBoundingClientRect();
    const label = row.querySelector('.tree-label')?.getBoundingClientRect();
    const next: Tip = { id: node.id, text: fullText(node), how, x: label?.left ?? r.left, y: r.bottom + 2 };
    if (how === 'focus') setTip(next);
    else timer.current = setTimeout(() => setTip((t) => (t?.how === 'focus' ? t : next)), HOVER_DELAY_MS);
  }, []);

  const hideTip = useCallback((id: string, how: 'hover' | 'focus') => {
    clear();
    if (how === 'focus') setTip((t) => (t?.id === id && t.how === 'focus' ? undefined : t));
    else
      timer.current = setTimeout(
        () => setTip((t) => (t?.id === id && t.how === 'hover' ? undefined : t)),
        LEAVE_DELAY_MS,
      );
  }, []);

  const hold = useCallback((on: boolean) => {
    clear();
    if (!on)
      timer.current = setTimeout(() => setTip((t) => (t?.how === 'hover' ? undefined : t)), LEAVE_DELAY_MS);
  }, []);

  const dismiss = useCallback(() => {
    clear();
    const had = shown.current !== undefined;
    setTip(undefined);
    return had;
  }, []);

  return { tip, tipId, showTip, hideTip, dismiss, hold };
}

/** The tooltip itself, kept inside the window. */
export function RowTip({ handle }: { handle: RowTipHandle }) {
  const { tip, tipId, hold } = handle;
  const el = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ x: 0, y: 0 });
  useLayoutEffect(() => {
    const box = el.current?.getBoundingClientRect();
    if (!tip || !box) return;
    setPos({
      x: Math.max(4, Math.min(tip.x, window.innerWidth - box.width - 4)),
      y: tip.y + box.height > window.innerHeight - 4 ? tip.y - box.height - 34 : tip.y,
    });
  }, [tip]);
  if (!tip) return null;
  return (
    <div
      ref={el}
      id={tipId}
      role="tooltip"
      className="tree-tip"
      style={{ left: pos.x, top: pos.y }}
      onMouseEnter={() => hold(true)}
      onMouseLeave={() => hold(false)}
    >
      {tip.text}
    </div>
  );
}
