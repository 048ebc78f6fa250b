import { useState } from 'react';
import { useData } from '../api/use-data';
import { ErrorMessage } from '../components/notices';
import { CheckboxField, InputField, RadioField, SelectField, type Save } from '../settings/fields';
import '../settings/settings.css';
import { useShared } from '../state';
import type { Settings } from '../types';

const THEMES = [
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
  { value: 'system', label: 'System (follows the operating system)' },
] as const;

const LOGGING = [
  { value: 'off', label: 'Off' },
  { value: 'errors', label: 'Errors only' },
  { value: 'all', label: 'All calls' },
] as const;

/**
 * Every setting (as `mockdev settings update`), each saved as soon as it changes (PATCH
 * /settings through the shared state, so the theme applies at once); a refused value shows the
 * API's words next to its field.
 */
export function SettingsScreen() {
  const { settings, updateSettings } = useShared();
  const fallback = useData<Settings>(settings ? null : '/settings');
  const [saved, setSaved] = useState('');
  const s = settings ?? fallback.data;
  if (!s)
    return (
      <section className="screen" aria-labelledby="screen-title">
        <h1 id="screen-title">Settings</h1>
        <ErrorMessage error={fallback.error} />
        {!fallback.error && <p className="loading">Loading…</p>}
      </section>
    );

  const save =
    (key: keyof Settings, label: string): Save =>
    async (value) => {
      setSaved('');
      await updateSettings({ [key]: value } as Partial<Settings>);
      setSaved(`Saved: ${label}`);
    };

  return (
    <section className="screen settings-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">Settings</h1>
      <p className="settings-saved" role="status">
        {saved}
      </p>
      <section aria-labelledby="settings-appearance">
        <h2 id="settings-appearance">Appearance</h2>
        <RadioField
          legend="Theme"
          name="theme"
          value={s.theme}
          options={THEMES}
          save={save('theme', 'theme')}
        />
      </section>
      <section aria-labelledby="settings-ports">
        <h2 id="settings-ports">Ports</h2>
        <InputField
          kind="number"
          label="Default port of new projects"
          value={s.defaultPort}
          save={save('defaultPort', 'default port')}
        />
        <InputField
          kind="number"
          label="MCP HTTP port"
          value={s.mcpPort}
          save={save('mcpPort', 'MCP port')}
        />
        <InputField
          kind="number"
          label="UI port"
          hint="Used by mockdev ui when -p is not given (from its next start)."
          value={s.uiPort}
          save={save('uiPort', 'UI port')}
        />
      </section>
      <section aria-labelledby="settings-mcp">
        <h2 id="settings-mcp">MCP server</h2>
        <CheckboxField
          label="Start the MCP server automatically"
          value={s.mcpAutoStart}
          save={save('mcpAutoStart', 'MCP auto-start')}
        />
        <SelectField
          label="MCP logging"
          value={s.mcpLoggingMode}
          options={LOGGING}
          save={save('mcpLoggingMode', 'MCP logging')}
        />
      </section>
      <section aria-labelledby="settings-behaviour">
        <h2 id="settings-behaviour">Behaviour</h2>
        <CheckboxField
          label="Confirm before deleting"
          value={s.confirmBeforeDelete}
          save={save('confirmBeforeDelete', 'confirm before deleting')}
        />
        <CheckboxField
          label="Developer mode"
          value={s.developerMode}
          save={save('developerMode', 'developer mode')}
        />
      </section>
      <section aria-labelledby="settings-log">
        <h2 id="settings-log">Request log</h2>
        <InputField
          kind="number"
          label="Requests kept per project"
          hint="The oldest unstarred requests go first."
          value={s.requestLogLimit}
          save={save('requestLogLimit', 'requests kept')}
        />
        <InputField
          kind="number"
          label="Body size limit (bytes)"
          hint="Larger request and response bodies are stored truncated."
          value={s.requestBodyLimitBytes}
          save={save('requestBodyLimitBytes', 'body size limit')}
        />
      </section>
      <section aria-labelledby="settings-errors">
        <h2 id="settings-errors">Error reporting</h2>
        <CheckboxField
          label="Allow error reports"
          hint="Nothing in mockdev reports errors yet: no data is sent even when this is on."
          value={s.errorReporting}
          save={save('errorReporting', 'error reporting')}
        />
        <InputField
          kind="text"
          label="Error report URL"
          hint="http or https; empty: none."
          value={s.errorReportingUrl}
          emptyAs={null}
          save={save('errorReportingUrl', 'error report URL')}
        />
      </section>
    </section>
  );
}
