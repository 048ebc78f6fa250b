import type { ReactNode } from 'react';
import { Checkbox } from '../components/choice';
import { apiFieldProblem } from './api-problem';
import { BodyField } from './body-field';
import { CONTENT_TYPES, HeadersEditor, TextField } from './fields';
import type { ResponseValues } from './form-model';
import { TimingFields } from './timing-fields';

/**
 * What a variation may take from its endpoint (DECISIONS "Trust and data"): whether its body and
 * content type are the endpoint's, and the endpoint's values to show in their place.
 */
export interface Inherited {
  endpoint: { body: string; contentType: string; headers: Record<string, string> };
  body: boolean;
  contentType: boolean;
  onChange: (field: 'body' | 'contentType', inherit: boolean) => void;
}

/**
 * The response fields of an endpoint or a variation: status, status text, content type, delay
 * and fault in a grid, the header rows, the body with its JSON check. `what` names them: "Response" gives
 * the labels "Status", "Response headers", "Body"; "Variation" gives "Variation status",
 * "Variation headers", "Variation body". With `inherited` (a variation), the content type and
 * the body can be the endpoint's: a box to tick, and the endpoint's value shown instead.
 */
export function ResponseFields<F extends ResponseValues>({
  what,
  form,
  set,
  shown,
  apiError,
  headerProblems,
  leading,
  beforeHeaders,
  inherited,
}: {
  what: 'Response' | 'Variation';
  form: F;
  set: <K extends keyof F>(key: K, value: F[K]) => void;
  /** The problem shown at a field: the form's own once a save was tried, or the API's. */
  shown: (field: 'status' | 'contentType' | 'delay' | 'fault' | 'faultRate') => string | undefined;
  /** The failed save's error (its problems with a field are shown at that field). */
  apiError: unknown;
  headerProblems: Record<number, string>;
  /** Fields put first in the grid (the variation's name). */
  leading?: ReactNode;
  /** What comes between the grid and the headers (the variation's rules). */
  beforeHeaders?: ReactNode;
  inherited?: Inherited;
}) {
  const label = (text: string) => (what === 'Variation' ? `Variation ${text.toLowerCase()}` : text);
  const headersProblem = apiFieldProblem(apiError, 'headers');
  /** A text field's value and its change, for one of the grid's values. */
  const bind = <K extends 'status' | 'statusText' | 'contentType'>(key: K) => ({
    value: form[key],
    onChange: (v: string) => set(key, v as F[K]),
  });
  return (
    <>
      <div className="form-grid">
        {leading}
        <TextField
          label={label('Status')}
          {...bind('status')}
          problem={shown('status')}
          inputMode="numeric"
        />
        <TextField
          label={label('Status text')}
          {...bind('statusText')}
          problem={apiFieldProblem(apiError, 'statusText')}
          hint="Empty: the standard one"
        />
        {inherited?.contentType ? null : (
          <TextField
            label={label('Content type')}
            {...bind('contentType')}
            suggestions={CONTENT_TYPES}
            problem={shown('contentType')}
          />
        )}
        <TimingFields values={form} set={(k, v) => set(k, v as F[typeof k])} shown={shown} label={label} />
      </div>
      {inherited && (
        <div className="inherited">
          <Checkbox checked={inherited.contentType} onChange={(on) => inherited.onChange('contentType', on)}>
            Content type: the endpoint’s (inherited, now <code>{inherited.endpoint.contentType}</code>)
          </Checkbox>
          <Checkbox checked={inherited.body} onChange={(on) => inherited.onChange('body', on)}>
            Body: the endpoint’s (inherited)
          </Checkbox>
        </div>
      )}
      {beforeHeaders}
      <fieldset className="nested">
        <legend>{what} headers</legend>
        <HeadersEditor
          what={what}
          rows={form.headers}
          onChange={(rows) => set('headers', rows as F['headers'])}
          problems={headerProblems}
        />
        {headersProblem && <p className="field-problem">{headersProblem}</p>}
        {inherited && (
          <p className="hint">
            {Object.keys(inherited.endpoint.headers).length
              ? `Sent with the endpoint’s headers (${Object.keys(inherited.endpoint.headers).join(', ')}); a header here replaces the endpoint’s of the same name.`
              : 'The endpoint has no headers of its own.'}
          </p>
        )}
      </fieldset>
      {inherited?.body ? (
        <div className="body-field">
          <p>{label('Body')}: the endpoint’s (inherited)</p>
          <pre className="inherited-body">{inherited.endpoint.body || '(empty)'}</pre>
        </div>
      ) : (
        <BodyField
          label={label('Body')}
          value={form.body}
          onChange={(v) => set('body', v as F['body'])}
          contentType={inherited?.contentType ? inherited.endpoint.contentType : form.contentType}
          apiProblem={apiFieldProblem(apiError, 'body') ? apiError : undefined}
        />
      )}
      <Checkbox checked={form.templating} onChange={(v) => set('templating', v as F['templating'])}>
        Render {'{{…}}'} as templates (off: the status text, body and headers are sent as written, as imports
        do with a document’s text)
      </Checkbox>
    </>
  );
}

/** Shown after a refused save while the body blocks it. */
export function BodyBlocksSave() {
  return (
    <p className="field-problem" role="alert">
      The body is not valid JSON: fix it, or change the content type to send it as it is.
    </p>
  );
}
