import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useShared } from '../state';

/**
 * Asks before a destructive action and says what will go (a list of items). With the setting
 * confirmBeforeDelete off it answers yes at once. A native modal <dialog>: focus moves into it,
 * Escape cancels, and the page behind is inert.
 */
export interface ConfirmRequest {
  title: string;
  /** What will go, one line each (shown as a list; long lists are cut with a count). */
  items?: string[];
  message?: string;
  confirmLabel?: string;
}

type Confirm = (request: ConfirmRequest) => Promise<boolean>;
const ConfirmContext = createContext<Confirm | null>(null);

export function useConfirm(): Confirm {
  const c = useContext(ConfirmContext);
  if (!c) throw new Error('useConfirm outside ConfirmProvider');
  return c;
}

const SHOWN_ITEMS = 20;

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const { settings } = useShared();
  const [pending, setPending] = useState<{ request: ConfirmRequest; resolve: (ok: boolean) => void }>();
  const dialog = useRef<HTMLDialogElement>(null);

  const confirm = useCallback<Confirm>(
    (request) => {
      if (settings && !settings.confirmBeforeDelete) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => setPending({ request, resolve }));
    },
    [settings],
  );

  useEffect(() => {
    if (pending && dialog.current && !dialog.current.open) dialog.current.showModal();
  }, [pending]);

  const answer = (ok: boolean) => {
    pending?.resolve(ok);
    setPending(undefined);
    dialog.current?.close();
  };

  const items = pending?.request.items ?? [];
  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      <dialog
        ref={dialog}
        className="confirm"
        aria-labelledby="confirm-title"
        onCancel={(e) => {
          e.preventDefault();
          answer(false);
        }}
      >
        {pending && (
          <form
            method="dialog"
            onSubmit={(e) => {
              e.preventDefault();
              answer(true);
            }}
          >
            <h2 id="confirm-title">{pending.request.title}</h2>
            {pending.request.message && <p>{pending.request.message}</p>}
            {items.length > 0 && (
              <ul className="confirm-items">
                {items.slice(0, SHOWN_ITEMS).map((item, i) => (
                  <li key={i}>{item}</li>
                ))}
                {items.length > SHOWN_ITEMS && <li>…and {items.length - SHOWN_ITEMS} more</li>}
              </ul>
            )}
            <div className="actions">
              <button type="button" onClick={() => answer(false)} autoFocus>
                Cancel
              </button>
              <button type="submit" className="danger">
                {pending.request.confirmLabel ?? 'Delete'}
              </button>
            </div>
          </form>
        )}
      </dialog>
    </ConfirmContext.Provider>
  );
}
