import { useState } from 'react';
import { query } from '../api/client';
import { useData } from '../api/use-data';
import { CommandLine } from '../components/copy-button';
import { ErrorMessage } from '../components/notices';
import type { TrustInstructions, TrustTarget } from '../types';

/** The systems `tls trust --os` knows, as people name them (every target: the type says so). */
const TARGETS: Record<TrustTarget, string> = {
  macos: 'macOS',
  windows: 'Windows',
  linux: 'Linux',
  firefox: 'Firefox and Chromium (NSS)',
  java: 'Java',
  node: 'Node.js',
};

/**
 * The commands that trust the CA on a chosen system (first: the one `mockdev ui` runs on), each
 * with a copy button; mockdev never runs them.
 */
export function TrustCommands() {
  const [target, setTarget] = useState<TrustTarget>();
  const instructions = useData<TrustInstructions>(`/tls/trust${query({ os: target })}`);
  const shown = instructions.data;
  return (
    <>
      <label className="inline tls-target">
        System
        <select
          value={target ?? shown?.target ?? ''}
          onChange={(e) => setTarget(e.target.value as TrustTarget)}
          disabled={!shown && !instructions.error}
        >
          {!target && !shown && <option value="">This system</option>}
          {(Object.keys(TARGETS) as TrustTarget[]).map((t) => (
            <option key={t} value={t}>
              {TARGETS[t]}
            </option>
          ))}
        </select>
      </label>
      <ErrorMessage error={instructions.error} />
      {!shown ? (
        !instructions.error && <p className="loading">Loading…</p>
      ) : (
        <ol className="tls-steps" aria-label={`Steps for ${TARGETS[shown.target]}`}>
          {shown.steps.map((step, i) => (
            <li key={i}>
              <p>{step.title}</p>
              {step.commands.map((command, j) => (
                <CommandLine
                  key={j}
                  command={command}
                  what={`command ${j + 1} of step ${i + 1} (${TARGETS[shown.target]})`}
                />
              ))}
            </li>
          ))}
        </ol>
      )}
      {shown && (
        <p className="hint">
          The commands name the CA file <code>{shown.caFile}</code>; mockdev never runs them. Run them in a
          terminal, then reload this page to see the trust stores again.
        </p>
      )}
    </>
  );
}
