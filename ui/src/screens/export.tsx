import { useEffect, useId, useState } from 'react';
import { get, enc, query } from '../api/client';
import { useEvent } from '../api/events';
import { Radio } from '../components/choice';
import { ErrorMessage } from '../components/notices';
import { exportFileName } from '../import/format';
import '../import/import.css';
import type { ProjectScreenProps } from './registry';

type Format = 'yaml' | 'json';
type Version = '3.0' | '3.1';

/** The project as an OpenAPI document: YAML or JSON, 3.0 or 3.1, previewed and downloaded. */
export function ExportScreen({ project }: ProjectScreenProps) {
  const id = useId();
  const [format, setFormat] = useState<Format>('yaml');
  const [version, setVersion] = useState<Version>('3.0');
  const [doc, setDoc] = useState<{ text: string; key: string }>();
  const [error, setError] = useState<unknown>();
  const [changes, setChanges] = useState(0);
  const key = `${format}/${version}`;
  // The preview follows the project: an endpoint changed anywhere (UI, CLI, MCP) fetches it again.
  useEvent('endpoints', (e) => {
    if (e.projectId === project.id) setChanges((n) => n + 1);
  });

  useEffect(() => {
    const abort = new AbortController();
    setError(undefined);
    get<unknown>(`/projects/${enc(project.id)}/openapi${query({ format, version })}`, abort.signal).then(
      (answer) =>
        setDoc({ text: typeof answer === 'string' ? answer : JSON.stringify(answer, null, 2) + '\n', key }),
      (e: unknown) => {
        if ((e as Error)?.name !== 'AbortError') setError(e);
      },
    );
    return () => abort.abort();
  }, [project.id, format, version, key, changes]);

  const current = doc?.key === key ? doc : undefined;
  const fileName = exportFileName(project.name, format);

  const download = () => {
    if (!current) return;
    const blob = new Blob([current.text], {
      type: format === 'json' ? 'application/json' : 'application/yaml',
    });
    const href = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = href;
    a.download = fileName;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  };

  return (
    <section className="screen export-screen" aria-labelledby="screen-title">
      <h1 id="screen-title">Export {project.name}</h1>
      <div className="toolbar">
        <fieldset className="options">
          <legend>Format</legend>
          {(['yaml', 'json'] as const).map((f) => (
            <Radio key={f} name={`${id}-format`} checked={format === f} onSelect={() => setFormat(f)}>
              {f.toUpperCase()}
            </Radio>
          ))}
        </fieldset>
        <fieldset className="options">
          <legend>OpenAPI version</legend>
          {(['3.0', '3.1'] as const).map((v) => (
            <Radio key={v} name={`${id}-version`} checked={version === v} onSelect={() => setVersion(v)}>
              OpenAPI {v}
            </Radio>
          ))}
        </fieldset>
        <button type="button" className="primary" disabled={!current} onClick={download}>
          Download {fileName}
        </button>
      </div>
      <ErrorMessage error={error} />
      <h2>Preview</h2>
      {current ? (
        <pre className="doc-preview" tabIndex={0} aria-label="Document preview" data-format={key}>
          {current.text}
        </pre>
      ) : (
        !error && <p className="loading">Loading…</p>
      )}
    </section>
  );
}
