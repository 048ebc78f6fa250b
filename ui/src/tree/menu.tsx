import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';

/**
 * An accessible popup menu (`role="menu"` with `menuitem`s): focus moves to the first item,
 * Up/Down (and Home/End) move, Enter or Space runs an item, Right opens an item's submenu and
 * Left closes it, Escape or Tab closes (and the owner returns focus where it came from), a click
 * outside closes.
 */
export interface MenuItem {
  label: string;
  onSelect?: () => void;
  /** Items of a submenu this item opens. */
  submenu?: MenuItem[];
  danger?: boolean;
}

export interface MenuProps {
  label: string;
  items: MenuItem[];
  /** Where the menu opens (viewport coordinates of its top left corner). */
  x: number;
  y: number;
  /** Closes the menu; `restoreFocus` when focus should go back to what opened it (Escape, Tab, a chosen item). */
  onClose: (restoreFocus: boolean) => void;
}

export function Menu({ label, items, x, y, onClose }: MenuProps) {
  const root = useRef<HTMLDivElement>(null);
  /** The open submenu: which item of the menu opened it, and where. */
  const [sub, setSub] = useState<{ index: number; x: number; y: number } | null>(null);
  const parentItem = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const outside = (e: PointerEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) onClose(false);
    };
    document.addEventListener('pointerdown', outside, true);
    return () => document.removeEventListener('pointerdown', outside, true);
  }, [onClose]);
  const subItems = sub ? items[sub.index]?.submenu : undefined;
  return (
    <div ref={root}>
      <MenuList
        label={label}
        items={items}
        x={x}
        y={y}
        onClose={onClose}
        openIndex={sub?.index ?? null}
        onOpenSub={(index, el) => {
          const r = el.getBoundingClientRect();
          parentItem.current = el;
          setSub({ index, x: r.right - 2, y: r.top });
        }}
        onCloseSub={() => setSub(null)}
      />
      {sub && subItems && (
        <MenuList
          key={sub.index}
          label={items[sub.index]!.label}
          items={subItems}
          x={sub.x}
          y={sub.y}
          onClose={onClose}
          onBack={() => {
            setSub(null);
            parentItem.current?.focus();
          }}
        />
      )}
    </div>
  );
}

interface MenuListProps extends MenuProps {
  /** A submenu: closes it and returns to its parent item (Left, Escape). */
  onBack?: () => void;
  /** The item whose submenu is open. */
  openIndex?: number | null;
  onOpenSub?: (index: number, item: HTMLElement) => void;
  onCloseSub?: () => void;
}

function MenuList({ label, items, x, y, onClose, onBack, openIndex, onOpenSub, onCloseSub }: MenuListProps) {
  const list = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ x, y });

  const buttons = () => [...(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  const focusAt = (i: number) => {
    const all = buttons();
    all[(i + all.length) % all.length]?.focus();
  };

  // Keep the menu inside the window, then focus its first item.
  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    setPos({
      x: Math.max(4, Math.min(x, window.innerWidth - r.width - 4)),
      y: Math.max(4, Math.min(y, window.innerHeight - r.height - 4)),
    });
    focusAt(0);
  }, [x, y]);

  const run = (item: MenuItem, i: number) => {
    const el = buttons()[i];
    if (item.submenu) {
      if (el) onOpenSub?.(i, el);
      return;
    }
    onClose(true);
    item.onSelect?.();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const all = buttons();
    const i = all.indexOf(document.activeElement as HTMLElement);
    const item = items[i];
    let handled = true;
    if (e.key === 'ArrowDown') focusAt(i + 1);
    else if (e.key === 'ArrowUp') focusAt(i - 1);
    else if (e.key === 'Home') focusAt(0);
    else if (e.key === 'End') focusAt(all.length - 1);
    else if (e.key === 'ArrowRight' && item?.submenu) run(item, i);
    else if (e.key === 'ArrowLeft' && onBack) onBack();
    else if (e.key === 'Escape') {
      if (onBack) onBack();
      else onClose(true);
    } else if (e.key === 'Tab') onClose(true);
    else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  return (
    <div
      ref={list}
      role="menu"
      aria-label={label}
      className="tree-menu"
      style={{ left: pos.x, top: pos.y }}
      onKeyDown={onKeyDown}
    >
      {items.map((item, i) => (
        <button
          key={item.label}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={item.danger ? 'tree-menu-danger' : undefined}
          aria-haspopup={item.submenu ? 'menu' : undefined}
          aria-expanded={item.submenu ? openIndex === i : undefined}
          onClick={() => run(item, i)}
          onMouseEnter={() => {
            if (openIndex != null && openIndex !== i && !item.submenu) onCloseSub?.();
          }}
        >
          {item.label}
          {item.submenu && <span aria-hidden="true"> ▸</span>}
        </button>
      ))}
    </div>
  );
}
