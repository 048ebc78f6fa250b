import { useEffect, useId, useRef, useState } from 'react';
import { describeError } from '../components/notices';
import type * as CodeEditorChunk from './code-editor';
import type { CodeEditorProps } from './code-editor';
import { describeJsonProblem, formatJson, isJsonContentType, jsonProblem } from './json-check';

type CodeEditorModule = typeof CodeEditorChunk;
/** The code editor's chunk, asked for once (the first body shown), then kept. */
let loading: Promise<CodeEditorModule> | undefined;
let loaded: CodeEditorModule | undefined;
const loadCodeEditor = (): Promise<CodeEditorModule> =>
  (loading ??= import('./code-editor').then((m) => (loaded = m)));

/**
 * The body's editable text: the code editor (CodeMirror, lazily loaded), a plain textarea until
 * it has loaded (or if it cannot be: the UI still works offline from a cached shell).
 */
function BodyText(props: CodeEditorProps & { id: string; labelId: string }) {
  const [mod, setMod] = useState<CodeEditorModule | undefined>(loaded);
  useEffect(() => {
    if (mod) return;
    let live = true;
    loadCodeEditor().then(
      (m) => live && setMod(m),
      () => undefined, // the textarea stays
    );
    return () => {
      live = false;
    };
  }, [mod]);
  if (mod) return <mod.CodeEditor {...props} aria={{ ...props.aria, 'aria-labelledby': props.labelId }} />;
  return (
    <textarea
      id={props.id}
      rows={props.rows}
      spellCheck={false}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      {...props.aria}
    />
  );
}

/**
 * The body: a code editor checked as JSON as you type when the content type is JSON (the problem
 * with its line and column; a warning only when the body holds a template), a Format button,
 * and the API's own problem with the body (a template that does not compile) in place.
 */
export function BodyField({
  label,
  value,
  onChange,
  contentType,
  apiProblem,
  rows = 10,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  contentType: string;
  apiProblem?: unknown;
  /** The editor's height in lines, at least. */
  rows?: number;
}) {
  const id = useId();
  const focus = useRef<(() => void) | null>(null);
  const json = isJsonContentType(contentType);
  const problem = json ? jsonProblem(value) : null;
  const apiText = apiProblem
    ? (describeError(apiProblem).detail ?? describeError(apiProblem).title)
    : undefined;
  const describedBy = [problem ? `${id}-json` : '', apiText ? `${id}-api` : ''].filter(Boolean).join(' ');
  const invalid = (problem && !problem.template) || apiText;
  const aria: Record<string, string> = {};
  if (invalid) aria['aria-invalid'] = 'true';
  if (describedBy) aria['aria-describedby'] = describedBy;
  const canFormat = json && value.trim() !== '' && !problem;
  return (
    <div className="body-field">
      <div className="body-label-row">
        <label id={`${id}-label`} htmlFor={`${id}-text`} onClick={() => focus.current?.()}>
          {label}
        </label>
        <button
          type="button"
          disabled={!canFormat}
          title={canFormat ? 'Pretty-print the JSON' : 'Only a body that is valid JSON can be formatted'}
          onClick={() => onChange(formatJson(value))}
        >
          Format
        </button>
      </div>
      <BodyText
        id={`${id}-text`}
        labelId={`${id}-label`}
        value={value}
        onChange={onChange}
        json={json}
        rows={rows}
        aria={aria}
        focusRef={focus}
      />
      {problem && (
        <p id={`${id}-json`} className={problem.template ? 'field-warning' : 'field-problem'}>
          {problem.template
            ? 'Not JSON as written (a template may make it JSON when rendered): '
            : 'Invalid JSON: '}
          {describeJsonProblem(problem)}
        </p>
      )}
      {apiText && (
        <p id={`${id}-api`} className="field-problem">
          {apiText}
        </p>
      )}
    </div>
  );
}

/** Whether a body must not be saved: JSON content, not JSON, and no template to explain it. */
export function bodyBlocksSave(body: string, contentType: string): boolean {
  if (!isJsonContentType(contentType)) return false;
  const p = jsonProblem(body);
  return p !== null && !p.template;
}
