import type { ReactNode } from 'react';
import { useData } from '../api/use-data';
import { ErrorMessage } from '../components/notices';
import { CheckboxField, InputField, RadioField, SelectField, type Save } from '../settings/fields';
import '../settings/settings.css';
import { settingRefusal } from '../settings/words';
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

/** One group of settings: a section named by its heading. */
function Group({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * Every setting (as `mockdev settings update`), each saved as soon as it changes (PATCH
 * /settings through the shared state, so the theme applies at once), saying "Saved" beside it;
 * a refused value shows why next to its field, the setting named as the screen names it.
 */
export function SettingsScreen() {
  const { settings, updateSettings } = useShared();
  const fallback = useData<Settings>(settings ? null : '/settings');
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
      try {
        await updateSettings({ [key]: value } as Partial<Settings>);
      } catch (e) {
        throw settingRefusal(e, key, label);
      }
    };
  /** A field's value and its save, `label` naming the setting in a refusal. */
  const field = <K extends keyof Settings>(key: K, label: string) => ({
    value: s[key],
    save: save(key, label),
  });

  return (
    <section className="screen settings-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">Settings</h1>
      <Group id="settings-appearance" title="Appearance">
        <RadioField legend="Theme" name="theme" options={THEMES} {...field('theme', 'theme')} />
      </Group>
      <Group id="settings-ports" title="Ports">
        <InputField
          kind="number"
          label="Default port of new projects"
          {...field('defaultPort', 'default port')}
        />
        <InputField kind="number" label="MCP HTTP port" {...field('mcpPort', 'MCP port')} />
        <InputField
          kind="number"
          label="UI port"
          hint="Used by mockdev ui when -p is not given (from its next start)."
          {...field('uiPort', 'UI port')}
        />
      </Group>
      <Group id="settings-mcp" title="MCP server">
        <CheckboxField
          label="Start the MCP server automatically"
          {...field('mcpAutoStart', 'MCP auto-start')}
        />
        <SelectField label="MCP logging" options={LOGGING} {...field('mcpLoggingMode', 'MCP logging')} />
      </Group>
      <Group id="settings-behaviour" title="Behaviour">
        <CheckboxField
          label="Confirm before deleting"
          {...field('confirmBeforeDelete', 'confirm before deleting')}
        />
        <CheckboxField label="Developer mode" {...field('developerMode', 'developer mode')} />
      </Group>
      <Group id="settings-log" title="Request log">
        <InputField
          kind="number"
          label="Requests kept per project"
          hint="The oldest unstarred requests go first."
          {...field('requestLogLimit', 'requests kept')}
        />
        <InputField
          kind="number"
          label="Body size limit (bytes)"
          hint="Larger request and response bodies are stored truncated."
          {...field('requestBodyLimitBytes', 'body size limit')}
        />
      </Group>
      <Group id="settings-mock-server" title="Mock server">
        <InputField
          kind="number"
          label="Request size limit (bytes)"
          hint="The largest request body a mock server takes, whole, for templates and rules; larger ones are answered 413. From a server's next start."
          {...field('requestSizeLimitBytes', 'request size limit')}
        />
      </Group>
      <Group id="settings-errors" title="Error reporting">
        <CheckboxField
          label="Allow error reports"
          hint="Nothing in mockdev reports errors yet: no data is sent even when this is on."
          {...field('errorReporting', 'error reporting')}
        />
        <InputField
          kind="text"
          label="Error report URL"
          hint="http or https; empty: none."
          emptyAs={null}
          {...field('errorReportingUrl', 'error report URL')}
        />
      </Group>
    </section>
  );
}
