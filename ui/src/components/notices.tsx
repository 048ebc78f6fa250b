import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { ApiError } from '../api/client';

/**
 * Messages at the top of the page: every error from the API is shown with its title and detail
 * (never swallowed), and successes are said briefly. Errors stay until dismissed; an info notice
 * fades after a few seconds.
 */
export interface Notice {
  id: number;
  kind: 'error' | 'info';
  title: string;
  detail?: string;
}

interface Notify {
  error: (e: unknown, context?: string) => void;
  info: (title: string, detail?: string) => void;
}

const NotifyContext = createContext<Notify | null>(null);

export function useNotify(): Notify {
  const n = useContext(NotifyContext);
  if (!n) throw new Error('useNotify outside NoticesProvider');
  return n;
}

/** The words of any error: an ApiError's title and detail, else its message. */
export function describeError(e: unknown): { title: string; detail?: string } {
  if (e instanceof ApiError) return { title: e.title, detail: e.detail };
  if (e instanceof Error) return { title: e.message };
  return { title: String(e) };
}

let nextId = 1;

export function NoticesProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const dismiss = useCallback((id: number) => setNotices((all) => all.filter((n) => n.id !== id)), []);
  const notify = useMemo<Notify>(
    () => ({
      error: (e, context) => {
        if ((e as Error)?.name === 'AbortError') return;
        const { title, detail } = describeError(e);
        const id = nextId++;
        setNotices((all) => [
          ...all.slice(-4),
          { id, kind: 'error', title: context ? `${context}: ${title}` : title, detail },
        ]);
      },
      info: (title, detail) => {
        const id = nextId++;
        setNotices((all) => [...all.slice(-4), { id, kind: 'info', title, detail }]);
        setTimeout(() => dismiss(id), 4000);
      },
    }),
    [dismiss],
  );
  return (
    <NotifyContext.Provider value={notify}>
      {children}
      <div className="notices" aria-live="polite">
        {notices.map((n) => (
          <div
            key={n.id}
            className={`notice notice-${n.kind}`}
            role={n.kind === 'error' ? 'alert' : 'status'}
          >
            <div>
              <strong>{n.title}</strong>
              {n.detail && <div className="notice-detail">{n.detail}</div>}
            </div>
            <button type="button" className="icon" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </NotifyContext.Provider>
  );
}

/** An error shown in place (a screen that could not load), with its detail. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const { title, detail } = describeError(error);
  return (
    <div className="error-box" role="alert">
      <strong>{title}</strong>
      {detail && <div>{detail}</div>}
    </div>
  );
}
