import { CommandLine } from '../components/copy-button';
import { TableHead } from '../components/table-head';
import type { TunnelProviderCheck } from '../types';

/** Whether each provider is installed (its version), and how to install a missing one. */
export function ProviderChecks({ checks }: { checks: TunnelProviderCheck[] }) {
  return (
    <table className="tunnel-providers">
      <TableHead columns={['Provider', 'Status', 'Details']} />
      <tbody>
        {checks.map((c) => (
          <tr key={c.provider}>
            <th scope="row">{c.provider}</th>
            <td>
              {c.available ? (
                <span className="trust-status trust-trusted">
                  Available{c.version ? ` (${c.version})` : ''}
                </span>
              ) : (
                <span className="trust-status trust-not-trusted">Not installed</span>
              )}
            </td>
            <td>
              <div className="muted">{c.detail}</div>
              {!c.available && c.install && (
                <div className="tunnel-install">
                  <p>To install {c.provider}:</p>
                  {c.install.commands.map((command, i) => (
                    <CommandLine
                      key={i}
                      command={command}
                      what={`the command${c.install!.commands.length > 1 ? ` ${i + 1}` : ''} installing ${c.provider}`}
                    />
                  ))}
                  <a href={c.install.page} target="_blank" rel="noreferrer">
                    {c.provider}’s download page
                  </a>
                </div>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
