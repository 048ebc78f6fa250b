import type { ReactNode } from 'react';
import { Link } from './link';

/**
 * What a Pro feature adds, for a screen shown without a license: said in a note (`title`, then
 * what Pro adds), with the way to activate one (the License screen). The screen offers none of
 * the feature's actions.
 */
export function ProNote({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="empty-state pro-note" role="note" aria-label={title}>
      <p>
        <strong>{title}</strong> {children}
      </p>
      <p>
        <Link href="/license">Activate a license</Link> on the License screen (with a key, or by e-mail), or
        run <code>mockdev license activate &lt;key&gt;</code> in a terminal.
      </p>
    </div>
  );
}
